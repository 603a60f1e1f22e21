"""cupy.cuda: one current device (0) and the values tests read at import time; every other
name is a stub that skips the test using it (streams, memory pools, compilers, ...)."""

from cupy import _stubs

from . import compiler  # noqa: F401
from . import device  # noqa: F401
from . import driver  # noqa: F401
from . import runtime  # noqa: F401
from .device import Device, get_device_id  # noqa: F401

# CUB is off: CuPy's tests of its CUB paths skip themselves (skips.py says so).
cub = _stubs.stub_module("cupy.cuda.cub")
cub.available = False


class _StreamType(type):
    @property
    def null(cls):
        _stubs.Stub("cupy.cuda.Stream.null")()
        return _stubs.Stub("cupy.cuda.Stream.null")

    @property
    def ptds(cls):
        _stubs.Stub("cupy.cuda.Stream.ptds")()
        return _stubs.Stub("cupy.cuda.Stream.ptds")


class Stream(metaclass=_StreamType):
    """CUDA streams: using one skips the test."""

    def __init__(self, *args, **kwargs):
        _stubs.Stub("cupy.cuda.Stream")()


def is_available():
    return True


def get_nvcc_path():
    _stubs.Stub("cupy.cuda.get_nvcc_path")()
    return "nvcc"


def __getattr__(name):
    return _stubs.Stub(f"cupy.cuda.{name}")
