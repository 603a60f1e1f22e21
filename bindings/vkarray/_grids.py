"""Numerical ranges and matrices from vectors: numpy's logspace, geomspace, meshgrid,
fromfunction, tri, tril, triu, diag, diagflat and vander (kernel counts: _joining.py's
docstring and each function's). arange, linspace and eye are in _creation.py."""

import operator as _operator

import numpy as _np

from . import _math, _vkarray
from ._creation import arange, asarray, eye, full, linspace
from ._dtypes import astype
from ._indexing import indices
from ._shaping import _context, _asarray

__all__ = [
    "logspace", "geomspace", "meshgrid", "fromfunction", "tri", "tril", "triu", "diag",
    "diagflat", "vander",
]


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """numpy.logspace: base ** linspace(start, stop, num)."""
    if axis != 0:
        raise NotImplementedError("[logspace] axis other than 0 is not supported yet")
    y = linspace(start, stop, num, endpoint=endpoint)
    r = _math.power(asarray(base, dtype=y.dtype), y)
    return r if dtype is None else astype(r, dtype)


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
    return r if dtype is None else astype(r, dtype)


def fromfunction(function, shape, *, dtype=float, **kwargs):
    """numpy.fromfunction: function(*indices(shape, dtype)) on the device."""
    return function(*indices(shape, dtype=dtype), **kwargs)


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
        outputs = [_vkarray.broadcast_to(o, full) for o in outputs]
    if copy:
        outputs = [_vkarray.copy(o) for o in outputs]
    return outputs


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
    bound = asarray(bound.reshape(rows, 1), context=ctx)
    col = arange(cols, dtype=_np.int32, context=ctx)
    keep = (col <= bound) if lower else (col >= bound)
    return _math.where(keep, x, x.dtype.type(0))


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
        return _vkarray.diagonal(x, k)
    if x.ndim != 1:
        raise ValueError("[diag] Input must be 1- or 2-d.")
    n = x.shape[0]
    zero = x.dtype.type(0)
    if k == 0:
        return _math.where(eye(n, dtype=_np.bool_, context=x.context), x, zero)
    size = n + abs(k)
    out = full((size, size), zero, x.dtype, context=x.context)
    first = k if k > 0 else -k * size  # flat position of the diagonal's first element
    if n:
        out.reshape(-1)[first:first + (n - 1) * (size + 1) + 1:size + 1][...] = x
    return out


def diagflat(v, k=0):
    """numpy.diagflat: diag of v flattened (a view when v is contiguous). Kernels as diag."""
    return diag(_asarray(v).reshape(-1), k)


def tri(N, M=None, k=0, dtype=float):
    """numpy.tri: ones at and below the k-th diagonal."""
    M = N if M is None else M
    r = _vkarray.reshape(arange(N), (N, 1)) + k >= _vkarray.reshape(arange(M), (1, M))
    return astype(r, dtype)


def vander(x, N=None, increasing=False):
    """numpy.vander: columns x**(N-1), ..., x**0 (reversed when increasing), in x's dtype
    promoted with int64 (float32 gives float64), as numpy's."""
    x = _asarray(x)
    if x.ndim != 1:
        raise ValueError("[vander] x must be a one-dimensional array or sequence.")
    N = x.shape[0] if N is None else N
    powers = arange(N) if increasing else arange(N - 1, -1, -1)
    t = _np.promote_types(x.dtype, _np.int64)
    base = _vkarray.reshape(astype(x, t), (-1, 1))
    return _math.power(base, astype(_vkarray.reshape(powers, (1, -1)), t))
