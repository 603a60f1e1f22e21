"""numpy.pad's modes that fill each axis from values already in the padded array (maximum,
minimum, mean, median, linear_ramp, reflect/symmetric with reflect_type='odd', a callable),
axis by axis in numpy's order, each fill an assignment run on the device."""

import numpy as _np

from . import _vkarray as _vk
from ._creation import arange, asarray
from ._math import floor, where
from ._shaping import _at
from ._statistics import median

STATISTICS = {"maximum": _vk.max, "minimum": _vk.min, "mean": _vk.mean, "median": median}


def host_pairs(op, name, x, ndim, as_index):
    """numpy's _as_pairs: None, one value, (before, after), or one pair per axis; as_index
    rounds to ints and refuses negative values."""
    if x is None:
        return [(None, None)] * ndim
    if isinstance(x, _vk.ndarray):
        x = x.get()
    x = _np.array(x)
    if as_index:
        x = _np.round(x).astype(_np.intp)
        if x.size and x.min() < 0:
            raise ValueError(f"[{op}] index can't contain negative values ({name} = {x.tolist()})")
    if x.ndim < 3 and x.size == 1:
        x = x.ravel()
        return [(x[0], x[0])] * ndim
    if x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        x = x.ravel()
        return [(x[0], x[1])] * ndim
    try:
        return [tuple(p) for p in _np.broadcast_to(x, (ndim, 2))]
    except ValueError:
        raise ValueError(f"[{op}] {name} of shape {x.shape} cannot be broadcast to "
                         f"({ndim}, 2)") from None


def _roi(out, interior, axis):
    """numpy's _view_roi: the padded array, its later axes cut to the original area."""
    return out[(slice(None),) * (axis + 1) + interior[axis + 1:]]


def _statistic(mode, chunk, axis, dtype):
    value = STATISTICS[mode](chunk, axis=axis, keepdims=True)
    if _np.dtype(dtype).kind in "iu" and value.dtype.kind not in "iu":
        value = _vk.round(value)  # numpy's _round_if_needed: half to even, then the cast
    return value


def fill_statistic(out, interior, widths, mode, stat_length):
    """maximum, minimum, mean, median of the first/last stat_length original elements."""
    lengths = host_pairs("pad", "stat_length", stat_length, out.ndim, True)
    for axis, ((lo, hi), (left, right)) in enumerate(zip(widths, lengths)):
        if not (lo or hi):
            continue
        roi = _roi(out, interior, axis)
        n = roi.shape[axis] - lo - hi
        left = n if left is None or n < left else int(left)
        right = n if right is None or n < right else int(right)
        if (left == 0 or right == 0) and mode in ("maximum", "minimum"):
            raise ValueError(f"[pad] stat_length of 0 yields no value for padding (mode "
                             f"'{mode}', axis {axis})")
        first = _statistic(mode, roi[_at(axis, slice(lo, lo + left))], axis, out.dtype)
        last = first
        if not left == right == n:
            last = _statistic(mode, roi[_at(axis, slice(lo + n - right, lo + n))], axis,
                              out.dtype)
        if lo:
            roi[_at(axis, slice(0, lo))] = first
        if hi:
            roi[_at(axis, slice(lo + n, lo + n + hi))] = last


def _ramp(start, edge, num, axis, dtype):
    """numpy.linspace(start, edge.squeeze(axis), num, endpoint=False, dtype=dtype, axis=axis),
    in numpy's steps: in the dtype of edge * 1.0 (float64 or complex128 for a 1-d array, whose
    edge is a 0-d scalar to numpy), y = arange * step (or arange / num * delta where any step
    is 0), plus start, floored for an integer dtype."""
    wide = _np.complex128 if edge.dtype.kind == "c" else _np.float64
    dt = edge.dtype if edge.dtype.kind in "fc" and edge.ndim > 1 else _np.dtype(wide)
    edge = edge.astype(dt)
    start = asarray(_np.asarray(start).astype(dt), context=edge.context)
    shape = [1] * edge.ndim
    shape[axis] = num
    i = arange(num, dtype=dt, context=edge.context).reshape(shape)
    delta = edge - start
    step = delta / num
    y = where(_vk.any(step == 0), i / num * delta, i * step) + start
    if _np.dtype(dtype).kind in "iu":
        y = floor(y)
    return y.astype(dtype)


def fill_linear_ramp(out, interior, widths, end_values):
    """Ramps from end_values to the edge values, numpy's linspace without its endpoint."""
    ends = host_pairs("pad", "end_values", end_values, out.ndim, False)
    for axis, ((lo, hi), (first, last)) in enumerate(zip(widths, ends)):
        if not (lo or hi):
            continue
        roi = _roi(out, interior, axis)
        n = roi.shape[axis] - lo - hi
        if lo:
            roi[_at(axis, slice(0, lo))] = _ramp(first, roi[_at(axis, slice(lo, lo + 1))], lo,
                                                  axis, out.dtype)
        if hi:
            ramp = _ramp(last, roi[_at(axis, slice(lo + n - 1, lo + n))], hi, axis, out.dtype)
            roi[_at(axis, slice(lo + n, lo + n + hi))] = _vk.flip(ramp, axis)


def _reflect_once(roi, axis, lo, hi, odd, period, include_edge):
    """numpy's _set_reflect_both: one chunk on each side, no longer than the original area
    (an odd reflection is 2 * edge - chunk, its edge the current end of the padded area)."""
    n = roi.shape[axis] - lo - hi
    if include_edge:  # symmetric
        n, offset = n // period * period, 1
    else:  # reflect: the edge itself is not repeated
        n, offset = (n - 1) // (period - 1) * (period - 1), 0
    if lo > 0:
        length = min(n, lo)
        stop = lo - offset
        chunk = roi[_at(axis, slice(stop + length, stop, -1))]
        if odd:
            chunk = 2 * roi[_at(axis, slice(lo, lo + 1))] - chunk
        roi[_at(axis, slice(lo - length, lo))] = chunk
        lo -= length
    if hi > 0:
        length = min(n, hi)
        start = -hi + offset - 2
        chunk = roi[_at(axis, slice(start, start - length, -1))]
        if odd:
            chunk = 2 * roi[_at(axis, slice(-hi - 1, -hi))] - chunk
        size = roi.shape[axis]
        roi[_at(axis, slice(size - hi, size - hi + length))] = chunk
        hi -= length
    return lo, hi


def fill_reflect(out, interior, widths, in_shape, mode, odd):
    """reflect and symmetric as numpy's loop computes them (used for reflect_type='odd')."""
    for axis, (lo, hi) in enumerate(widths):
        if not (lo or hi):
            continue
        roi = _roi(out, interior, axis)
        if in_shape[axis] == 1:  # numpy extends a singleton axis with its edge
            if lo:
                roi[_at(axis, slice(0, lo))] = roi[_at(axis, slice(lo, lo + 1))]
            if hi:
                roi[_at(axis, slice(lo + 1, lo + 1 + hi))] = roi[_at(axis, slice(lo, lo + 1))]
            continue
        while lo > 0 or hi > 0:
            lo, hi = _reflect_once(roi, axis, lo, hi, odd, in_shape[axis], mode == "symmetric")


def fill_callable(out, widths, function, kwargs):
    """numpy's callable mode: function(vector, (before, after), axis, kwargs) on each 1-d
    slice along each axis in turn, writing into the padded array through the view."""
    for axis in range(out.ndim):
        view = _vk.moveaxis(out, axis, -1)
        for index in _np.ndindex(*view.shape[:-1]):
            function(view[index + (Ellipsis,)], widths[axis], axis, kwargs)
