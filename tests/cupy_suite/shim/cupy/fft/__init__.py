"""cupy.fft: vkarray.fft; cupy.fft.config (cuFFT plans) is a stub module (config.py)."""

import vkarray.fft as _fft

from . import config  # noqa: F401


def __getattr__(name):
    try:
        return getattr(_fft, name)
    except AttributeError:
        raise AttributeError(f"vkarray.fft has no attribute {name!r}") from None
