"""cupy.cuda.driver: its exception class; every other name is a stub."""

from cupy import _stubs


class CUDADriverError(RuntimeError):
    pass


def get_build_version():
    return 12000


def __getattr__(name):
    return _stubs.Stub(f"cupy.cuda.driver.{name}")
