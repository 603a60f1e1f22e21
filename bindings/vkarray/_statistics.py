"""numpy's statistics: the compiled reductions (max, min, ptp, mean, nanmean, nanvar, nanstd,
...), std and var with the array API's correction=, order statistics built on the device's sort
(median, quantile, percentile, their nan forms; numpy's 'linear', 'lower', 'higher', 'nearest'
and 'midpoint' methods), average,
cov and corrcoef. Histograms are in _histograms.py."""

import builtins as _builtins

import numpy as _np

from . import _vkarray as _vk
from . import _math
from ._creation import asarray, full
from ._dtypes import astype
from ._products import matmul
from ._sorting import sort
from ._joining import concatenate
from ._shaping import _asarray, _normalize_axis
from ._vkarray import (amax, amin, max, mean, min, nanmax, nanmean, nanmin, nanstd,  # noqa: A004
                       nanvar, ptp)

__all__ = [
    "max", "amax", "min", "amin", "nanmax", "nanmin", "ptp", "mean", "nanmean", "std", "var",
    "nanstd", "nanvar", "median", "nanmedian", "quantile", "nanquantile", "percentile",
    "nanpercentile", "average", "cov", "corrcoef",
]


def _axes(op, axis, ndim):
    """axis (None, int or tuple) → a sorted tuple of distinct normalized axes."""
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = [_normalize_axis(op, a, ndim) for a in items]
    if len(set(out)) != len(out):
        raise ValueError(f"[{op}] duplicate value in 'axis'")
    return tuple(sorted(out))


def _sorted_last(op, a, axis):
    """a sorted along the reduced axes, moved last and merged into one (NaN sorts last), and
    the shape of the kept axes."""
    axes = _axes(op, axis, a.ndim)
    kept = [d for d in range(a.ndim) if d not in axes]
    moved = _vk.permute_dims(a, kept + list(axes))
    kept_shape = tuple(a.shape[d] for d in kept)
    n = 1
    for d in axes:
        n *= a.shape[d]
    if n == 0:
        raise ValueError(f"[{op}] cannot take a quantile of an empty reduction "
                         f"(input shape {a.shape})")
    flat = _vk.reshape(_vk.ascontiguousarray(moved), kept_shape + (n,))
    return sort(flat, axis=-1), kept_shape, axes, n


def _keep(result, axes, keepdims, lead=0):
    """The reduced axes back as extent-1 axes (keepdims), after `lead` leading axes of q."""
    if not keepdims:
        return result
    for d in axes:
        result = _vk.expand_dims(result, lead + d)
    return result


def _quantile_result(op, r, qh, kept_shape, axes, keepdims, out):
    """Quantiles computed as (kept..., q) in numpy's layout (q..., kept...), with keepdims'
    axes, written into `out` (converted as assignment converts) when given."""
    r = _vk.ascontiguousarray(_vk.moveaxis(r, -1, 0)) if r.ndim > 1 else r  # numpy's copy
    r = _vk.reshape(r, qh.shape + kept_shape)
    r = _keep(r, axes, keepdims, lead=qh.ndim)
    return _vk._finish(r, out, op=op, casting="unsafe")


def _float_of(a):
    dt = _np.dtype(a.dtype)
    return dt if dt.kind in "fc" else _np.dtype(_np.float64)


def _lerp(lo, hi, t):
    """numpy's _lerp: a + (b - a) * t, and b - (b - a) * (1 - t) where t >= 0.5."""
    diff = hi - lo
    return _math.where(t >= 0.5, hi - diff * (1 - t), lo + diff * t)


# numpy's quantile methods; those vkarray computes, and the rest (NotImplementedError).
_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")
_OTHER_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation",
                  "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
                  "normal_unbiased")


def _check_method(op, method):
    if method in _METHODS:
        return
    if method in _OTHER_METHODS:
        raise NotImplementedError(f"[{op}] method={method!r} is not supported yet (one of "
                                  f"{', '.join(map(repr, _METHODS))})")
    raise ValueError(f"[{op}] {method!r} is not a valid method. Use one of: "
                     f"{_METHODS + _OTHER_METHODS}")


def _positions(xp, method, virtual, last):
    """numpy's positions of `method` at virtual indexes (host or device values, through xp's
    floor, ceil, rint, where, minimum): (lo, hi, gamma), with hi and gamma None for the
    methods that pick one sorted value (its dtype stays the input's, as numpy's)."""
    lo = xp.floor(virtual)
    if method == "lower":
        return lo, None, None
    if method == "higher":
        return xp.ceil(virtual), None, None
    if method == "nearest":
        return xp.rint(virtual), None, None  # numpy's around: halves to even
    if method == "midpoint":
        hi = xp.ceil(virtual)
        return lo, hi, xp.where(hi == lo, 0.0, 0.5)
    return lo, xp.minimum(lo + 1, last), virtual - lo


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False):
    """numpy.quantile: the sorted values at virtual index q*(n-1), picked or interpolated as
    numpy's `method` does ('linear', 'lower', 'higher', 'nearest', 'midpoint'); a slice
    holding NaN gives NaN. q: a scalar or an array of values in [0, 1] (its axes come first in
    the result). The interpolating methods' dtype follows numpy 2: a float input keeps its
    dtype for a scalar q, an array q promotes it; the picking methods keep the input's."""
    _check_method("quantile", method)
    a = _asarray(a)
    qh = _np.asarray(q.get() if isinstance(q, _vk.ndarray) else q, dtype=_np.float64)
    if qh.ndim > 1:
        raise ValueError("[quantile] q must be a scalar or 1d")
    if qh.size and (qh.min() < 0 or qh.max() > 1 or _np.isnan(qh).any()):
        raise ValueError("[quantile] Quantiles must be in the range [0, 1]")
    s, kept_shape, axes, n = _sorted_last("quantile", a, axis)
    lo_i, hi_i, gamma = _positions(_np, method, qh.reshape(-1) * (n - 1), n - 1)
    lo = _vk.take(s, asarray(lo_i.astype(_np.int64), context=a.context), axis=-1)
    if hi_i is None:
        r, ft = lo, _np.dtype(a.dtype)
    else:
        ft = _float_of(a)
        if not _np.isscalar(q):  # numpy 2: an array of q promotes; a Python float does not
            ft = _np.result_type(ft, qh.dtype)
        lo = lo.astype(ft)
        hi = _vk.take(s, asarray(hi_i.astype(_np.int64), context=a.context), axis=-1).astype(ft)
        tv = asarray(gamma.astype(ft if ft.kind == "f" else _np.float64), context=a.context)
        r = _lerp(lo, hi, tv).astype(ft)
    has_nan = _math.isnan(s[..., n - 1:n])  # NaN sorts last
    r = _math.where(has_nan, _np.nan, r).astype(ft) if ft.kind in "fc" else r
    return _quantile_result("quantile", r, qh, kept_shape, axes, keepdims, out)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False):
    """numpy.percentile: quantile of q / 100."""
    qh = _np.asarray(q.get() if isinstance(q, _vk.ndarray) else q, dtype=_np.float64)
    if qh.size and (qh.min() < 0 or qh.max() > 100 or _np.isnan(qh).any()):
        raise ValueError("[percentile] Percentiles must be in the range [0, 100]")
    qq = float(qh) / 100 if _np.isscalar(q) else _np.true_divide(qh, 100)
    return quantile(a, qq, axis, out, overwrite_input, method, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.median: the middle of the sorted values, or the mean of the two middle ones; a
    slice holding NaN gives NaN. Integers give float64."""
    a = _asarray(a)
    s, kept_shape, axes, n = _sorted_last("median", a, axis)
    ft = _float_of(a)
    if n % 2:
        r = s[..., n // 2].astype(ft)
    else:
        r = _vk.mean(s[..., n // 2 - 1:n // 2 + 1], axis=-1)
        r = r.astype(ft)
    if ft.kind in "fc":
        r = _math.where(_math.isnan(s[..., n - 1]), _np.nan, r).astype(ft)
    r = _vk.reshape(r, kept_shape)
    return _vk._finish(_keep(r, axes, keepdims), out, op="median", casting="unsafe")


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.nanmedian: the median of each slice's non-NaN values (the mean of the two middle
    ones for an even count); an all-NaN slice gives NaN."""
    a = _asarray(a)
    if _np.dtype(a.dtype).kind not in "fc":
        return median(a, axis, out, overwrite_input, keepdims)
    s, kept_shape, axes, n = _sorted_last("nanmedian", a, axis)  # NaN sorts last
    count = _vk.sum(~_math.isnan(s), axis=-1, keepdims=True)  # kept + (1,)
    top = _math.maximum(count - 1, 0)
    middle = concatenate([_vk.take_along_axis(s, top // 2, axis=-1),
                          _vk.take_along_axis(s, (top + 1) // 2, axis=-1)], axis=-1)
    r = _vk.mean(middle, axis=-1).astype(a.dtype)
    r = _vk.reshape(_math.where(count[..., 0] == 0, _np.nan, r).astype(a.dtype), kept_shape)
    return _vk._finish(_keep(r, axes, keepdims), out, op="nanmedian", casting="unsafe")


def _ddof(op, ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError(f"[{op}] ddof={ddof} and correction={correction} cannot both be given")
    return correction


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
        correction=None):
    """numpy.std; correction= is the array API's name for ddof."""
    return _vk._std(a, axis, dtype, out, _ddof("std", ddof, correction), keepdims,
                        where=where)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
        correction=None):
    """numpy.var; correction= is the array API's name for ddof."""
    return _vk._var(a, axis, dtype, out, _ddof("var", ddof, correction), keepdims,
                        where=where)


def _q_values(op, q, top):
    qh = _np.asarray(q.get() if isinstance(q, _vk.ndarray) else q, dtype=_np.float64)
    if qh.ndim > 1:
        raise ValueError(f"[{op}] q must be a scalar or 1d")
    if qh.size and (qh.min() < 0 or qh.max() > top or _np.isnan(qh).any()):
        name = "Quantiles" if top == 1 else "Percentiles"
        raise ValueError(f"[{op}] {name} must be in the range [0, {top}]")
    return qh


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False):
    """numpy.nanquantile: quantile (with the methods it takes) of each slice's non-NaN values; an
    all-NaN slice gives NaN."""
    _check_method("nanquantile", method)
    a = _asarray(a)
    qh = _q_values("nanquantile", q, 1)
    if a.dtype.kind not in "fc":
        return quantile(a, q, axis=axis, out=out, method=method, keepdims=keepdims)
    s, kept_shape, axes, n = _sorted_last("nanquantile", a, axis)
    count = _vk.sum(~_math.isnan(s), axis=-1, keepdims=True)  # kept + (1,)
    qs = asarray(qh.reshape(-1), context=a.context)  # (nq,)
    last = _math.maximum(count - 1, 0)
    lo_i, hi_i, gamma = _positions(_math, method, qs * astype(last, _np.float64), last)
    lo = _vk.take_along_axis(s, astype(lo_i, _np.int64), axis=-1)
    if hi_i is None:
        ft = _np.dtype(a.dtype)
        r = lo
    else:
        ft = _float_of(a)
        if not _np.isscalar(q):
            ft = _np.result_type(ft, qh.dtype)
        hi = _vk.take_along_axis(s, astype(hi_i, _np.int64), axis=-1)
        t = astype(gamma, ft if _np.dtype(ft).kind == "f" else _np.float64)
        r = astype(_lerp(astype(lo, ft), astype(hi, ft), t), ft)
    r = astype(_math.where(count == 0, _np.nan, r), ft)
    return _quantile_result("nanquantile", r, qh, kept_shape, axes, keepdims, out)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False):
    """numpy.nanpercentile: nanquantile of q / 100."""
    qh = _q_values("nanpercentile", q, 100)
    qq = float(qh) / 100 if _np.isscalar(q) else _np.true_divide(qh, 100)
    return nanquantile(a, qq, axis, out, overwrite_input, method, keepdims)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """numpy.average: mean, or sum(a * w) / sum(w) along axis (one fused reduction each);
    weights of a's shape, or 1-d along a single axis. ZeroDivisionError when some weights sum
    to zero (checking it reads one value back)."""
    a = _asarray(a)
    if weights is None:
        avg = _vk.mean(a, axis=axis, keepdims=keepdims)
        if returned:
            scl = full(avg.shape, a.size // _builtins.max(avg.size, 1), dtype=avg.dtype,
                       context=a.context)
            return avg, scl
        return avg
    w = _asarray(weights, a.context)
    if a.shape != w.shape:
        if axis is None:
            raise TypeError("[average] Axis must be specified when shapes of a and weights "
                            "differ.")
        if w.ndim != 1:
            raise TypeError("[average] 1D weights expected when shapes of a and weights differ.")
        ax = _axes("average", axis, a.ndim)
        if len(ax) != 1:
            raise TypeError("[average] 1D weights expected when shapes of a and weights differ.")
        if w.shape[0] != a.shape[ax[0]]:
            raise ValueError("[average] Length of weights not compatible with specified axis.")
        shape = [1] * a.ndim
        shape[ax[0]] = w.shape[0]
        w = _vk.broadcast_to(_vk.reshape(w, tuple(shape)), a.shape)
    kinds = _np.dtype(a.dtype).kind
    if kinds in "biu":
        rt = _np.result_type(a.dtype, w.dtype, "f8")
    else:
        rt = _np.result_type(a.dtype, w.dtype)
    scl = _vk.sum(w, axis=axis, dtype=rt, keepdims=keepdims)
    if bool(_vk.any(scl == 0)):
        raise ZeroDivisionError("[average] Weights sum to zero, can't be normalized")
    avg = _vk.sum(_math.multiply(a, w, dtype=rt), axis=axis, keepdims=keepdims) / scl
    if returned:
        if scl.shape != avg.shape:
            scl = _vk.broadcast_to(scl, avg.shape)
        return avg, scl
    return avg


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """numpy.cov without weights: variables in rows (rowvar) or columns."""
    if fweights is not None or aweights is not None:
        raise NotImplementedError("[cov] fweights and aweights are not supported yet")
    m = _asarray(m)
    if m.ndim > 2:
        raise ValueError("[cov] m has more than 2 dimensions")
    t = dtype or _np.result_type(m.dtype, _np.float64)
    x = astype(_vk.reshape(m, (1, -1)) if m.ndim < 2 else m, t)
    if not rowvar and x.shape[0] != 1:
        x = _vk.transpose(x)
    if y is not None:
        y = astype(_asarray(y, m.context), t)
        y = _vk.reshape(y, (1, -1)) if y.ndim < 2 else y
        if not rowvar and y.shape[0] != 1:
            y = _vk.transpose(y)
        x = concatenate([x, y], axis=0)
    ddof = (0 if bias else 1) if ddof is None else ddof
    n = x.shape[1]
    xc = x - _vk.mean(x, axis=1, keepdims=True)
    c = matmul(xc, _math.conj(_vk.transpose(xc)) if xc.dtype.kind == "c" else
               _vk.transpose(xc)) / _builtins.max(n - ddof, 0)
    return _vk.squeeze(c)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """numpy.corrcoef: the covariance normalised by the standard deviations, real parts
    clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = _math.sqrt(_math.real(_vk.diagonal(c)))
    c = c / _vk.reshape(d, (-1, 1)) / _vk.reshape(d, (1, -1))
    if c.dtype.kind == "c":
        return (astype(_math.clip(_math.real(c), -1, 1), c.dtype)
                + 1j * _math.clip(_math.imag(c), -1, 1))
    return _math.clip(c, -1, 1)
