"""More of numpy's names: printing (numpy's own options, which vkarray's repr follows),
einsum_path, real_if_close, asarray_chkfinite, common_type, sort_complex,
histogram_bin_edges, apply_along_axis and the polynomial helpers, on vkarray arrays."""

import numpy as _np

from ._namespace import vk as _vk
from ._shaping import _AxisError, _asarray

__all__ = [
    "set_printoptions", "get_printoptions", "printoptions", "array_repr", "array_str",
    "array2string", "einsum_path", "real_if_close", "asarray_chkfinite", "common_type",
    "sort_complex", "histogram_bin_edges", "apply_along_axis", "polyadd", "polysub",
    "polymul", "polyder", "polyint", "polyfit", "block",
]

# Printing reads numpy's options: vkarray formats a host copy of the values with numpy.
set_printoptions = _np.set_printoptions
get_printoptions = _np.get_printoptions
printoptions = _np.printoptions


def _host(a):
    return a.get() if isinstance(a, _vk.ndarray) else _np.asarray(a)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """numpy.array_repr of a vkarray array: numpy's layout with the device named."""
    text = _np.array_repr(_host(arr), max_line_width, precision, suppress_small)
    return f"{text[:-1]}, device='{arr.device}')" if isinstance(arr, _vk.ndarray) else text


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """numpy.array_str of the values (a host copy)."""
    return _np.array_str(_host(a), max_line_width, precision, suppress_small)


def array2string(a, *args, **kwargs):
    """numpy.array2string of the values (a host copy)."""
    return _np.array2string(_host(a), *args, **kwargs)


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path: the contraction order numpy would choose; it depends on shapes only,
    so numpy plans it on zero-strided host stand-ins (no download)."""
    stand_ins = [_np.broadcast_to(_np.zeros((), o.dtype), o.shape)
                 if isinstance(o, _vk.ndarray) else o for o in operands]
    return _np.einsum_path(subscripts, *stand_ins, optimize=optimize, einsum_call=einsum_call)


def real_if_close(a, tol=100):
    """numpy.real_if_close: the real part when every imaginary part is within tol machine
    epsilons of zero (one reduction read back), else a unchanged."""
    a = _asarray(a)
    if a.dtype.kind != "c":
        return a
    eps = _np.finfo(a.dtype).eps
    limit = tol * eps if tol > 1 else tol
    if bool(_vk.all(_vk.abs(_vk.imag(a)) < limit)):
        return _vk.real(a)
    return a


def asarray_chkfinite(a, dtype=None, order=None):
    """numpy.asarray_chkfinite: asarray, raising ValueError if any value is inf or NaN."""
    a = _vk.asarray(a, dtype=dtype)
    if a.dtype.kind in "fc" and not bool(_vk.all(_vk.isfinite(a))):
        raise ValueError("[asarray_chkfinite] array must not contain infs or NaNs")
    return a


def common_type(*arrays):
    """numpy.common_type: the inexact scalar type of the arrays' dtypes."""
    return _np.common_type(*[_np.empty(0, a.dtype) for a in arrays])


def sort_complex(a):
    """numpy.sort_complex: sorted by real part, then imaginary, as complex."""
    a = _asarray(a)
    r = _vk.sort(a)
    if a.dtype.kind == "c":
        return r
    to = _np.complex64 if a.dtype.char in "bhBHf?e" else _np.complex128
    return _vk.astype(r, to)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """numpy.histogram_bin_edges with a bin count or explicit edges (histogram's edges)."""
    return _vk.histogram(a, bins=bins, range=range, weights=weights)[1]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """numpy.apply_along_axis: func1d on every 1-d slice along axis (one Python call per
    slice, each on the device), results stacked where the axis was."""
    arr = _asarray(arr)
    nd = arr.ndim
    if not -nd <= axis < nd:
        raise _AxisError(f"[apply_along_axis] axis {axis} is out of bounds for array of "
                            f"dimension {nd}")
    moved = _vk.moveaxis(arr, axis % nd, -1)
    outer = moved.shape[:-1]
    if 0 in outer:
        raise ValueError("[apply_along_axis] Cannot apply_along_axis when any iteration "
                         "dimensions are 0")
    rows = _vk.reshape(moved, (-1, moved.shape[-1]))
    results = [_asarray(func1d(rows[i], *args, **kwargs), arr.context)
               for i in range(rows.shape[0])]
    out = _vk.reshape(_vk.stack(results), outer + results[0].shape)
    if results[0].ndim == 0:
        return out
    lead = axis % nd
    return _vk.moveaxis(out, tuple(range(len(outer), out.ndim)),
                        tuple(range(lead, lead + results[0].ndim)))


def _poly(p):
    return _vk.ravel(_asarray(p))


def polyadd(a1, a2):
    """numpy.polyadd of coefficient sequences (highest power first)."""
    a1, a2 = _poly(a1), _poly(a2)
    d = a1.shape[0] - a2.shape[0]
    if d > 0:
        a2 = _vk.concatenate([_vk.zeros((d,), dtype=a2.dtype), a2])
    elif d < 0:
        a1 = _vk.concatenate([_vk.zeros((-d,), dtype=a1.dtype), a1])
    return a1 + a2


def polysub(a1, a2):
    """numpy.polysub: a1 - a2 of coefficient sequences."""
    return polyadd(a1, -_poly(a2))


def polymul(a1, a2):
    """numpy.polymul: the product polynomial (a convolution of the coefficients)."""
    return _vk.convolve(_poly(a1), _poly(a2))


def polyder(p, m=1):
    """numpy.polyder: the m-th derivative."""
    if m < 0:
        raise ValueError("[polyder] Order of derivative must be positive (see polyint)")
    p = _poly(p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * _vk.arange(n, 0, -1)
    return p


def polyint(p, m=1, k=None):
    """numpy.polyint: the m-th antiderivative with integration constants k (default 0)."""
    if m < 0:
        raise ValueError("[polyint] Order of integral must be positive (see polyder)")
    ks = [0.0] * m if k is None else list(_np.atleast_1d(k))
    if len(ks) == 1 and m > 1:
        ks = ks * m
    if len(ks) < m:
        raise ValueError("[polyint] k must be a scalar or a rank-1 array of length 1 or >m.")
    p = _vk.astype(_poly(p), _np.result_type(_poly(p).dtype, _np.float64))
    for i in range(m):
        n = p.shape[0]
        p = _vk.concatenate([p / _vk.arange(n, 0, -1), _vk.full((1,), ks[i], dtype=p.dtype)])
    return p


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """numpy.polyfit by least squares on the column-scaled Vandermonde matrix, as numpy
    computes it (full=True, w= and cov= are not supported yet)."""
    if full or w is not None or cov:
        raise NotImplementedError("[polyfit] full=True, w= and cov= are not supported yet")
    deg = int(deg)
    if deg < 0:
        raise ValueError("[polyfit] expected deg >= 0")
    x, y = _asarray(x), _asarray(y)
    if x.ndim != 1:
        raise TypeError("[polyfit] expected 1D vector for x")
    if x.size == 0:
        raise TypeError("[polyfit] expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("[polyfit] expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("[polyfit] expected x and y to have same length")
    t = _np.result_type(x.dtype, y.dtype, 1.0)
    x, y = _vk.astype(x, t), _vk.astype(y, t)
    rcond = x.shape[0] * _np.finfo(t).eps if rcond is None else rcond
    lhs = _vk.vander(x, deg + 1)
    scale = _vk.sqrt(_vk.sum(lhs * lhs, axis=0))
    c = _vk.linalg.lstsq(lhs / scale, y, rcond=rcond)[0]
    return c / scale if c.ndim == 1 else c / _vk.reshape(scale, (-1, 1))


def _block_depth(arrays, index=()):
    if isinstance(arrays, tuple):
        raise TypeError(f"[block] arrays is a tuple at index {list(index)}; only lists can be "
                        f"used to arrange blocks")
    if not isinstance(arrays, list):
        return 0, _np.ndim(arrays) if not isinstance(arrays, _vk.ndarray) else arrays.ndim
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
            return _vk.reshape(a, (1,) * (ndim - a.ndim) + a.shape)
        return _vk.concatenate([assemble(y, d + 1) for y in x], axis=-(depth - d))

    return assemble(arrays, 0)
