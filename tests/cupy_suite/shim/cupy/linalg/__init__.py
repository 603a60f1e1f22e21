"""cupy.linalg: vkarray.linalg (and the _util helper CuPy's linalg tests call)."""

import vkarray.linalg as _vk_linalg  # a name no CuPy submodule has

from . import _util  # noqa: F401


def __getattr__(name):
    if name.startswith("_") and not name.startswith("__"):  # CuPy's private submodules: stand-ins
        import importlib
        return importlib.import_module(f"cupy.linalg.{name}")
    try:
        return getattr(_vk_linalg, name)
    except AttributeError:
        raise AttributeError(f"vkarray.linalg has no attribute {name!r}") from None
