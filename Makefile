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

.PHONY: setup build demo bench test pythonpath wheel generate bench-gpu-prepare conformance \
  conformance-cupy clean

setup:
	@./third_party/setup.sh

build: setup
	$(BAZEL) build //...

pythonpath: setup
	@$(BAZEL) build --noshow_progress --ui_event_filters=-info,-stdout,-stderr \
	  //bindings:python_package >/dev/null 2>&1 || $(BAZEL) build //bindings:python_package
	@echo $(PYDIR)

# The drop-in numpy programs, each at its demo size, on numpy and on vkarray on the default
# device (lavapipe on a machine with no GPU: 1-2 minutes on 2 cores), kernels per call next
# to numpy's operations, then the committed H200 results (benchmarks/demo.py;
# docs/examples/demo.py is the replica example).
demo: build
	PYTHONPATH=$(PYDIR) $(PYTHON) benchmarks/demo.py

# Every drop-in program at every size on every library importable here, and the C++
# microbenchmarks: table, JSON and plots in .bazel/bench/.
bench: build
	PYTHONPATH=$(PYDIR) $(PYTHON) benchmarks/run.py --libs numpy,vkarray,cupy,torch --micro \
	  --bin .bazel/bin/benchmarks --out $(CURDIR)/.bazel/bench

test: build
	@rm -rf $(CURDIR)/.bazel/pytest.xml
	@status=0; start=$$(date +%s); \
	$(TEST_ENV) $(BAZEL) test //... || status=$$?; \
	$(TEST_ENV) PYTHONPATH=$(PYDIR) $(PYTHON) -m pytest -q -p no:cacheprovider \
	  --junitxml=$(CURDIR)/.bazel/pytest.xml tests/python tests/third_party tests/cupy_suite \
	  tests/layering_test.py || status=$$?; \
	$(BAZEL) query --noshow_progress 'tests(//...)' > $(CURDIR)/.bazel/tests.txt 2>/dev/null; \
	VKA_TEST_SECONDS=$$(( $$(date +%s) - start )) \
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

# The array API standard's test suite (data-apis/array-api-tests) against vkarray, on the
# default device (lavapipe here). Read-only checkouts beside the project, never committed:
# the suite reads its spec from $(ARRAY_API_TESTS_DIR)/array-api (its submodule path). It
# needs a newer hypothesis than Debian's, ndindex and pytest-json-report: pip-installed into
# $(ARRAY_API_TESTS_DEPS) (used only here). See docs/conformance.md.
ARRAY_API_TESTS_DIR ?= /work/array-api-tests
ARRAY_API_SPEC_DIR ?= $(ARRAY_API_TESTS_DIR)/array-api
ARRAY_API_TESTS_DEPS ?= /work/array-api-tests-deps
CONFORMANCE_MAX_EXAMPLES ?= 100
CONFORMANCE_TESTS ?= array_api_tests
CONFORMANCE_ARGS ?=
CONFORMANCE_XML ?= $(CURDIR)/.bazel/conformance.xml

conformance: setup
	@missing=0; \
	if [ ! -d "$(ARRAY_API_TESTS_DIR)/array_api_tests" ]; then \
	  echo "conformance: no array-api-tests checkout at ARRAY_API_TESTS_DIR=$(ARRAY_API_TESTS_DIR)" \
	    "(git clone https://github.com/data-apis/array-api-tests there)"; missing=1; fi; \
	if [ ! -d "$(ARRAY_API_SPEC_DIR)/spec/2023.12" ]; then \
	  echo "conformance: no spec checkout with spec/2023.12 at ARRAY_API_SPEC_DIR=$(ARRAY_API_SPEC_DIR)" \
	    "(the data-apis/array-api commit the suite's submodule pins)"; missing=1; \
	elif [ "$$(realpath $(ARRAY_API_SPEC_DIR))" != "$$(realpath -m $(ARRAY_API_TESTS_DIR)/array-api)" ]; then \
	  echo "conformance: the suite reads its spec only from $(ARRAY_API_TESTS_DIR)/array-api;" \
	    "link ARRAY_API_SPEC_DIR=$(ARRAY_API_SPEC_DIR) there"; missing=1; fi; \
	if ! PYTHONPATH=$(ARRAY_API_TESTS_DEPS) $(PYTHON) -c \
	    'import hypothesis, ndindex, pytest_jsonreport, sys; sys.exit(hypothesis.__version_info__ < (6, 151))' \
	    2>/dev/null; then \
	  echo "conformance: hypothesis>=6.151, ndindex or pytest-json-report missing from" \
	    "ARRAY_API_TESTS_DEPS=$(ARRAY_API_TESTS_DEPS) ($(PYTHON) -m pip install --target" \
	    "$(ARRAY_API_TESTS_DEPS) 'hypothesis>=6.151' 'ndindex>=1.8' pytest-json-report pytest-metadata)"; \
	  missing=1; fi; \
	exit $$missing
	@$(BAZEL) build //bindings:python_package
	@rm -f $(CONFORMANCE_XML)
	@status=0; cd $(ARRAY_API_TESTS_DIR) && \
	ARRAY_API_TESTS_MODULE=vkarray ARRAY_API_TESTS_VERSION=2023.12 \
	  PYTHONPATH=$(ARRAY_API_TESTS_DEPS):$(PYDIR) $(PYTHON) -m pytest -p no:cacheprovider -q \
	  --max-examples=$(CONFORMANCE_MAX_EXAMPLES) --derandomize --disable-deadline \
	  --junitxml=$(CONFORMANCE_XML) $(CONFORMANCE_ARGS) $(CONFORMANCE_TESTS) || status=$$?; \
	$(PYTHON) $(CURDIR)/tests/conformance/summarize.py $(CONFORMANCE_XML); \
	exit $$status

# CuPy's test suite (tests/cupy_tests of cupy/cupy v13.6.0) against vkarray, a numpy-conformance
# oracle: each test runs once with numpy and once with vkarray through the `cupy` shim of
# tests/cupy_suite (CUDA-only features skip: tests/cupy_suite/skips.py). A copy of CuPy's
# tests/ directory beside the project, never committed. One pytest run per module, each with
# its JUnit XML in $(CUPY_XML_DIR); a test may run $(CUPY_TEST_TIMEOUT) s. See
# docs/conformance.md.
CUPY_TESTS_DIR ?= /work/cupy-tests
# Every module of CuPy's tests/cupy_tests but cuda_tests and prof_tests (CUDA only),
# array_api_tests (CuPy's separate cupy.array_api namespace; vkarray itself is measured by
# `make conformance`) and testing_tests (CuPy's own cupy.testing, which the shim replaces).
CUPY_MODULES ?= binary_tests core_tests creation_tests fft_tests functional_tests indexing_tests \
  io_tests lib_tests linalg_tests logic_tests manipulation_tests math_tests misc_tests \
  padding_tests polynomial_tests random_tests sorting_tests statistics_tests test_init.py \
  test_ndim.py test_numpy_interop.py test_type_routines.py
CUPY_TEST_TIMEOUT ?= 300
CUPY_MODULE_TIMEOUT ?= 14400
CUPY_ARGS ?= --tb=no
CUPY_XML_DIR ?= $(CURDIR)/.bazel/cupy-suite
CUPY_SUITE := $(CURDIR)/tests/cupy_suite

conformance-cupy: setup
	@if [ ! -d "$(CUPY_TESTS_DIR)/tests/cupy_tests" ]; then \
	  echo "conformance-cupy: no CuPy tests at CUPY_TESTS_DIR=$(CUPY_TESTS_DIR)" \
	    "(it needs $(CUPY_TESTS_DIR)/tests/cupy_tests). Copy CuPy v13.6.0's tests/ there:"; \
	  echo "  git clone --depth 1 --branch v13.6.0 https://github.com/cupy/cupy /tmp/cupy-src"; \
	  echo "  mkdir -p $(CUPY_TESTS_DIR) && cp -r /tmp/cupy-src/tests $(CUPY_TESTS_DIR)/"; \
	  exit 2; fi
	@$(BAZEL) build //bindings:python_package
	@rm -rf $(CUPY_XML_DIR) && mkdir -p $(CUPY_XML_DIR)
	@status=0; cd $(CUPY_TESTS_DIR)/tests && for m in $(CUPY_MODULES); do \
	  xml=$(CUPY_XML_DIR)/$${m//\//_}.xml; echo "== cupy_tests/$$m"; \
	  PYTHONPATH=$(CUPY_SUITE)/shim:$(CUPY_SUITE):$(PYDIR) timeout $(CUPY_MODULE_TIMEOUT) \
	    $(PYTHON) -m pytest -c $(CUPY_SUITE)/suite.ini --rootdir=$(CUPY_TESTS_DIR)/tests -q \
	    --vka-timeout=$(CUPY_TEST_TIMEOUT) --junitxml=$$xml $(CUPY_ARGS) cupy_tests/$$m; \
	  rc=$$?; [ $$rc -le 1 ] || echo "cupy_tests/$$m: pytest stopped with status $$rc"; \
	  [ $$rc -eq 0 ] || status=1; \
	done; \
	$(PYTHON) $(CUPY_SUITE)/summarize.py $(CUPY_XML_DIR)/*.xml --skips --failures 30; \
	exit $$status

clean:
	$(BAZEL) clean
