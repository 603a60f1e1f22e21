# vkarray: the two quick-start commands (`make demo`, `make test`) and their helpers.
# Every target first installs what is missing (third_party/setup.sh).

SHELL := /bin/bash
# Bazel must see Debian's tools first, whatever python3 comes first on the user's PATH.
export PATH := /usr/bin:/bin:$(PATH)
BAZEL := bazel
PYTHON := /usr/bin/python3
PYDIR := $(CURDIR)/.bazel/bin/bindings/python
TESTLOGS := $(CURDIR)/.bazel/testlogs
# The whole suite runs under the Vulkan validation layer: any validation message fails a test.
TEST_ENV := VKA_VALIDATE=1

.PHONY: setup build demo bench test pythonpath bench-gpu-prepare clean

setup:
	@./third_party/setup.sh

build: setup
	$(BAZEL) build //...

pythonpath: setup
	@$(BAZEL) build --noshow_progress --ui_event_filters=-info,-stdout,-stderr \
	  //bindings:python_package >/dev/null 2>&1 || $(BAZEL) build //bindings:python_package
	@echo $(PYDIR)

# The drop-in numpy programs at their small sizes, numpy against vkarray on the default device,
# with a progress bar and the table (docs/examples/demo.py is the replica example).
demo: build
	PYTHONPATH=$(PYDIR) $(PYTHON) benchmarks/run.py --libs numpy,vkarray --sizes small \
	  --warmup 0

# Every drop-in program at every size on every library importable here, and the C++
# microbenchmarks: table, JSON and plots in .bazel/bench/.
bench: build
	PYTHONPATH=$(PYDIR) $(PYTHON) benchmarks/run.py --libs numpy,vkarray,cupy,torch --micro \
	  --bin .bazel/bin/benchmarks --out $(CURDIR)/.bazel/bench

test: build
	@rm -rf $(CURDIR)/.bazel/pytest.xml
	@status=0; \
	$(TEST_ENV) $(BAZEL) test //... || status=$$?; \
	$(TEST_ENV) PYTHONPATH=$(PYDIR) $(PYTHON) -m pytest -q -p no:cacheprovider \
	  --junitxml=$(CURDIR)/.bazel/pytest.xml tests/python || status=$$?; \
	$(BAZEL) query --noshow_progress 'tests(//...)' > $(CURDIR)/.bazel/tests.txt 2>/dev/null; \
	$(PYTHON) tests/summarize.py $(TESTLOGS) $(CURDIR)/.bazel/tests.txt \
	  $(CURDIR)/.bazel/pytest.xml || status=$$?; \
	exit $$status

# Builds the benchmarks and stages them for the GPU machine (see benchmarks/README.md).
bench-gpu-prepare: setup
	./benchmarks/gpu/prepare.sh

clean:
	$(BAZEL) clean
