"""cupy.linalg: vkarray.linalg (and the _util helper CuPy's linalg tests call)."""

import vkarray.linalg as _linalg

from . import _util  # noqa: F401


def __getattr__(name):
    try:
        return getattr(_linalg, name)
    except AttributeError:
        raise AttributeError(f"vkarray.linalg has no attribute {name!r}") from None
