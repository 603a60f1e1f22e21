"""cupy.fft: vkarray.fft; cupy.fft.config (cuFFT plans) is a stub module (config.py)."""

# Not `_fft`: importing CuPy's private cupy.fft._fft (a stub) would rebind that name.
import vkarray.fft as _vk_fft

from . import config  # noqa: F401


def __getattr__(name):
    if name.startswith("_") and not name.startswith("__"):  # CuPy's private submodules: stand-ins
        import importlib
        return importlib.import_module(f"cupy.fft.{name}")
    try:
        return getattr(_vk_fft, name)
    except AttributeError:
        raise AttributeError(f"vkarray.fft has no attribute {name!r}") from None
