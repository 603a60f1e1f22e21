"""numpy's index helpers on the device: triangle and diagonal indices, ix_, mgrid/ogrid,
fill_diagonal, put_along_axis, insert, resize and vander."""

import numpy as _np

from ._namespace import vk as _vk
from ._shaping import _AxisError, _asarray

__all__ = [
    "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from", "diag_indices",
    "diag_indices_from", "ix_", "mgrid", "ogrid", "fill_diagonal", "put_along_axis", "insert",
    "resize", "vander",
]


def _tri_indices(n, k, m, lower):
    m = n if m is None else m
    rows = _vk.reshape(_vk.arange(n), (n, 1))
    cols = _vk.reshape(_vk.arange(m), (1, m))
    mask = (cols - rows <= k) if lower else (cols - rows >= k)
    return _vk.nonzero(_vk.broadcast_to(mask, (n, m)))


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
    idx = _vk.arange(n)
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
            _vk.zeros((0,), dtype=_np.intp)
        if a.ndim != 1:
            raise ValueError("[ix_] Cross index must be 1 dimensional")
        if a.dtype == _np.bool_:
            a = _vk.nonzero(a)[0]
        out.append(_vk.reshape(a, (1,) * k + (a.shape[0],) + (1,) * (n - k - 1)))
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
            return _vk.linspace(start, s.stop, int(abs(step)))
        return _vk.arange(start, s.stop, step)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._axis(key)
        axes = [self._axis(s) for s in key]
        t = _vk.result_type(*axes)
        n = len(axes)
        grids = [_vk.reshape(_vk.astype(a, t), (1,) * i + (a.shape[0],) + (1,) * (n - i - 1))
                 for i, a in enumerate(axes)]
        if self.sparse:
            return tuple(grids)
        shape = tuple(a.shape[0] for a in axes)
        return _vk.stack([_vk.broadcast_to(g, shape) for g in grids])


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
    vals = _vk.ravel(_asarray(val, a.context))
    reps = -(-flat.size // vals.shape[0])
    _vk.put(a, flat, _vk.astype(_vk.tile(vals, reps)[:flat.size], a.dtype))


def put_along_axis(arr, indices, values, axis):
    """numpy.put_along_axis: arr[..., indices, ...] = values along axis (in place)."""
    indices = _asarray(indices, arr.context)
    if axis is None:
        _vk.put(arr, indices, values)
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
            index.append(_vk.reshape(_vk.arange(arr.shape[d]), tuple(shape)))
    arr[tuple(index)] = values


def insert(arr, obj, values, axis=None):
    """numpy.insert with an int or a sequence of ints: values inserted before those indices."""
    arr = _asarray(arr)
    if axis is None:
        arr, axis = _vk.ravel(arr), 0
    if not -arr.ndim <= axis < arr.ndim:
        raise _AxisError(f"[insert] axis {axis} is out of bounds for array of dimension "
                         f"{arr.ndim}")
    axis %= arr.ndim
    n = arr.shape[axis]
    scalar = _np.ndim(obj) == 0 and not isinstance(obj, slice)
    pos = _np.arange(n + 1)[obj] if isinstance(obj, slice) else _np.asarray(
        obj.get() if isinstance(obj, _vk.ndarray) else obj)
    pos = _np.atleast_1d(pos).astype(_np.intp)
    if pos.size and (pos.min() < -n or pos.max() > n):
        raise IndexError(f"[insert] index {int(pos.max())} is out of bounds for axis {axis} "
                         f"with size {n}")
    pos = _np.where(pos < 0, pos + n, pos)
    values = _vk.astype(_asarray(values, arr.context), arr.dtype)
    if values.ndim < arr.ndim:
        values = _vk.reshape(values, (1,) * (arr.ndim - values.ndim) + values.shape)
    vshape = list(arr.shape)
    if scalar:  # numpy: the values' first axis becomes the inserted run along axis
        values = _vk.moveaxis(values, 0, axis)
        vshape[axis] = values.shape[axis]
        pos = _np.repeat(pos, vshape[axis])
    else:
        vshape[axis] = pos.size
    values = _vk.broadcast_to(values, tuple(vshape))
    order = _np.argsort(pos, kind="stable")
    total = n + pos.size
    new_pos = pos[order] + _np.arange(pos.size)
    old = _np.ones(total, dtype=bool)
    old[new_pos] = False
    source = _np.empty(total, dtype=_np.intp)
    source[old] = _np.arange(n)
    source[new_pos] = n + order
    joined = _vk.concatenate([arr, values], axis=axis)
    return _vk.take(joined, source, axis=axis)


def resize(a, new_shape):
    """numpy.resize: a's flattened values repeated (or cut) to fill new_shape."""
    a = _vk.ravel(_asarray(a))
    shape = (new_shape,) if _np.ndim(new_shape) == 0 else tuple(new_shape)
    if any(s < 0 for s in shape):
        raise ValueError("[resize] all elements of `new_shape` must be non-negative")
    total = int(_np.prod(shape))
    if a.size == 0 or total == 0:
        return _vk.zeros(shape, dtype=a.dtype)
    reps = -(-total // a.size)
    return _vk.reshape(_vk.tile(a, reps)[:total], shape)


def vander(x, N=None, increasing=False):
    """numpy.vander: columns x**(N-1), ..., x**0 (reversed when increasing)."""
    x = _asarray(x)
    if x.ndim != 1:
        raise ValueError("[vander] x must be a one-dimensional array or sequence.")
    N = x.shape[0] if N is None else N
    powers = _vk.arange(N) if increasing else _vk.arange(N - 1, -1, -1)
    t = _np.promote_types(x.dtype, _np.int64) if x.dtype.kind in "biu" else x.dtype
    base = _vk.reshape(_vk.astype(x, t), (-1, 1))
    return _vk.power(base, _vk.astype(_vk.reshape(powers, (1, -1)), t))
