"""numpy's binary operations beyond the bitwise ufuncs (those are op-table rows, _math.py):
packbits and unpackbits, lazy expressions on the device (shifts, masks and a weighted sum of 8
bits per byte), in numpy's big or little bit order."""

import numpy as _np

from . import _vkarray
from ._creation import asarray, zeros
from ._dtypes import astype
from ._joining import concatenate
from ._shaping import _AxisError, _asarray

__all__ = ["packbits", "unpackbits"]


def _bit_order(bitorder, op):
    if bitorder not in ("big", "little"):
        raise ValueError(f"[{op}] 'order' must be either 'little' or 'big', got {bitorder!r}")
    return range(7, -1, -1) if bitorder == "big" else range(8)


def _axis_last(a, axis, op):
    """a with `axis` moved last (a flattened for axis=None) and the axis it came from."""
    if axis is None:
        return _vkarray.reshape(a, (-1,)), None
    if not -a.ndim <= axis < a.ndim:
        raise _AxisError(f"[{op}] axis {axis} is out of bounds for array of dimension {a.ndim}")
    axis %= a.ndim
    return _vkarray.moveaxis(a, axis, -1), axis


def packbits(a, /, axis=None, bitorder="big"):
    """numpy.packbits: the elements of a boolean or integer array as bits (nonzero: 1), 8 to
    a uint8 along axis (the flattened array for None), the last byte padded with zeros."""
    a = _asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError(f"[packbits] Expected an input array of integer or boolean data type, "
                        f"got {a.dtype}")
    weights = asarray(_np.array([1 << s for s in _bit_order(bitorder, "packbits")], _np.uint8),
                      context=a.context)
    bits, axis = _axis_last(astype(a != 0, _np.uint8), axis, "packbits")
    n = bits.shape[-1]
    pad = -n % 8
    if pad:
        bits = concatenate([bits, zeros(bits.shape[:-1] + (pad,), dtype=_np.uint8)], axis=-1)
    groups = _vkarray.reshape(bits, bits.shape[:-1] + ((n + pad) // 8, 8))
    packed = astype(_vkarray.sum(groups * weights, axis=-1), _np.uint8)
    return packed if axis is None else _vkarray.moveaxis(packed, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """numpy.unpackbits: each uint8 of a as 8 elements 0 or 1 (uint8) along axis (the
    flattened array for None); count keeps that many bits (padding with zeros beyond 8 per
    byte; negative: drops -count from the end)."""
    a = _asarray(a)
    if a.dtype != _np.uint8:
        raise TypeError(f"[unpackbits] Expected an input array of unsigned byte data type, "
                        f"got {a.dtype}")
    shifts = asarray(_np.array(list(_bit_order(bitorder, "unpackbits")), _np.uint8),
                     context=a.context)
    a, axis = _axis_last(a, axis, "unpackbits")
    bits = (_vkarray.expand_dims(a, -1) >> shifts) & _np.uint8(1)
    bits = _vkarray.reshape(bits, a.shape[:-1] + (a.shape[-1] * 8,))
    if count is not None:
        count = int(count)
        n = bits.shape[-1]
        keep = count if count >= 0 else n + count
        if keep < 0:
            raise ValueError(f"[unpackbits] -count ({-count}) is larger than the number of "
                             f"bits ({n})")
        if keep <= n:
            bits = bits[..., :keep]
        else:
            bits = concatenate([bits, zeros(bits.shape[:-1] + (keep - n,), dtype=_np.uint8)],
                               axis=-1)
    return bits if axis is None else _vkarray.moveaxis(bits, -1, axis)
