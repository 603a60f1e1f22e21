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

.PHONY: setup build demo test pythonpath wheel generate bench-gpu-prepare clean

setup:
	@./third_party/setup.sh

build: setup
	$(BAZEL) build //...

pythonpath: setup
	@$(BAZEL) build --noshow_progress --ui_event_filters=-info,-stdout,-stderr \
	  //bindings:python_package >/dev/null 2>&1 || $(BAZEL) build //bindings:python_package
	@echo $(PYDIR)

demo: build
	PYTHONPATH=$(PYDIR) $(PYTHON) docs/examples/demo.py

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

# The installable wheel, dist/vkarray-<version>-cp311-cp311-linux_x86_64.whl, from the Bazel
# package (bindings/tools/build_wheel.py says why the tag is linux_*, not manylinux_*).
wheel: setup
	$(BAZEL) build //bindings:python_package
	rm -f $(CURDIR)/dist/vkarray-*.whl
	$(PYTHON) bindings/tools/build_wheel.py $(PYDIR)/vkarray $(CURDIR)/dist bindings/vkarray

# Rewrites the files generated from the Python API: the type stubs (bindings/vkarray/*.pyi),
# docs/api.md and the generated list of docs/differences_from_numpy.md. Tests fail while they
# are stale.
generate: setup
	$(BAZEL) build //bindings:python_package
	PYTHONPATH=$(PYDIR) $(PYTHON) bindings/tools/gen_stubs.py bindings/vkarray
	PYTHONPATH=$(PYDIR) $(PYTHON) bindings/tools/gen_api_docs.py docs
	$(BAZEL) build //bindings:python_package

# Builds the benchmarks and stages them for the GPU machine (see benchmarks/README.md).
bench-gpu-prepare: setup
	./benchmarks/gpu/prepare.sh

clean:
	$(BAZEL) clean
