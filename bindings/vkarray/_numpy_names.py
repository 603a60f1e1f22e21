"""numpy's names that vkarray lacked, composed from vkarray's operations on the device:
comparisons (isclose, allclose, array_equal, array_equiv), copyto, shape queries and atleast_nd,
numpy's dtype helpers (numpy's own objects), construction (logspace, geomspace, fromfunction,
frombuffer, fromiter, indices, tri, windows) and selection (select, piecewise, choose, place,
putmask, append, delete). The numeric ones (interp, convolve, gradient, cov, ...) are in
_numpy_numeric, the elementwise ones in _numpy_math, index helpers in _numpy_indexing, the
rest in _numpy_misc; this module gathers them."""

import numpy as _np

from . import _nan_statistics, _numpy_indexing, _numpy_math, _numpy_misc, _numpy_numeric
from ._namespace import vk as _vk
from ._joining import concatenate, vstack
from ._nan_statistics import *  # noqa: F401,F403
from ._numpy_indexing import *  # noqa: F401,F403
from ._numpy_math import *  # noqa: F401,F403
from ._numpy_misc import *  # noqa: F401,F403
from ._numpy_numeric import *  # noqa: F401,F403
from ._shaping import _AxisError, _asarray, _asarrays

_OWN = [
    "newaxis", "isclose", "allclose", "array_equal", "array_equiv", "copyto", "shape", "ndim",
    "size", "isscalar", "atleast_1d", "atleast_2d", "atleast_3d", "promote_types", "finfo",
    "iinfo", "issubdtype", "broadcast_shapes", "asanyarray", "row_stack", "logspace",
    "geomspace", "fromfunction", "frombuffer", "fromiter", "indices", "tri", "select",
    "piecewise", "choose", "place", "putmask", "append", "delete", "rollaxis", "hanning",
    "hamming", "bartlett", "blackman",
]
__all__ = (_OWN + _numpy_math.__all__ + _numpy_numeric.__all__ + _numpy_indexing.__all__
           + _numpy_misc.__all__ + _nan_statistics.__all__)
UFUNCS = {name: globals()[name] for name in _numpy_math.UFUNCS}

newaxis = None
# numpy's dtype helpers work on dtypes alone: vkarray's dtypes are numpy's, so these are too.
promote_types = _np.promote_types
finfo = _np.finfo
iinfo = _np.iinfo
issubdtype = _np.issubdtype
broadcast_shapes = _np.broadcast_shapes
row_stack = vstack


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.isclose: |a - b| <= atol + rtol * |b| elementwise, infinities equal only to
    themselves, NaNs equal when equal_nan (numpy's formula, in numpy's float dtype)."""
    a, b = _asarrays("isclose", [a, b])
    try:
        _np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"[isclose] operands could not be broadcast together with shapes "
                         f"{a.shape} {b.shape}") from None
    t = _np.result_type(b.dtype, 1.0)
    a, b = _vk.astype(a, _np.result_type(a.dtype, t)), _vk.astype(b, t)
    finite = _vk.isfinite(a) & _vk.isfinite(b)
    close = _vk.abs(a - b) <= atol + rtol * _vk.abs(b)
    r = _vk.where(finite, close, a == b)
    if equal_nan:
        r = r | (_vk.isnan(a) & _vk.isnan(b))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.allclose: a Python bool, all(isclose(...))."""
    return bool(_vk.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """numpy.array_equal: same shape and all elements equal (a Python bool)."""
    a1, a2 = _asarrays("array_equal", [a1, a2])
    if a1.shape != a2.shape:
        return False
    eq = a1 == a2
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        eq = eq | (_vk.isnan(a1) & _vk.isnan(a2))
    return bool(_vk.all(eq))


def array_equiv(a1, a2):
    """numpy.array_equiv: broadcastable to one shape and all elements equal."""
    a1, a2 = _asarrays("array_equiv", [a1, a2])
    try:
        _np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(_vk.all(a1 == a2))


def copyto(dst, src, casting="same_kind", where=True):
    """numpy.copyto: src (broadcast) into dst where `where` holds, under numpy's casting."""
    if not isinstance(dst, _vk.ndarray):
        raise TypeError(f"[copyto] dst must be a vkarray.ndarray, got {type(dst).__name__}")
    src = _asarray(src, dst.context) if not _np.isscalar(src) else src
    from_t = src.dtype if isinstance(src, _vk.ndarray) else _vk.result_type(dst, src)
    if isinstance(src, _vk.ndarray) and not _vk.can_cast(from_t, dst.dtype, casting):
        raise TypeError(f"[copyto] Cannot cast array data from dtype('{from_t}') to "
                        f"dtype('{dst.dtype}') according to the rule '{casting}'")
    value = _vk.astype(_vk.broadcast_to(_asarray(src, dst.context), dst.shape), dst.dtype)
    if where is not True:
        value = _vk.where(where, value, dst)
    dst[...] = value


def shape(a):
    """numpy.shape: the shape tuple of an array or array-like."""
    return a.shape if isinstance(a, _vk.ndarray) else _np.shape(a)


def ndim(a):
    """numpy.ndim: the number of dimensions of an array or array-like."""
    return a.ndim if isinstance(a, _vk.ndarray) else _np.ndim(a)


def size(a, axis=None):
    """numpy.size: the number of elements, or the length of `axis`."""
    if not isinstance(a, _vk.ndarray):
        return _np.size(a, axis)
    if axis is None:
        return a.size
    if not -a.ndim <= axis < a.ndim:
        raise _AxisError(f"[size] axis {axis} is out of bounds for array of dimension {a.ndim}")
    return a.shape[axis]


def isscalar(element):
    """numpy.isscalar: True for Python and numpy scalars; vkarray arrays (0-d too) are not."""
    return not isinstance(element, _vk.ndarray) and _np.isscalar(element)


def _atleast(arys, ndim, place):
    out = []
    for a in _asarrays(f"atleast_{ndim}d", list(arys)):
        if a.ndim < ndim:
            a = _vk.reshape(a, place(a.shape))
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


def asanyarray(a, dtype=None):
    """numpy.asanyarray: vkarray has no subclasses, so asarray."""
    return _vk.asarray(a, dtype=dtype)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """numpy.logspace: base ** linspace(start, stop, num)."""
    if axis != 0:
        raise NotImplementedError("[logspace] axis other than 0 is not supported yet")
    y = _vk.linspace(start, stop, num, endpoint=endpoint)
    r = _vk.power(_vk.asarray(base, dtype=y.dtype), y)
    return r if dtype is None else _vk.astype(r, dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """numpy.geomspace: a geometric progression from start to stop (real, same sign), with
    the end points exact as numpy's."""
    if axis != 0:
        raise NotImplementedError("[geomspace] axis other than 0 is not supported yet")
    if start == 0 or stop == 0:
        raise ValueError("[geomspace] Geometric sequence cannot include zero")
    if isinstance(start, complex) or isinstance(stop, complex) or (start < 0) != (stop < 0):
        raise NotImplementedError("[geomspace] complex and sign-changing ranges are not "
                                  "supported yet")
    sign = -1.0 if start < 0 else 1.0
    lo, hi = abs(start), abs(stop)
    r = logspace(_np.log10(lo), _np.log10(hi), num, endpoint=endpoint, base=10.0)
    if num > 0:
        r[0] = lo
        if num > 1 and endpoint:
            r[-1] = hi
    r = r * sign
    return r if dtype is None else _vk.astype(r, dtype)


def indices(dimensions, dtype=int, sparse=False):
    """numpy.indices: the index grids of an array of shape `dimensions`, stacked."""
    dims = tuple(dimensions)
    grids = []
    for i, n in enumerate(dims):
        shape = (1,) * i + (n,) + (1,) * (len(dims) - i - 1)
        g = _vk.reshape(_vk.arange(n, dtype=dtype), shape)
        grids.append(g if sparse else _vk.broadcast_to(g, dims))
    if sparse:
        return tuple(grids)
    return _vk.stack(grids) if grids else _vk.zeros((0,), dtype=dtype)


def fromfunction(function, shape, *, dtype=float, **kwargs):
    """numpy.fromfunction: function(*indices(shape, dtype)) on the device."""
    return function(*indices(shape, dtype=dtype), **kwargs)


def frombuffer(buffer, dtype=float, count=-1, offset=0):
    """numpy.frombuffer on host bytes, uploaded to the device."""
    return _vk.asarray(_np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromiter(iter, dtype, count=-1):
    """numpy.fromiter on the host, uploaded to the device."""
    return _vk.asarray(_np.fromiter(iter, dtype=dtype, count=count))


def tri(N, M=None, k=0, dtype=float):
    """numpy.tri: ones at and below the k-th diagonal."""
    M = N if M is None else M
    r = _vk.reshape(_vk.arange(N), (N, 1)) + k >= _vk.reshape(_vk.arange(M), (1, M))
    return _vk.astype(r, dtype)


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
    t = _vk.result_type(*choices)
    r = _vk.astype(choices[-1], t)
    for c, v in zip(reversed(conds), reversed(choices[:-1])):
        r = _vk.where(c, _vk.astype(v, t), r)
    return r


def piecewise(x, condlist, funclist, *args, **kw):
    """numpy.piecewise: funclist[i] (a function of x, or a value) where condlist[i]; an extra
    function is the default. Functions see the whole array (vkarray evaluates elementwise
    functions on every element and selects)."""
    x = _asarray(x)
    if isinstance(condlist, (_vk.ndarray, _np.ndarray, bool)) or (
            condlist and not isinstance(condlist[0], (list, _vk.ndarray, _np.ndarray))):
        condlist = [condlist]
    conds = [_vk.astype(_asarray(c, x.context), _np.bool_) for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"[piecewise] with {n} condition(s), either {n} or {n + 1} functions "
                         f"are expected")

    def value(f):
        return _vk.astype(_asarray(f(x, *args, **kw) if callable(f) else f, x.context), x.dtype)

    r = value(funclist[n]) if len(funclist) == n + 1 else _vk.zeros(x.shape, dtype=x.dtype)
    for c, f in zip(conds, funclist):
        r = _vk.where(c, value(f), r)
    return _vk.broadcast_to(r, x.shape)


def choose(a, choices, out=None, mode="raise"):
    """numpy.choose: choices[a] elementwise (mode 'raise', 'wrap' or 'clip')."""
    a = _asarray(a)
    choices = _asarrays("choose", list(choices))
    n = len(choices)
    if mode == "wrap":
        a = _vk.remainder(a, n)
    elif mode == "clip":
        a = _vk.clip(a, 0, n - 1)
    elif mode == "raise":
        if a.size and (int(_vk.min(a)) < 0 or int(_vk.max(a)) >= n):
            raise ValueError("[choose] invalid entry in choice array")
    else:
        raise ValueError(f"[choose] clipmode must be one of 'clip', 'raise', or 'wrap', got "
                         f"{mode!r}")
    t = _vk.result_type(*choices)
    r = _vk.astype(choices[0], t)
    for i in range(1, n):
        r = _vk.where(a == i, _vk.astype(choices[i], t), r)
    r = _vk.broadcast_to(r, _np.broadcast_shapes(a.shape, *[c.shape for c in choices]))
    if out is not None:
        out[...] = r
        return out
    return r


def _cycled(vals, n, ctx, dtype):
    vals = _vk.ravel(_asarray(vals, ctx))
    if vals.size == 0:
        raise ValueError("[place] Cannot insert from an empty array!")
    reps = -(-n // vals.size)
    return _vk.astype(_vk.tile(vals, reps)[:n], dtype)


def place(arr, mask, vals):
    """numpy.place: the masked elements of arr (in order) take vals, repeated as needed."""
    idx = _vk.flatnonzero(_asarray(mask, arr.context))
    n = idx.shape[0]
    if n:
        _vk.put(arr, idx, _cycled(vals, n, arr.context, arr.dtype))


def putmask(a, mask, values):
    """numpy.putmask: a[mask] = values, values repeated over a's flat positions."""
    values = _cycled(values, a.size, a.context, a.dtype)
    a[...] = _vk.where(_asarray(mask, a.context), _vk.reshape(values, a.shape), a)


def append(arr, values, axis=None):
    """numpy.append: values joined after arr (both flattened when axis is None)."""
    arr, values = _asarrays("append", [arr, values])
    if axis is None:
        return concatenate([_vk.ravel(arr), _vk.ravel(values)])
    return concatenate([arr, values], axis=axis)


def delete(arr, obj, axis=None):
    """numpy.delete: arr without the entries `obj` (int, slice or indices) along axis."""
    arr = _asarray(arr)
    if axis is None:
        arr, axis = _vk.ravel(arr), 0
    if not -arr.ndim <= axis < arr.ndim:
        raise _AxisError(f"[delete] axis {axis} is out of bounds for array of dimension "
                         f"{arr.ndim}")
    keep = _np.ones(arr.shape[axis], dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        idx = _np.asarray(obj.get() if isinstance(obj, _vk.ndarray) else obj)
        if idx.dtype == bool:
            keep = ~idx
        else:
            n = arr.shape[axis]
            if idx.size and (idx.min() < -n or idx.max() >= n):
                raise IndexError(f"[delete] index {int(idx.max())} is out of bounds for axis "
                                 f"{axis} with size {n}")
            keep[idx] = False
    return _vk.compress(keep, arr, axis=axis)


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
    return a if axis == start else _vk.moveaxis(a, axis, start)


def _window(M, fn):
    if M < 1:
        return _vk.zeros((0,))
    if M == 1:
        return _vk.ones((1,))
    return fn(_vk.arange(1 - M, M, 2, dtype=_np.float64))


def hanning(M):
    """numpy.hanning: 0.5 + 0.5 cos(pi n / (M - 1)), n = 1-M, 3-M, ..., M-1."""
    return _window(M, lambda n: 0.5 + 0.5 * _vk.cos(_np.pi * n / (M - 1)))


def hamming(M):
    """numpy.hamming: 0.54 + 0.46 cos(pi n / (M - 1))."""
    return _window(M, lambda n: 0.54 + 0.46 * _vk.cos(_np.pi * n / (M - 1)))


def bartlett(M):
    """numpy.bartlett: the triangular window, numpy's formula."""
    return _window(M, lambda n: _vk.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1)))


def blackman(M):
    """numpy.blackman: 0.42 + 0.5 cos(pi n/(M-1)) + 0.08 cos(2 pi n/(M-1))."""
    return _window(M, lambda n: 0.42 + 0.5 * _vk.cos(_np.pi * n / (M - 1))
                   + 0.08 * _vk.cos(2.0 * _np.pi * n / (M - 1)))

