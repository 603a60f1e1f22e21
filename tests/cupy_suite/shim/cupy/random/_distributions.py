"""cupy.random._distributions: the public random functions CuPy defines there, which are vkarray.random's."""

import vkarray.random as _random


def __getattr__(name):
    try:
        return getattr(_random, name)
    except AttributeError:
        raise AttributeError(f"vkarray.random has no attribute {name!r}") from None
