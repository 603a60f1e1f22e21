"""numpy's ndarray attributes that are functions of the op table in vkarray: ``x.real`` and
``x.imag`` (read-only; lazy, so they fuse with what uses them instead of being views)."""

import vkarray as _vk


def _real(self):
    """The real part (numpy.ndarray.real): float32 of complex64, float64 of complex128, the
    array itself for real dtypes."""
    return _vk.real(self)


def _imag(self):
    """The imaginary part (numpy.ndarray.imag): zeros of the array's dtype for real dtypes."""
    return _vk.imag(self)


_vk.ndarray.real = property(_real, doc=_real.__doc__)
_vk.ndarray.imag = property(_imag, doc=_imag.__doc__)
