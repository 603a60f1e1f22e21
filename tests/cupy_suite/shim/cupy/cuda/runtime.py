"""cupy.cuda.runtime: the values CuPy's tests read at import time. Not HIP; a current CUDA
version (12.0), so that none of the tests' workarounds for old CUDA releases apply."""

from cupy import _stubs

is_hip = False


class CUDARuntimeError(RuntimeError):
    pass


def runtimeGetVersion():
    return 12000


def driverGetVersion():
    return 12000


def getDeviceCount():
    return 1


def getDevice():
    return 0


def __getattr__(name):
    return _stubs.Stub(f"cupy.cuda.runtime.{name}")
