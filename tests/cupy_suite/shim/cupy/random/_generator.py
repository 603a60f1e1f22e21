"""cupy.random._generator: its public names (RandomState, get_random_state,
set_random_state, reset_states) are vkarray.random's; its private ones are stubs."""

import vkarray.random as _random

from cupy import _stubs

_PUBLIC = {"RandomState", "get_random_state", "set_random_state", "reset_states"}


def __getattr__(name):
    if name in _PUBLIC:
        try:
            return getattr(_random, name)
        except AttributeError:
            raise AttributeError(f"vkarray.random has no attribute {name!r}") from None
    return _stubs.Stub(f"cupy.random._generator.{name}")
