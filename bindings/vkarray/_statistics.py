"""Order statistics and weighted means built on the device's sort and reductions: median,
quantile, percentile (numpy's default 'linear' method) and average."""

import numpy as _np

from . import _vkarray as _vk
from ._shaping import _asarray, _normalize_axis

__all__ = ["median", "quantile", "percentile", "average", "nanmedian"]


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
    return _vk.sort(flat, axis=-1), kept_shape, axes, n


def _keep(result, axes, keepdims, lead=0):
    """The reduced axes back as extent-1 axes (keepdims), after `lead` leading axes of q."""
    if not keepdims:
        return result
    for d in axes:
        result = _vk.expand_dims(result, lead + d)
    return result


def _quantile_result(r, qh, kept_shape, axes, keepdims, out):
    """Quantiles computed as (kept..., q) in numpy's layout (q..., kept...), with keepdims'
    axes, written into `out` when given."""
    r = _vk.moveaxis(r, -1, 0) if r.ndim > 1 else r
    r = _vk.reshape(r, qh.shape + kept_shape)
    r = _keep(r, axes, keepdims, lead=qh.ndim)
    if out is not None:
        out[...] = r
        return out
    return r


def _float_of(a):
    dt = _np.dtype(a.dtype)
    return dt if dt.kind in "fc" else _np.dtype(_np.float64)


def _lerp(lo, hi, t):
    """numpy's _lerp: a + (b - a) * t, and b - (b - a) * (1 - t) where t >= 0.5."""
    diff = hi - lo
    return _vk.where(t >= 0.5, hi - diff * (1 - t), lo + diff * t)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False):
    """numpy.quantile with the 'linear' method: the sorted values at virtual index q*(n-1),
    interpolated as numpy interpolates; a slice holding NaN gives NaN. q: a scalar or an array
    of values in [0, 1] (its axes come first in the result). The result dtype follows numpy 2:
    a float input keeps its dtype for a scalar q, an array q promotes it."""
    if method != "linear":
        raise NotImplementedError(f"[quantile] method={method!r} is not supported yet "
                                  "(method='linear' only)")
    a = _asarray(a)
    qh = _np.asarray(q.get() if isinstance(q, _vk.ndarray) else q, dtype=_np.float64)
    if qh.size and (qh.min() < 0 or qh.max() > 1 or _np.isnan(qh).any()):
        raise ValueError("[quantile] Quantiles must be in the range [0, 1]")
    s, kept_shape, axes, n = _sorted_last("quantile", a, axis)
    ft = _float_of(a)
    if not _np.isscalar(q):  # numpy 2: an array of q promotes; a Python float does not
        ft = _np.result_type(ft, qh.dtype)
    s = s.astype(ft)
    virtual = qh * (n - 1)
    lo_i = _np.floor(virtual).astype(_np.int64)
    hi_i = _np.minimum(lo_i + 1, n - 1)
    t = (virtual - lo_i).astype(ft if ft.kind == "f" else _np.float64)
    lo = _vk.take(s, _vk.asarray(lo_i.reshape(-1), context=a.context), axis=-1)
    hi = _vk.take(s, _vk.asarray(hi_i.reshape(-1), context=a.context), axis=-1)
    tv = _vk.asarray(t.reshape(-1), context=a.context)
    r = _lerp(lo, hi, tv).astype(ft)
    has_nan = _vk.isnan(s[..., n - 1:n])  # NaN sorts last
    r = _vk.where(has_nan, _np.nan, r).astype(ft) if ft.kind in "fc" else r
    return _quantile_result(r, qh, kept_shape, axes, keepdims, out)


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
        r = _vk.where(_vk.isnan(s[..., n - 1]), _np.nan, r).astype(ft)
    r = _vk.reshape(r, kept_shape)
    r = _keep(r, axes, keepdims)
    if out is not None:
        out[...] = r
        return out
    return r


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.nanmedian for inputs without NaN is median; slices holding NaN are not supported
    yet (NotImplementedError: a device check reads one value back)."""
    a = _asarray(a)
    if _np.dtype(a.dtype).kind in "fc" and bool(_vk.any(_vk.isnan(a))):
        raise NotImplementedError("[nanmedian] slices holding NaN are not supported yet")
    return median(a, axis, out, overwrite_input, keepdims)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """numpy.average: mean, or sum(a * w) / sum(w) along axis (one fused reduction each);
    weights of a's shape, or 1-d along a single axis. ZeroDivisionError when some weights sum
    to zero (checking it reads one value back)."""
    a = _asarray(a)
    if weights is None:
        avg = _vk.mean(a, axis=axis, keepdims=keepdims)
        if returned:
            scl = _vk.full(avg.shape, a.size // max(avg.size, 1), dtype=avg.dtype,
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
    avg = _vk.sum(_vk.multiply(a, w, dtype=rt), axis=axis, keepdims=keepdims) / scl
    if returned:
        if scl.shape != avg.shape:
            scl = _vk.broadcast_to(scl, avg.shape)
        return avg, scl
    return avg
