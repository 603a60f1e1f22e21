"""cupy.lib.stride_tricks: as_strided and sliding_window_view, vkarray's functions of those
names (a name vkarray lacks fails the test that uses it)."""

import vkarray as _vkarray


def __getattr__(name):
    try:
        return getattr(_vkarray, name)
    except AttributeError:
        raise AttributeError(f"vkarray has no attribute {name!r} "
                             f"(cupy.lib.stride_tricks.{name})") from None
