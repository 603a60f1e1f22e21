"""Array manipulation: shapes and views (the compiled reshape, transpose, broadcast_to, ...),
shape queries, atleast_nd, rollaxis and unstack, copyto, and adding and removing elements
(append, delete, insert, resize, trim_zeros, block). Joining and splitting are in _joining.py;
rearranging (roll, tile, repeat, pad, rot90) in _reorder.py."""

import numpy as _np

from . import _math, _vkarray
from ._creation import asarray, zeros
from ._dtypes import astype
from ._joining import concatenate
from ._reorder import tile
from ._shaping import _AxisError, _asarray, _asarrays, _normalize_axis
from ._vkarray import (broadcast_arrays, broadcast_to, expand_dims, flip, fliplr, flipud,
                       matrix_transpose, moveaxis, permute_dims, ravel, reshape, squeeze,
                       swapaxes, transpose)

__all__ = [
    "reshape", "ravel", "transpose", "permute_dims", "matrix_transpose", "swapaxes",
    "moveaxis", "rollaxis", "broadcast_to", "broadcast_arrays", "broadcast_shapes",
    "expand_dims", "squeeze", "flip", "fliplr", "flipud", "shape", "ndim", "size",
    "atleast_1d", "atleast_2d", "atleast_3d", "unstack", "copyto", "append", "delete",
    "insert", "resize", "trim_zeros", "block", "fastCopyAndTranspose",
]

broadcast_shapes = _np.broadcast_shapes


def shape(a):
    """numpy.shape: the shape tuple of an array or array-like."""
    return a.shape if isinstance(a, _vkarray.ndarray) else _np.shape(a)


def ndim(a):
    """numpy.ndim: the number of dimensions of an array or array-like."""
    return a.ndim if isinstance(a, _vkarray.ndarray) else _np.ndim(a)


def size(a, axis=None):
    """numpy.size: the number of elements, or the length of `axis`."""
    if not isinstance(a, _vkarray.ndarray):
        return _np.size(a, axis)
    if axis is None:
        return a.size
    if not -a.ndim <= axis < a.ndim:
        raise _AxisError(f"[size] axis {axis} is out of bounds for array of dimension {a.ndim}")
    return a.shape[axis]


def _atleast(arys, ndim, place):
    out = []
    for a in _asarrays(f"atleast_{ndim}d", list(arys)):
        if a.ndim < ndim:
            a = _vkarray.reshape(a, place(a.shape))
        out.append(a)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    """numpy.atleast_1d: 0-d arrays become shape (1,)."""
    return _atleast(arys, 1, lambda s: (1,))


def atleast_2d(*arys):
    """numpy.atleast_2d: (n,) → (1, n), 0-d → (1, 1)."""
    return _atleast(arys, 2, lambda s: (1,) * (2 - len(s)) + s)


def atleast_3d(*arys):
    """numpy.atleast_3d: (n,) → (1, n, 1), (m, n) → (m, n, 1), 0-d → (1, 1, 1)."""
    return _atleast(arys, 3, lambda s: {0: (1, 1, 1), 1: (1,) + s + (1,)}.get(len(s), s + (1,)))


def rollaxis(a, axis, start=0):
    """numpy.rollaxis: axis moved to position `start` (before the axis now there)."""
    a = _asarray(a)
    n = a.ndim
    if not -n <= axis < n:
        raise _AxisError(f"[rollaxis] axis {axis} is out of bounds for array of dimension {n}")
    axis %= n
    if not -n <= start <= n:
        raise _AxisError(f"[rollaxis] start {start} is out of bounds for array of dimension {n}")
    start = start + n if start < 0 else start
    if axis < start:
        start -= 1
    return a if axis == start else _vkarray.moveaxis(a, axis, start)


def copyto(dst, src, casting="same_kind", where=True):
    """numpy.copyto: src (broadcast) into dst where `where` holds, under numpy's casting."""
    if not isinstance(dst, _vkarray.ndarray):
        raise TypeError(f"[copyto] dst must be a vkarray.ndarray, got {type(dst).__name__}")
    if _np.isscalar(src):
        # A scalar casts by its value, as numpy's (-4 fits int8 but not uint8; 3.2 is no int).
        if not _np.can_cast(_np.asarray(src), dst.dtype, casting):
            raise TypeError(f"[copyto] Cannot cast scalar from dtype('{_np.asarray(src).dtype}') "
                            f"to dtype('{dst.dtype}') according to the rule '{casting}'")
    else:
        src = _asarray(src, dst.context)
        if not _vkarray.can_cast(src.dtype, dst.dtype, casting):
            raise TypeError(f"[copyto] Cannot cast array data from dtype('{src.dtype}') to "
                            f"dtype('{dst.dtype}') according to the rule '{casting}'")
    value = astype(_vkarray.broadcast_to(_asarray(src, dst.context), dst.shape), dst.dtype)
    if where is not True:
        value = _math.where(where, value, dst)
    dst[...] = value


def append(arr, values, axis=None):
    """numpy.append: values joined after arr (both flattened when axis is None)."""
    arr, values = _asarrays("append", [arr, values])
    if axis is None:
        return concatenate([_vkarray.ravel(arr), _vkarray.ravel(values)])
    return concatenate([arr, values], axis=axis)


def _along(op, arr, axis):
    """arr as an ndarray and axis normalized; with axis None, the flattened array and 0."""
    arr = _asarray(arr)
    if axis is None:
        return _vkarray.ravel(arr), 0
    return arr, _normalize_axis(op, axis, arr.ndim)


def delete(arr, obj, axis=None):
    """numpy.delete: arr without the entries `obj` (int, slice or indices) along axis."""
    arr, axis = _along("delete", arr, axis)
    keep = _np.ones(arr.shape[axis], dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        idx = _np.asarray(obj.get() if isinstance(obj, _vkarray.ndarray) else obj)
        if idx.dtype == bool:
            keep = ~idx
        else:
            n = arr.shape[axis]
            if idx.size and (idx.min() < -n or idx.max() >= n):
                raise IndexError(f"[delete] index {int(idx.max())} is out of bounds for axis "
                                 f"{axis} with size {n}")
            keep[idx] = False
    return _vkarray.compress(keep, arr, axis=axis)


def unstack(x, /, *, axis=0):
    """The array API's unstack: the views x[..., i, ...] along axis, as a tuple."""
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("[unstack] cannot unstack a 0-d array")
    if not -x.ndim <= axis < x.ndim:
        raise _np.AxisError(f"[unstack] axis {axis} is out of bounds for array of dimension "
                            f"{x.ndim}")
    v = _vkarray.moveaxis(x, axis, 0)
    return tuple(v[i] for i in range(v.shape[0]))


def insert(arr, obj, values, axis=None):
    """numpy.insert with an int or a sequence of ints: values inserted before those indices."""
    arr, axis = _along("insert", arr, axis)
    n = arr.shape[axis]
    scalar = _np.ndim(obj) == 0 and not isinstance(obj, slice)
    pos = _np.arange(n + 1)[obj] if isinstance(obj, slice) else _np.asarray(
        obj.get() if isinstance(obj, _vkarray.ndarray) else obj)
    pos = _np.atleast_1d(pos).astype(_np.intp)
    if pos.size and (pos.min() < -n or pos.max() > n):
        raise IndexError(f"[insert] index {int(pos.max())} is out of bounds for axis {axis} "
                         f"with size {n}")
    pos = _np.where(pos < 0, pos + n, pos)
    values = astype(_asarray(values, arr.context), arr.dtype)
    if values.ndim < arr.ndim:
        values = _vkarray.reshape(values, (1,) * (arr.ndim - values.ndim) + values.shape)
    vshape = list(arr.shape)
    if scalar:  # numpy: the values' first axis becomes the inserted run along axis
        values = _vkarray.moveaxis(values, 0, axis)
        vshape[axis] = values.shape[axis]
        pos = _np.repeat(pos, vshape[axis])
    else:
        vshape[axis] = pos.size
    values = _vkarray.broadcast_to(values, tuple(vshape))
    order = _np.argsort(pos, kind="stable")
    total = n + pos.size
    new_pos = pos[order] + _np.arange(pos.size)
    old = _np.ones(total, dtype=bool)
    old[new_pos] = False
    source = _np.empty(total, dtype=_np.intp)
    source[old] = _np.arange(n)
    source[new_pos] = n + order
    joined = concatenate([arr, values], axis=axis)
    return _vkarray.take(joined, source, axis=axis)


def resize(a, new_shape):
    """numpy.resize: a's flattened values repeated (or cut) to fill new_shape."""
    a = _vkarray.ravel(_asarray(a))
    shape = (new_shape,) if _np.ndim(new_shape) == 0 else tuple(new_shape)
    if any(s < 0 for s in shape):
        raise ValueError("[resize] all elements of `new_shape` must be non-negative")
    total = int(_np.prod(shape))
    if a.size == 0 or total == 0:
        return zeros(shape, dtype=a.dtype)
    reps = -(-total // a.size)
    return _vkarray.reshape(tile(a, reps)[:total], shape)


def trim_zeros(filt, trim="fb"):
    """numpy.trim_zeros: leading ('f') and/or trailing ('b') zeros removed from a 1-d array."""
    a = _asarray(filt)
    nz = _vkarray.flatnonzero(a)
    if nz.shape[0] == 0:
        return a[:0]
    first = int(nz[0]) if "f" in trim.lower() else 0
    last = int(nz[-1]) + 1 if "b" in trim.lower() else a.shape[0]
    return a[first:last]


def _block_depth(arrays, index=()):
    if isinstance(arrays, tuple):
        raise TypeError(f"[block] arrays is a tuple at index {list(index)}; only lists can be "
                        f"used to arrange blocks")
    if not isinstance(arrays, list):
        return 0, _np.ndim(arrays) if not isinstance(arrays, _vkarray.ndarray) else arrays.ndim
    if not arrays:
        raise ValueError(f"[block] List at arrays{list(index)} cannot be empty")
    found = [_block_depth(a, index + (i,)) for i, a in enumerate(arrays)]
    depths = {d for d, _ in found}
    if len(depths) != 1:
        raise ValueError(f"[block] List depths are mismatched at arrays{list(index)}")
    return depths.pop() + 1, max(n for _, n in found)


def block(arrays):
    """numpy.block: nested lists of arrays assembled by concatenation, the innermost lists
    along the last axis."""
    depth, max_ndim = _block_depth(arrays)
    ndim = max(depth, max_ndim)

    def assemble(x, d):
        if d == depth:
            a = _asarray(x)
            return _vkarray.reshape(a, (1,) * (ndim - a.ndim) + a.shape)
        return concatenate([assemble(y, d + 1) for y in x], axis=-(depth - d))

    return assemble(arrays, 0)


def fastCopyAndTranspose(a):  # noqa: N802 — numpy's name
    """numpy.fastCopyAndTranspose: a C-contiguous copy of a's transpose."""
    return _vkarray.transpose(_asarray(a)).copy()
