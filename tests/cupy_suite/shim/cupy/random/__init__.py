"""cupy.random: vkarray.random. _distributions and _sample, where CuPy defines its public
random functions, give the same functions; _generator its public state functions."""

import vkarray.random as _vk_random  # a name no CuPy submodule has

from . import _distributions  # noqa: F401
from . import _generator  # noqa: F401
from . import _sample  # noqa: F401


def __getattr__(name):
    if name.startswith("_") and not name.startswith("__"):  # CuPy's private submodules: stand-ins
        import importlib
        return importlib.import_module(f"cupy.random.{name}")
    try:
        return getattr(_vk_random, name)
    except AttributeError:
        raise AttributeError(f"vkarray.random has no attribute {name!r}") from None
