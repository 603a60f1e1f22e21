"""Index grids and diagonals: numpy's tril, triu, diag, diagflat, trace, rot90, meshgrid,
unravel_index and ravel_multi_index (kernel counts: _joining.py's docstring and each
function's)."""

import operator as _operator

import numpy as _np

from . import _vkarray as _vk
from ._shaping import _context, _asarray, _creation_kwargs

__all__ = [
    "tril", "triu", "diag", "diagflat", "trace", "rot90", "meshgrid", "unravel_index",
    "ravel_multi_index",
]


def _tri(op, m, k, lower):
    x = _asarray(m)
    if x.ndim == 0:
        raise TypeError(f"[{op}] input must be at least 1-d, got a 0-d array")
    rows, cols = tuple(x.shape[-2:]) if x.ndim >= 2 else (x.shape[0], x.shape[0])
    k = _operator.index(k)
    ctx = x.context
    # Element (i, j) is kept where j <= i + k (tril) or j >= i + k (triu): the per-row bound
    # is uploaded as a column, clipped so that it fits int32; the column index is generated.
    bound = _np.clip(_np.arange(rows, dtype=_np.int64) + k, -1, cols).astype(_np.int32)
    bound = _vk.asarray(bound.reshape(rows, 1), context=ctx)
    col = _vk.arange(cols, dtype=_np.int32, context=ctx)
    keep = (col <= bound) if lower else (col >= bound)
    return _vk.where(keep, x, x.dtype.type(0))


def tril(m, k=0):
    """numpy.tril: elements above the k-th diagonal of the last two axes set to zero (a 1-d m
    is taken as the rows of a square matrix). Lazy, one fused kernel."""
    return _tri("tril", m, k, True)


def triu(m, k=0):
    """numpy.triu: elements below the k-th diagonal of the last two axes set to zero. Lazy,
    one fused kernel."""
    return _tri("triu", m, k, False)


def diag(v, k=0):
    """numpy.diag: for a 1-d v, the 2-d array with v on its k-th diagonal (k=0: lazy, one
    fused kernel; otherwise a zero fill and a strided write, two kernels); for a 2-d v, its
    k-th diagonal as a read-only view (numpy's too), no kernel."""
    x = _asarray(v)
    k = _operator.index(k)
    if x.ndim == 2:
        return _vk.diagonal(x, k)
    if x.ndim != 1:
        raise ValueError("[diag] Input must be 1- or 2-d.")
    n = x.shape[0]
    zero = x.dtype.type(0)
    if k == 0:
        return _vk.where(_vk.eye(n, dtype=_np.bool_, context=x.context), x, zero)
    size = n + abs(k)
    out = _vk.full((size, size), zero, x.dtype, context=x.context)
    first = k if k > 0 else -k * size  # flat position of the diagonal's first element
    if n:
        out.reshape(-1)[first:first + (n - 1) * (size + 1) + 1:size + 1][...] = x
    return out


def diagflat(v, k=0):
    """numpy.diagflat: diag of v flattened (a view when v is contiguous). Kernels as diag."""
    return diag(_asarray(v).reshape(-1), k)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """numpy.trace: the sum of the diagonal with offset `offset` of axes (axis1, axis2), one
    fused reduction of the diagonal view; a 0-d array for 2-d input. Integers and bools sum in
    int64 (unsigned: uint64) unless `dtype` says otherwise, as numpy's sum does."""
    a = _asarray(a)
    if a.ndim < 2:
        raise ValueError("[trace] diag requires an array of at least two dimensions")
    return _vk.sum(_vk.diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def rot90(m, k=1, axes=(0, 1)):
    """numpy.rot90: a view rotated by 90 degrees k times in the plane of `axes`, from the
    first axis towards the second. No kernel."""
    x = _asarray(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("[rot90] len(axes) must be 2.")
    a0, a1 = (_operator.index(a) for a in axes)
    if a0 == a1 or abs(a0 - a1) == x.ndim:
        raise ValueError("[rot90] Axes must be different.")
    if not (-x.ndim <= a0 < x.ndim and -x.ndim <= a1 < x.ndim):
        raise ValueError(f"[rot90] Axes={axes} out of range in array of dimension {x.ndim}")
    k = _operator.index(k) % 4
    if k == 0:
        return x[...]
    if k == 2:
        return _vk.flip(_vk.flip(x, a0), a1)
    order = list(range(x.ndim))
    order[a0], order[a1] = order[a1], order[a0]
    if k == 1:
        return _vk.transpose(_vk.flip(x, a1), order)
    return _vk.flip(_vk.transpose(x, order), a1)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """numpy.meshgrid: coordinate arrays from 1-d coordinate vectors (each input flattened).
    indexing='xy' swaps the first two output axes (Cartesian), 'ij' does not (matrix).
    sparse=True leaves each output with extent 1 on the other axes. copy=False returns views
    (read-only broadcast views when not sparse), as numpy does; copy=True gives lazy copies,
    one kernel each. A list, as numpy 1.24 and the array API 2023.12 return."""
    if indexing not in ("xy", "ij"):
        raise ValueError("[meshgrid] Valid values for `indexing` are 'xy' and 'ij'.")
    ctx = _context(xi)
    xs = [_asarray(x, ctx).reshape(-1) for x in xi]
    ndim = len(xs)
    shapes = [[1] * ndim for _ in xs]
    for i, x in enumerate(xs):
        shapes[i][i] = x.shape[0]
    if indexing == "xy" and ndim > 1:
        shapes[0][0], shapes[0][1] = 1, shapes[0][0]
        shapes[1][0], shapes[1][1] = shapes[1][1], 1
    outputs = [x.reshape(tuple(s)) for x, s in zip(xs, shapes)]
    if not sparse:
        full = tuple(_np.broadcast_shapes(*[tuple(s) for s in shapes])) if ndim else ()
        outputs = [_vk.broadcast_to(o, full) for o in outputs]
    if copy:
        outputs = [_vk.copy(o) for o in outputs]
    return outputs


# ---------------------------------------------------------------------------------------------
# Flat and multi-dimensional indices


def _index_array(op, obj, ctx, checked=True):
    """An integer index operand as (device int64 array, host copy): host data is checked and
    uploaded; a vkarray array is downloaded for the bound checks when `checked` (host copy
    None otherwise: a lazy one stays lazy)."""
    if isinstance(obj, _vk.ndarray):
        if obj.dtype.kind not in "biu":
            raise TypeError(f"[{op}] only int indices permitted, got {obj.dtype}")
        return obj.astype(_np.int64, copy=False), obj.get() if checked else None
    data = _np.asarray(obj)
    if data.dtype.kind not in "biu" and not (data.size == 0 and data.dtype.kind == "f"):
        raise TypeError(f"[{op}] only int indices permitted, got {data.dtype}")
    data = data.astype(_np.int64)
    return _vk.asarray(data, context=ctx) if ctx is not None else _vk.asarray(data), data


def _dims(op, shape):
    try:
        dims = tuple(_operator.index(d) for d in shape)
    except TypeError:
        dims = (_operator.index(shape),)
    if any(d < 0 for d in dims):
        raise ValueError(f"[{op}] dimensions must be non-negative, got {dims}")
    return dims


def _strides(dims, order):
    if order not in ("C", "F"):
        raise ValueError(f"[{order!r}] only 'C' or 'F' order is permitted")
    strides, step = [0] * len(dims), 1
    for d in (reversed(range(len(dims))) if order == "C" else range(len(dims))):
        strides[d] = step
        step *= dims[d]
    return strides, step


def unravel_index(indices, shape, order="C"):
    """numpy.unravel_index: flat indices into a tuple of coordinate arrays (int64) for an
    array of `shape`. Lazy; the outputs fuse into one kernel when evaluated together
    (vk.eval(*result)). Out-of-range indices raise ValueError as numpy's do: vkarray inputs are
    downloaded for that check."""
    if order not in ("C", "F"):
        raise ValueError("[unravel_index] only 'C' or 'F' order is permitted")
    dims = _dims("unravel_index", shape)
    idx, host = _index_array("unravel_index", indices, _context([indices]))
    strides, size = _strides(dims, order)
    if host.size:
        bad = host[(host < 0) | (host >= size)]
        if bad.size:
            raise ValueError(f"[unravel_index] index {bad.flat[0]} is out of bounds for array "
                             f"with size {size}")
    outs = []
    for d, stride in zip(dims, strides):
        coord = idx // stride if stride > 1 else idx
        if d and stride * d != size:  # the slowest axis needs no remainder: idx < size
            coord = coord % d
        outs.append(_vk.copy(coord) if coord is indices else coord)
    return tuple(outs)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """numpy.ravel_multi_index: a tuple of coordinate arrays (broadcast together) into flat
    indices (int64) of an array of shape dims. mode per axis or for all: 'raise' (ValueError
    for coordinates out of range; vkarray inputs are downloaded for that check), 'wrap'
    (modulo the extent) or 'clip' (to the extent). Lazy, one fused kernel."""
    dims = _dims("ravel_multi_index", dims)
    coords = list(multi_index)
    if len(coords) != len(dims):
        raise ValueError(f"[ravel_multi_index] parameter multi_index must be a sequence of "
                         f"length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims) or any(m not in ("raise", "wrap", "clip") for m in modes):
        raise ValueError(f"[ravel_multi_index] clipmode must be one of 'raise', 'wrap' or "
                         f"'clip' (one or one per axis), got {mode!r}")
    strides, _ = _strides(dims, order)
    ctx = _context(coords)
    pairs = [_index_array("ravel_multi_index", c, ctx, m == "raise" or d == 0)
             for c, m, d in zip(coords, modes, dims)]
    try:
        _np.broadcast_shapes(*[tuple(i.shape) for i, _ in pairs])
    except ValueError:
        raise ValueError("[ravel_multi_index] shape mismatch: objects cannot be broadcast to a "
                         "single shape") from None
    result = None
    for (idx, host), d, stride, m in zip(pairs, dims, strides, modes):
        if m == "raise":
            if host.size and ((host < 0) | (host >= d)).any():
                raise ValueError("[ravel_multi_index] invalid entry in coordinates array")
        elif d == 0:
            if idx.size:
                raise ValueError(f"[ravel_multi_index] cannot {m} indices on an axis of "
                                 "extent 0")
        elif m == "wrap":
            idx = idx % d
        else:
            idx = _vk.clip(idx, 0, d - 1)
        term = idx * stride if stride != 1 else idx
        result = term if result is None else result + term
    if result is None:  # no axes: numpy returns 0
        return _vk.zeros((), _np.int64, **_creation_kwargs(ctx))
    if result.dtype != _np.int64:
        result = result.astype(_np.int64)
    return _vk.copy(result) if any(result is c for c in coords) else result
