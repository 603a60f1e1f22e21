"""vkarray.fft: numpy.fft on the device, on VkFFT. fft, ifft, rfft, irfft, hfft, ihfft along
any axis with n= (crop or zero-pad) and norm= ("backward", "ortho", "forward"); fft2, ifft2,
rfft2, irfft2, fftn, ifftn, rfftn, irfftn with s= and axes= (one-dimensional transforms axis
by axis, in numpy's order); fftfreq, rfftfreq, fftshift, ifftshift.

dtypes follow numpy 2: float32, float16 and complex64 compute in single precision (complex64
results, float32 for irfft/hfft); float64, complex128, integers and bool in double
(complex128; a device without shaderFloat64 raises TypeError). rfft and ihfft take real input
only (TypeError for complex, as numpy 2). Any length numpy accepts: VkFFT uses Bluestein's
algorithm for lengths with large prime factors. Each transform runs at once on every replica
(its input converted, moved, cropped or padded by one kernel first); the norm scaling is a
lazy multiply that fuses into whatever consumes the result.

out= is accepted: the result is assigned into out (a vkarray.ndarray of the result's shape)."""

from collections.abc import Iterable as _Iterable

import numpy as _np

from . import _vkarray as _vk
from ._creation import asarray
from ._cumulative import _into as _store_into
from ._reorder import roll

__all__ = [
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
    "fftn", "ifftn", "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]


def _into(op, result, out):
    return result if out is None else _store_into(op, result, out)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.fft: the discrete Fourier transform along axis, of length n (the input cropped
    or zero-padded to it; default: the axis length)."""
    return _into("fft", _vk._fft(a, n, axis, norm), out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.ifft: the inverse transform along axis (1/n scaling under norm="backward")."""
    return _into("ifft", _vk._ifft(a, n, axis, norm), out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.rfft: the transform of real input, the n//2 + 1 non-negative frequencies."""
    return _into("rfft", _vk._rfft(a, n, axis, norm), out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.irfft: n real outputs (default 2*(m-1)) from the n//2 + 1 first inputs."""
    return _into("irfft", _vk._irfft(a, n, axis, norm), out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.hfft: the transform of a Hermitian-symmetric signal (its first half given):
    n real outputs (default 2*(m-1))."""
    return _into("hfft", _vk._hfft(a, n, axis, norm), out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.ihfft: the inverse of hfft, from real input: n//2 + 1 complex outputs."""
    return _into("ihfft", _vk._ihfft(a, n, axis, norm), out)


def _lengths(a, s, axes, inverse_real=False):
    """s with each None replaced by the default length of its axis, as numpy 1.24 passes None
    on to the 1-d transforms: the input's extent (irfftn's last axis: 2*(m-1)). s and axes
    of different lengths go on unchanged to the compiled function, which names the error."""
    if s is None or all(n is not None for n in s):
        return s
    s = list(s)
    axes = list(range(-len(s), 0)) if axes is None else list(axes)
    if len(axes) != len(s):
        return s
    shape = asarray(a).shape
    for i, (n, ax) in enumerate(zip(s, axes)):
        if n is None:
            m = shape[ax]
            s[i] = 2 * (m - 1) if inverse_real and i == len(s) - 1 else m
    return s


def _no_axes(s, axes):
    """numpy's fftn and ifftn over no axes transform nothing: they return the input array
    itself (asarray of it), in its own dtype."""
    return axes is not None and len(axes) == 0 and not s


def fftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.fftn: over axes (default: the last len(s), or all), lengths s (None: the
    axis' length)."""
    if _no_axes(s, axes):
        return _into("fftn", asarray(a), out)
    return _into("fftn", _vk._fftn(a, _lengths(a, s, axes), axes, norm), out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.ifftn."""
    if _no_axes(s, axes):
        return _into("ifftn", asarray(a), out)
    return _into("ifftn", _vk._ifftn(a, _lengths(a, s, axes), axes, norm), out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.rfftn: rfft over the last of axes, fft over the others."""
    return _into("rfftn", _vk._rfftn(a, _lengths(a, s, axes), axes, norm), out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.irfftn: ifft over all but the last of axes, irfft over the last."""
    return _into("irfftn", _vk._irfftn(a, _lengths(a, s, axes, True), axes, norm), out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.fft2: fftn over the last two axes."""
    return fftn(a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.ifft2: ifftn over the last two axes."""
    return ifftn(a, s, axes, norm, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.rfft2: rfftn over the last two axes."""
    return _into("rfft2", _vk._rfftn(a, _lengths(a, s, axes), axes, norm), out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.irfft2: irfftn over the last two axes."""
    return _into("irfft2", _vk._irfftn(a, _lengths(a, s, axes, True), axes, norm), out)


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """numpy.fft.fftfreq: [0, 1, ..., -(n//2), ..., -1] / (d*n), float64 (or dtype, the
    array API's keyword), on the device."""
    n = int(n)
    if n * d == 0:
        raise ZeroDivisionError("float division by zero")
    return _freq_result(_vk._fftfreq(n, float(d)), device, dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """numpy.fft.rfftfreq: [0, 1, ..., n//2] / (d*n), float64 (or dtype), on the device."""
    n = int(n)
    if n * d == 0:
        raise ZeroDivisionError("float division by zero")
    return _freq_result(_vk._rfftfreq(n, float(d)), device, dtype)


def _freq_result(f, device, dtype):
    """The float64 frequencies f as dtype (a real floating dtype), on device."""
    if dtype is not None:
        dtype = _np.dtype(dtype)
        if dtype.kind != "f":
            raise TypeError(f"[fftfreq] dtype must be a real floating dtype, got {dtype}")
        f = f.astype(dtype)
    return f if device is None else f.to_device(device)


def _shift(x, axes, sign):
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (dim // 2) for dim in x.shape]
    elif isinstance(axes, _Iterable):
        axes = tuple(axes)
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    else:
        shift = sign * (x.shape[axes] // 2)
    return roll(x, shift, axes)


def fftshift(x, axes=None):
    """numpy.fft.fftshift: the zero frequency moved to the middle (numpy.roll by n//2)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """numpy.fft.ifftshift: fftshift undone (numpy.roll by -(n//2))."""
    return _shift(x, axes, -1)
