"""numpy's nanquantile and nanpercentile (method 'linear'): NaN sorts last, so each slice's
valid values are its first `count` sorted ones; the virtual index q*(count-1) is per slice and
the two neighbours are gathered with take_along_axis. An all-NaN slice gives NaN."""

import numpy as _np

from ._namespace import vk as _vk
from ._shaping import _asarray
from ._statistics import _float_of, _lerp, _quantile_result, _sorted_last

__all__ = ["nanquantile", "nanpercentile"]


def _q_values(op, q, top):
    qh = _np.asarray(q.get() if isinstance(q, _vk.ndarray) else q, dtype=_np.float64)
    if qh.size and (qh.min() < 0 or qh.max() > top or _np.isnan(qh).any()):
        name = "Quantiles" if top == 1 else "Percentiles"
        raise ValueError(f"[{op}] {name} must be in the range [0, {top}]")
    return qh


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False):
    """numpy.nanquantile with the 'linear' method: quantile of each slice's non-NaN values."""
    if method != "linear":
        raise NotImplementedError(f"[nanquantile] method={method!r} is not supported yet "
                                  "(method='linear' only)")
    a = _asarray(a)
    qh = _q_values("nanquantile", q, 1)
    if a.dtype.kind not in "fc":
        return _vk.quantile(a, q, axis=axis, out=out, keepdims=keepdims)
    s, kept_shape, axes, n = _sorted_last("nanquantile", a, axis)
    ft = _float_of(a)
    if not _np.isscalar(q):
        ft = _np.result_type(ft, qh.dtype)
    s = s.astype(ft)
    count = _vk.sum(~_vk.isnan(s), axis=-1, keepdims=True)  # kept + (1,)
    qs = _vk.asarray(qh.reshape(-1), context=a.context)  # (nq,)
    virtual = qs * _vk.astype(_vk.maximum(count - 1, 0), _np.float64)  # kept + (nq,)
    lo_i = _vk.astype(_vk.floor(virtual), _np.int64)
    hi_i = _vk.minimum(lo_i + 1, _vk.maximum(count - 1, 0))
    t = _vk.astype(virtual - _vk.astype(lo_i, _np.float64),
                   ft if _np.dtype(ft).kind == "f" else _np.float64)
    lo = _vk.take_along_axis(s, lo_i, axis=-1)
    hi = _vk.take_along_axis(s, hi_i, axis=-1)
    r = _vk.astype(_lerp(lo, hi, t), ft)
    r = _vk.astype(_vk.where(count == 0, _np.nan, r), ft)
    return _quantile_result(r, qh, kept_shape, axes, keepdims, out)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False):
    """numpy.nanpercentile: nanquantile of q / 100."""
    qh = _q_values("nanpercentile", q, 100)
    qq = float(qh) / 100 if _np.isscalar(q) else _np.true_divide(qh, 100)
    return nanquantile(a, qq, axis, out, overwrite_input, method, keepdims)
