"""numpy's indexing routines: taking and putting (the compiled take, take_along_axis, put,
compress, diagonal, and put_along_axis, fill_diagonal, place, putmask), choosing (choose,
select), generating index arrays (indices, ix_, mgrid, ogrid, the triangle and diagonal
indices, unravel_index, ravel_multi_index), and the concatenating index objects r_ and c_."""

import numpy as _np

from . import _math, _vkarray
from ._creation import arange, array, asarray, linspace, zeros
from ._dtypes import astype
from ._joining import concatenate, stack
from ._reorder import tile
from ._shaping import (_AxisError, _asarray, _asarrays, _context, _creation_kwargs,
                       _nonnegative_ints)
from ._vkarray import compress, diagonal, put, take, take_along_axis

__all__ = [
    "take", "take_along_axis", "put", "put_along_axis", "compress", "diagonal", "choose",
    "select", "place", "putmask", "fill_diagonal", "indices", "ix_", "mgrid", "ogrid",
    "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from", "diag_indices",
    "diag_indices_from", "mask_indices", "unravel_index", "ravel_multi_index", "r_", "c_",
]


def _tri_indices(n, k, m, lower):
    m = n if m is None else m
    rows = _vkarray.reshape(arange(n), (n, 1))
    cols = _vkarray.reshape(arange(m), (1, m))
    mask = (cols - rows <= k) if lower else (cols - rows >= k)
    return _vkarray.nonzero(_vkarray.broadcast_to(mask, (n, m)))


def tril_indices(n, k=0, m=None):
    """numpy.tril_indices: (rows, cols) of the lower triangle (row-major order)."""
    return _tri_indices(n, k, m, True)


def triu_indices(n, k=0, m=None):
    """numpy.triu_indices: (rows, cols) of the upper triangle (row-major order)."""
    return _tri_indices(n, k, m, False)


def _square_2d(op, arr):
    arr = _asarray(arr)
    if arr.ndim != 2:
        raise ValueError(f"[{op}] input array must be 2-d")
    return arr


def tril_indices_from(arr, k=0):
    """numpy.tril_indices_from: tril_indices for a 2-d array's shape."""
    arr = _square_2d("tril_indices_from", arr)
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    """numpy.triu_indices_from: triu_indices for a 2-d array's shape."""
    arr = _square_2d("triu_indices_from", arr)
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def diag_indices(n, ndim=2):
    """numpy.diag_indices: ndim copies of arange(n)."""
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    """numpy.diag_indices_from: the main diagonal of an array whose sides are all equal."""
    arr = _asarray(arr)
    if arr.ndim < 2:
        raise ValueError("[diag_indices_from] input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("[diag_indices_from] All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def ix_(*args):
    """numpy.ix_: 1-d index sequences reshaped to broadcast as an open mesh (booleans become
    their nonzero positions)."""
    out = []
    n = len(args)
    for k, a in enumerate(args):
        a = _asarray(a) if not (isinstance(a, (list, tuple)) and len(a) == 0) else \
            zeros((0,), dtype=_np.intp)
        if a.ndim != 1:
            raise ValueError("[ix_] Cross index must be 1 dimensional")
        if a.dtype == _np.bool_:
            a = _vkarray.nonzero(a)[0]
        out.append(_vkarray.reshape(a, (1,) * k + (a.shape[0],) + (1,) * (n - k - 1)))
    return tuple(out)


class _Grid:
    """numpy's mgrid (dense) and ogrid (open): slices with a real step are aranges, with an
    imaginary step (5j) linspaces of that many points."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __repr__(self):
        return "vkarray.ogrid" if self.sparse else "vkarray.mgrid"

    @staticmethod
    def _axis(s):
        start = 0 if s.start is None else s.start
        step = 1 if s.step is None else s.step
        if isinstance(step, complex):
            return linspace(start, s.stop, int(abs(step)))
        return arange(start, s.stop, step)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._axis(key)
        axes = [self._axis(s) for s in key]
        t = _vkarray.result_type(*axes)
        n = len(axes)
        grids = [_vkarray.reshape(astype(a, t), (1,) * i + (a.shape[0],) + (1,) * (n - i - 1))
                 for i, a in enumerate(axes)]
        if self.sparse:
            return tuple(grids)
        shape = tuple(a.shape[0] for a in axes)
        return stack([_vkarray.broadcast_to(g, shape) for g in grids])


mgrid = _Grid(sparse=False)


ogrid = _Grid(sparse=True)


def fill_diagonal(a, val, wrap=False):
    """numpy.fill_diagonal: the main diagonal of a (in place) set to val (cycled)."""
    if a.ndim < 2:
        raise ValueError("[fill_diagonal] array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("[fill_diagonal] All dimensions of input must be of equal length")
        step = 1 + sum(a.shape[0] ** i for i in range(1, a.ndim))
        end = None
    flat = _np.arange(a.size)[:end][::step]
    if flat.size == 0:
        return
    vals = _vkarray.ravel(_asarray(val, a.context))
    reps = -(-flat.size // vals.shape[0])
    _vkarray.put(a, flat, astype(tile(vals, reps)[:flat.size], a.dtype))


def put_along_axis(arr, indices, values, axis):
    """numpy.put_along_axis: arr[..., indices, ...] = values along axis (in place)."""
    indices = _asarray(indices, arr.context)
    if axis is None:
        _vkarray.put(arr, indices, values)
        return
    if not -arr.ndim <= axis < arr.ndim:
        raise _AxisError(f"[put_along_axis] axis {axis} is out of bounds for array of "
                         f"dimension {arr.ndim}")
    if indices.ndim != arr.ndim:
        raise ValueError("[put_along_axis] `indices` and `arr` must have the same number of "
                         "dimensions")
    axis %= arr.ndim
    index = []
    for d in range(arr.ndim):
        if d == axis:
            index.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            index.append(_vkarray.reshape(arange(arr.shape[d]), tuple(shape)))
    arr[tuple(index)] = values


def indices(dimensions, dtype=int, sparse=False):
    """numpy.indices: the index grids of an array of shape `dimensions`, stacked."""
    dims = tuple(dimensions)
    grids = []
    for i, n in enumerate(dims):
        shape = (1,) * i + (n,) + (1,) * (len(dims) - i - 1)
        g = _vkarray.reshape(arange(n, dtype=dtype), shape)
        grids.append(g if sparse else _vkarray.broadcast_to(g, dims))
    if sparse:
        return tuple(grids)
    return stack(grids) if grids else zeros((0,), dtype=dtype)


def select(condlist, choicelist, default=0):
    """numpy.select: the choice of the first true condition, else default."""
    if len(condlist) != len(choicelist):
        raise ValueError("[select] list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("[select] select with an empty condition list is not possible")
    conds = _asarrays("select", list(condlist))
    for i, c in enumerate(conds):
        if c.dtype != _np.bool_:
            raise TypeError(f"[select] invalid entry {i} in condlist: should be boolean ndarray")
    choices = _asarrays("select", list(choicelist) + [default])
    t = _vkarray.result_type(*choices)
    r = astype(choices[-1], t)
    for c, v in zip(reversed(conds), reversed(choices[:-1])):
        r = _math.where(c, astype(v, t), r)
    return r


def choose(a, choices, out=None, mode="raise"):
    """numpy.choose: choices[a] elementwise (mode 'raise', 'wrap' or 'clip')."""
    a = _asarray(a)
    choices = _asarrays("choose", list(choices))
    n = len(choices)
    if mode == "wrap":
        a = _math.remainder(a, n)
    elif mode == "clip":
        a = _math.clip(a, 0, n - 1)
    elif mode == "raise":
        if a.size and (int(_vkarray.min(a)) < 0 or int(_vkarray.max(a)) >= n):
            raise ValueError("[choose] invalid entry in choice array")
    else:
        raise ValueError(f"[choose] clipmode must be one of 'clip', 'raise', or 'wrap', got "
                         f"{mode!r}")
    t = _vkarray.result_type(*choices)
    r = astype(choices[0], t)
    for i in range(1, n):
        r = _math.where(a == i, astype(choices[i], t), r)
    r = _vkarray.broadcast_to(r, _np.broadcast_shapes(a.shape, *[c.shape for c in choices]))
    return _vkarray._finish(r, out, op="choose", casting="unsafe")


def _cycled(vals, n, ctx, dtype):
    vals = _vkarray.ravel(_asarray(vals, ctx))
    if vals.size == 0:
        raise ValueError("[place] Cannot insert from an empty array!")
    reps = -(-n // vals.size)
    return astype(tile(vals, reps)[:n], dtype)


def place(arr, mask, vals):
    """numpy.place: the masked elements of arr (in order) take vals, repeated as needed."""
    mask = _asarray(mask, arr.context)
    if mask.size != arr.size:
        raise ValueError("[place] mask and data must be the same size")
    idx = _vkarray.flatnonzero(mask)
    n = idx.shape[0]
    if n:
        _vkarray.put(arr, idx, _cycled(vals, n, arr.context, arr.dtype))


def putmask(a, mask, values):
    """numpy.putmask: a[mask] = values, values repeated over a's flat positions. An array of
    values must cast to a's dtype safely (TypeError otherwise, as numpy); scalars and lists
    are converted as assignment converts."""
    if isinstance(values, (_vkarray.ndarray, _np.ndarray)) and not _np.can_cast(
            values.dtype, a.dtype, "safe"):
        raise TypeError(f"[putmask] Cannot cast array data from dtype('{values.dtype}') to "
                        f"dtype('{a.dtype}') according to the rule 'safe'")
    if a.size == 0:
        return
    values = _cycled(values, a.size, a.context, a.dtype)
    a[...] = _math.where(_asarray(mask, a.context), _vkarray.reshape(values, a.shape), a)


def _index_array(op, obj, ctx, checked=True):
    """An integer index operand as (device int64 array, host copy): host data is checked and
    uploaded; a vkarray array is downloaded for the bound checks when `checked` (host copy
    None otherwise: a lazy one stays lazy)."""
    if isinstance(obj, _vkarray.ndarray):
        if obj.dtype.kind not in "biu":
            raise TypeError(f"[{op}] only int indices permitted, got {obj.dtype}")
        return obj.astype(_np.int64, copy=False), obj.get() if checked else None
    data = _np.asarray(obj)
    if data.dtype.kind not in "biu" and not (data.size == 0 and data.dtype.kind == "f"):
        raise TypeError(f"[{op}] only int indices permitted, got {data.dtype}")
    data = data.astype(_np.int64)
    return asarray(data, context=ctx) if ctx is not None else asarray(data), data


def mask_indices(n, mask_func, k=0):
    """numpy.mask_indices: the indices of the nonzero entries of mask_func(ones((n, n)), k)
    (mask_func: triu, tril, or any function of that form)."""
    m = _vkarray._ones((n, n), _np.int64)
    return _vkarray.nonzero(mask_func(m, k) != 0)


def _strides(dims, order, op):
    """Element strides of `dims` in numpy's order ('C', 'F'; None means 'C')."""
    order = "C" if order is None else order
    if order not in ("C", "F"):
        raise ValueError(f"[{op}] only 'C' or 'F' order is permitted")
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
    if order not in ("C", "F", None):
        raise ValueError("[unravel_index] only 'C' or 'F' order is permitted")
    dims = _nonnegative_ints("unravel_index", shape, "dimensions")
    idx, host = _index_array("unravel_index", indices, _context([indices]))
    strides, size = _strides(dims, order, "unravel_index")
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
        outs.append(_vkarray.copy(coord) if coord is indices else coord)
    return tuple(outs)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """numpy.ravel_multi_index: a tuple of coordinate arrays (broadcast together) into flat
    indices (int64) of an array of shape dims. mode per axis or for all: 'raise' (ValueError
    for coordinates out of range; vkarray inputs are downloaded for that check), 'wrap'
    (modulo the extent) or 'clip' (to the extent). Lazy, one fused kernel."""
    dims = _nonnegative_ints("ravel_multi_index", dims, "dimensions")
    coords = list(multi_index)
    if len(coords) != len(dims):
        raise ValueError(f"[ravel_multi_index] parameter multi_index must be a sequence of "
                         f"length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims) or any(m not in ("raise", "wrap", "clip") for m in modes):
        raise ValueError(f"[ravel_multi_index] clipmode must be one of 'raise', 'wrap' or "
                         f"'clip' (one or one per axis), got {mode!r}")
    strides, _ = _strides(dims, order, "ravel_multi_index")
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
            idx = _math.clip(idx, 0, d - 1)
        term = idx * stride if stride != 1 else idx
        result = term if result is None else result + term
    if result is None:  # no axes: numpy returns 0
        return zeros((), _np.int64, **_creation_kwargs(ctx))
    if result.dtype != _np.int64:
        result = result.astype(_np.int64)
    return _vkarray.copy(result) if any(result is c for c in coords) else result



class _Concatenator:
    """numpy's r_ (along axis 0) and c_ (along the last axis, items made at least 2-d with
    1-d items as columns): arrays, scalars and slices (aranges, or with an imaginary step
    linspaces) concatenated on the device; a first string item sets 'axis', 'axis,ndmin' or
    'axis,ndmin,trans1d', as numpy's. numpy's matrix directives 'r' and 'c' raise
    NotImplementedError: vkarray has no matrix type."""

    def __init__(self, name, axis, ndmin=1, trans1d=-1):
        self._name, self._defaults = name, (axis, ndmin, trans1d)

    def __repr__(self):
        return f"vkarray.{self._name}"

    def __len__(self):
        return 0

    def _directive(self, item):
        if item in ("r", "c"):
            raise NotImplementedError(f"[{self._name}] the matrix directive {item!r}: vkarray "
                                      f"has no matrix type")
        try:
            values = [int(x) for x in item.split(",")]
        except ValueError:
            raise ValueError(f"[{self._name}] unknown special directive {item!r}") from None
        if not 1 <= len(values) <= 3:
            raise ValueError(f"[{self._name}] unknown special directive {item!r}")
        return tuple(values) + self._defaults[len(values):]

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self._defaults
        objs, types = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError(f"[{self._name}] special directives must be the first "
                                     f"entry.")
                axis, ndmin, trans1d = self._directive(item)
                continue
            if isinstance(item, slice):
                new = _Grid._axis(item)
                if ndmin > 1:
                    new = array(new, copy=False, ndmin=ndmin)
                    if trans1d != -1:
                        new = _vkarray.swapaxes(new, -1, trans1d)
                types.append(new.dtype)
            elif _np.isscalar(item):
                new = item
                types.append(item)
            else:
                new = _asarray(item)
                item_ndim = new.ndim
                new = array(new, copy=False, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2, k1 = ndmin - item_ndim, trans1d
                    k1 = k1 + k2 + 1 if k1 < 0 else k1
                    axes = list(range(ndmin))
                    new = _vkarray.transpose(new, tuple(axes[:k1] + axes[k2:] + axes[k1:k2]))
                types.append(new.dtype)
            objs.append(new)
        if not objs:
            raise ValueError(f"[{self._name}] need at least one array to concatenate")
        t = _vkarray.result_type(*types)
        objs = [array(o, t, copy=False, ndmin=ndmin) for o in objs]
        return concatenate(objs, axis=axis)


r_ = _Concatenator("r_", 0)


c_ = _Concatenator("c_", -1, ndmin=2, trans1d=0)
