"""cupyx for CuPy's test suite on vkarray: errstate (a no-op: vkarray raises LinAlgError as
numpy does, which is what errstate(linalg='raise') asks of CuPy); every other name, cupyx.scipy
included, is a stub that skips the test using it (skips.py)."""

import contextlib

from cupy import _stubs

from . import cusolver  # noqa: F401


@contextlib.contextmanager
def errstate(*, linalg=None):
    yield


def __getattr__(name):
    return _stubs.Stub(f"cupyx.{name}")
