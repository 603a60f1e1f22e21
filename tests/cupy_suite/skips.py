"""The one place where the skip rules of CuPy's suite on vkarray live, each with its reason.

A test is skipped only for what is CUDA-specific (or CuPy's private implementation, which no
other library can have); a test that fails for a vkarray reason is a failure. Three kinds of
rule, all here:

- FEATURES: the stubs of the `cupy` shim (cupy.cuda, cupy._core, cupyx, ...) call skip(key)
  when a test uses them while it runs; STUB_FEATURES maps each stubbed path to its key;
- NODE_RULES: node ids (glob patterns relative to the checkout's tests/ directory) of tests
  that test CUDA-specific behaviour without reaching a stub (e.g. `__cuda_array_interface__`
  on an array);
- MARK_RULES: tests that carry a mark (testing.multi_gpu).

Skips a test asks for itself (with_requires on a numpy version, the stubs' answers to
`cupy.cuda.runtime.is_hip` (False) and `cupy.cuda.cub.available` (False)) are the tests' own.
cupy_suite/summarize.py counts skips per reason."""

import fnmatch

import pytest

# key -> reason. Every reason starts with its kind: "CUDA-specific" or "CuPy internals".
FEATURES = {
    "stream": "CUDA-specific: CUDA streams (cupy.cuda.Stream, stream= arguments)",
    "device": "CUDA-specific: CUDA device selection and properties (cupy.cuda.Device(n), "
              "compute capability, peer access)",
    "multi-gpu": "CUDA-specific: needs several CUDA devices (testing.multi_gpu)",
    "memory": "CUDA-specific: CUDA memory pools, allocators and pinned memory "
              "(cupy.cuda.MemoryPool, set_allocator, cupy.get_default_memory_pool)",
    "raw-kernel": "CUDA-specific: kernels written in CUDA C (RawKernel, RawModule, "
                  "ElementwiseKernel, ReductionKernel, create_ufunc/create_reduction_func, "
                  "CArray)",
    "fuse": "CUDA-specific: cupy.fuse compiles Python functions to CUDA kernels",
    "compiler": "CUDA-specific: NVRTC/nvcc and CUDA headers (cupy.cuda.compiler)",
    "cuda-array-interface": "CUDA-specific: __cuda_array_interface__",
    "cuda-runtime": "CUDA-specific: the CUDA runtime or driver API (cupy.cuda.runtime, "
                    "cupy.cuda.driver)",
    "cufft": "CUDA-specific: cuFFT plans, plan caches, callbacks and multi-GPU FFT "
             "(cupy.fft.config, cupyx.scipy.fftpack.get_fft_plan, cupy.cuda.cufft)",
    "cub-cutensor": "CUDA-specific: the CUB and cuTENSOR accelerators "
                    "(cupy._core._accelerator, cupyx.cutensor)",
    "cublas-cusolver": "CUDA-specific: cuBLAS/cuSOLVER handles and knobs (cupy.cublas, "
                       "cupyx.cusolver, cuBLAS compute types, batched gesv limit)",
    "curand": "CUDA-specific: cuRAND bit generators (XORWOW, MRG32k3a, Philox4x3210)",
    "cuda-graph": "CUDA-specific: CUDA graphs",
    "texture": "CUDA-specific: CUDA texture objects",
    "profiler": "CUDA-specific: the CUDA profiler and NVTX",
    "sync-detect": "CUDA-specific: device synchronization detection "
                   "(cupyx.allow_synchronize)",
    "cupyx-scipy": "CUDA-specific: cupyx.scipy (CuPy's SciPy on CUDA libraries)",
    "cupy-internals": "CuPy internals: tests of CuPy's private modules and of which of its "
                      "internal functions ran (cupy._core, cupy._util, mocks of CuPy paths)",
}

# Stubbed dotted path prefix -> FEATURES key; the longest matching prefix wins.
STUB_FEATURES = {
    "cupy.cuda": "cuda-runtime",
    "cupy.cuda.Stream": "stream",
    "cupy.cuda.ExternalStream": "stream",
    "cupy.cuda.get_current_stream": "stream",
    "cupy.cuda.stream": "stream",
    "cupy.cuda.Event": "stream",
    "cupy.cuda.Device": "device",
    "cupy.cuda.device": "device",
    "cupy.cuda.MemoryPool": "memory",
    "cupy.cuda.PinnedMemoryPool": "memory",
    "cupy.cuda.memory": "memory",
    "cupy.cuda.pinned_memory": "memory",
    "cupy.cuda.malloc_managed": "memory",
    "cupy.cuda.malloc_async": "memory",
    "cupy.cuda.alloc": "memory",
    "cupy.cuda.set_allocator": "memory",
    "cupy.cuda.get_allocator": "memory",
    "cupy.cuda.set_pinned_memory_allocator": "memory",
    "cupy.cuda.using_allocator": "memory",
    "cupy.cuda.compiler": "compiler",
    "cupy.cuda.nvrtc": "compiler",
    "cupy.cuda.get_nvcc_path": "compiler",
    "cupy.cuda.cufft": "cufft",
    "cupy.cuda.cub": "cub-cutensor",
    "cupy.cuda.cutensor": "cub-cutensor",
    "cupy.cuda.cublas": "cublas-cusolver",
    "cupy.cuda.cusolver": "cublas-cusolver",
    "cupy.cuda.curand": "curand",
    "cupy.cuda.graph": "cuda-graph",
    "cupy.cuda.texture": "texture",
    "cupy.cuda.profile": "profiler",
    "cupy.cuda.profiler": "profiler",
    "cupy.cuda.nvtx": "profiler",
    "cupy.get_default_memory_pool": "memory",
    "cupy.get_default_pinned_memory_pool": "memory",
    "cupy.RawKernel": "raw-kernel",
    "cupy.RawModule": "raw-kernel",
    "cupy.ElementwiseKernel": "raw-kernel",
    "cupy.ReductionKernel": "raw-kernel",
    "cupy.fuse": "fuse",
    "cupy.cublas": "cublas-cusolver",
    "cupy.cutensor": "cub-cutensor",
    "cupy.fft.config": "cufft",
    "cupy.fft._fft": "cufft",
    "cupy.fft._callback": "cufft",
    "cupy.fft._cache": "cufft",
    "cupy.random._bit_generator": "curand",
    "cupy.random._generator": "cupy-internals",
    "cupy._core": "cupy-internals",
    "cupy._core.create_ufunc": "raw-kernel",
    "cupy._core.create_reduction_func": "raw-kernel",
    "cupy._core.ElementwiseKernel": "raw-kernel",
    "cupy._core.ReductionKernel": "raw-kernel",
    "cupy._core._accelerator": "cub-cutensor",
    "cupy._core._cub_reduction": "cub-cutensor",
    "cupy._core.set_routine_accelerators": "cub-cutensor",
    "cupy._core.get_compute_type": "cublas-cusolver",
    "cupy._core.set_compute_type": "cublas-cusolver",
    "cupy._core.set_reduction_accelerators": "cub-cutensor",
    "cupy._core._fusion_trace": "fuse",
    "cupy._core.fusion": "fuse",
    "cupy._util": "cupy-internals",
    "cupy._environment": "compiler",
    "cupy.testing.AssertFunctionIsCalled": "cupy-internals",
    "cupy_backends": "cuda-runtime",
    "cupy_backends.cuda.stream": "stream",
    "cupy_backends.cuda.libs.nvrtc": "compiler",
    "cupyx": "cupyx-scipy",
    "cupyx.scipy": "cupyx-scipy",
    "cupyx.allow_synchronize": "sync-detect",
    "cupyx.cutensor": "cub-cutensor",
    "cupyx.cusolver": "cublas-cusolver",
    "cupyx.profiler": "profiler",
    "cupyx.jit": "raw-kernel",
}

# (node id glob, FEATURES key) for tests of CUDA-specific behaviour that reach no stub.
NODE_RULES = [
    ("cupy_tests/core_tests/test_raw.py::*", "raw-kernel"),
    ("cupy_tests/core_tests/test_userkernel.py::*", "raw-kernel"),
    ("cupy_tests/core_tests/test_carray.py::*", "raw-kernel"),
    ("cupy_tests/core_tests/test_function.py::*", "raw-kernel"),
    ("cupy_tests/core_tests/test_reduction.py::*ReductionKernel*", "raw-kernel"),
    ("cupy_tests/core_tests/test_reduction.py::*SimpleReductionFunction*", "raw-kernel"),
    ("cupy_tests/core_tests/test_core.py::TestCuPyHeaders*", "compiler"),
    ("cupy_tests/core_tests/test_include.py::*", "compiler"),
    ("cupy_tests/core_tests/test_cub_reduction.py::*", "cub-cutensor"),
    ("cupy_tests/core_tests/test_syncdetect.py::*", "sync-detect"),
    ("cupy_tests/core_tests/test_ndarray_cuda_array_interface.py::*", "cuda-array-interface"),
    ("cupy_tests/core_tests/test_ndarray.py::TestNdarrayCudaInterface*",
     "cuda-array-interface"),
    ("cupy_tests/*::TestCudaArrayInterface*", "cuda-array-interface"),
    ("cupy_tests/core_tests/fusion_tests/*", "fuse"),
    ("cupy_tests/core_tests/test_internal.py::*", "cupy-internals"),
    ("cupy_tests/core_tests/test_scan.py::*", "cupy-internals"),
    ("cupy_tests/core_tests/test_gufuncs.py::TestGUFuncSignature::*", "cupy-internals"),
    ("cupy_tests/fft_tests/test_cache.py::*", "cufft"),
    ("cupy_tests/fft_tests/test_callback.py::*", "cufft"),
    ("cupy_tests/fft_tests/test_fft.py::TestDefaultPlanType::*", "cufft"),
    ("cupy_tests/fft_tests/test_fft.py::TestFftAllocate::*", "cufft"),
    ("cupy_tests/fft_tests/test_fft.py::*PlanCtxManager*", "cufft"),
    ("cupy_tests/fft_tests/test_fft.py::*MultiGpu*", "multi-gpu"),
    ("cupy_tests/random_tests/test_bit_generator.py::*", "curand"),
    ("cupy_tests/random_tests/test_generator.py::TestResetStates::*", "cupy-internals"),
    ("cupy_tests/random_tests/test_generator.py::TestGetRandomState*", "cupy-internals"),
    ("cupy_tests/random_tests/test_generator.py::TestSetRandomState::*", "cupy-internals"),
    ("cupy_tests/random_tests/test_sample.py::TestRandomIntegers::*", "cupy-internals"),
    ("cupy_tests/random_tests/test_sample.py::TestChoice::*", "cupy-internals"),
    ("cupy_tests/random_tests/test_sample.py::TestRandomSample::test_rand", "cupy-internals"),
    ("cupy_tests/random_tests/test_sample.py::TestRandomSample::test_rand_default_dtype",
     "cupy-internals"),
    ("cupy_tests/random_tests/test_sample.py::TestRandomSample::test_randn", "cupy-internals"),
    ("cupy_tests/random_tests/test_sample.py::TestRandomSample::test_randn_default_dtype",
     "cupy-internals"),
    ("cupy_tests/cuda_tests/*", "cuda-runtime"),
    ("cupy_tests/prof_tests/*", "profiler"),
]

# (mark name, FEATURES key)
MARK_RULES = [
    ("multi_gpu", "multi-gpu"),
]


def reason(key):
    return FEATURES[key]


def skip(key):
    """Skips the running test for the feature `key` (a FEATURES key)."""
    raise pytest.skip.Exception(FEATURES[key])


def feature_of_path(path):
    """The FEATURES key of a stubbed dotted path: its longest prefix in STUB_FEATURES."""
    parts = path.split(".")
    for n in range(len(parts), 0, -1):
        key = STUB_FEATURES.get(".".join(parts[:n]))
        if key:
            return key
    return "cupy-internals"


def node_rule(nodeid, marks):
    """The FEATURES key that skips a collected test, or None."""
    for pattern, key in NODE_RULES:
        if fnmatch.fnmatchcase(nodeid, pattern):
            return key
    for mark, key in MARK_RULES:
        if mark in marks:
            return key
    return None
