"""`cupy` for CuPy's test suite run against vkarray (tests/cupy_suite): every numpy name is
vkarray's, CuPy's host transfer helpers map to vkarray's, and CUDA-only or private CuPy names
are stubs that skip the test using them (_stubs.py, skips.py). Never importable outside this
suite: only `make conformance-cupy` puts it on the path."""

import numpy as _numpy

import vkarray as _vkarray

from . import _stubs

_stubs.install()

from vkarray import *  # noqa: E402,F401,F403  (the numpy names)

from . import cuda  # noqa: E402,F401
from . import exceptions  # noqa: E402,F401
from . import fft  # noqa: E402,F401
from . import linalg  # noqa: E402,F401
from . import random  # noqa: E402,F401
from . import testing  # noqa: E402,F401

ndarray = _vkarray.ndarray

# CuPy's names for CUDA-only features: stubs (skips.py gives each one's reason).
_STUBBED = {"RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel", "fuse",
            "get_default_memory_pool", "get_default_pinned_memory_pool", "cublas", "cutensor",
            "cusparse", "cusolver", "show_config", "clear_memo", "memoize"}


def _get_size(size):
    """CuPy's size normalization (cupy._core.get_size): None -> (), an int -> (int,), else a
    tuple of ints."""
    if size is None:
        return ()
    if _numpy.ndim(size) == 0:
        return (int(size),)
    return tuple(int(s) for s in size)


class _Core(_stubs.Stub):
    """cupy._core: get_size, a plain helper CuPy's random tests call to compute the shapes they
    expect; everything else in it is a CuPy internal (a stub: the test is skipped)."""

    def __getattr__(self, name):
        if name == "get_size":
            return _get_size
        return super().__getattr__(name)


def __getattr__(name):
    if name == "_core":
        return _Core("cupy._core")
    if name in _STUBBED:
        return _stubs.Stub(f"cupy.{name}")
    try:
        return getattr(_vkarray, name)
    except AttributeError:
        raise AttributeError(f"vkarray has no attribute {name!r} (cupy.{name})") from None


def is_available():
    return True


def asnumpy(a, stream=None, order="C", blocking=True, out=None):
    """A numpy copy of a vkarray array (other values through numpy.asarray)."""
    if stream is not None:
        _stubs.Stub("cupy.cuda.Stream")()
    host = _numpy.asarray(a, order=order)
    if out is not None:
        out[...] = host
        return out
    return host


def get_array_module(*args):
    """This module when an argument is a vkarray array, else numpy."""
    import cupy
    for a in args:
        if isinstance(a, _vkarray.ndarray):
            return cupy
    return _numpy
