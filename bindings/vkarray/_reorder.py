"""Rearranging and repeating: numpy's roll, rot90, tile, repeat and pad (kernel counts:
_joining.py's docstring and each function's)."""

import itertools as _itertools
import operator as _operator

import numpy as _np

from . import _pad_modes, _vkarray as _vk
from ._creation import empty, full
from ._shaping import _asarray, _creation_kwargs, _normalize_axis, _nonnegative_ints, _at, _INTP

__all__ = [
    "roll", "rot90", "tile", "repeat", "pad",
]


def roll(a, shift, axis=None):
    """numpy.roll: elements shifted along the axes, those leaving one end coming back at the
    other (axis=None: over the flattened array, shape kept). shift and axis may be ints or
    sequences broadcast together; shifts of a repeated axis add up. A lazy gather (x indexed by
    small host index arrays), so rolls fuse with what uses them: ``roll(x, 1) + roll(x, -1)``
    is one kernel once x is computed. Where a gather cannot serve (an array larger than a
    device's maxStorageBufferRange, which a gather binds whole; rolled axes more than two
    apart; axis=None on more than one dimension, whose reshape computes the result), two
    assignments (kernels) per rolled axis. A lazy copy when nothing moves."""
    x = _asarray(a)
    if axis is None and x.ndim == 1:
        axis = 0  # no reshapes: a view of the lazy result would compute it
    if axis is None:
        flat = x.reshape(-1)
        return roll(flat, shift, 0).reshape(x.shape)
    if isinstance(shift, _vk.ndarray):
        shift = shift.get()
    axes = _np.atleast_1d(_np.asarray(axis))
    if axes.ndim > 1 or axes.dtype.kind not in "iu":
        raise TypeError("[roll] axis must be an int or a sequence of ints")
    try:
        pairs = _np.broadcast(_np.asarray(shift), axes)
    except ValueError as e:
        raise ValueError(f"[roll] {e}") from None
    if pairs.nd > 1:
        raise ValueError("[roll] 'shift' and 'axis' should be scalars or 1D sequences")
    offsets = [0] * x.ndim
    for sh, ax in pairs:
        offsets[_normalize_axis("roll", int(ax), x.ndim)] += _operator.index(sh)
    pieces = []  # per axis: the (source, destination) slice pairs
    for ax, off in enumerate(offsets):
        n = x.shape[ax]
        off %= n or 1
        pieces.append([(slice(0, n - off), slice(off, n)), (slice(n - off, n), slice(0, off))]
                      if off else [(slice(None), slice(None))])
    if all(len(p) == 1 for p in pieces):
        return _vk.copy(x)
    if x.size and _gather_fits(x):
        out = _roll_gather(x, offsets)
        if out is not None:
            return out
    out = empty(x.shape, x.dtype, **_creation_kwargs(x.context))
    for combo in _itertools.product(*pieces):
        src, dst = zip(*combo)
        out[dst] = x[src]
    return out


def _gather_fits(x):
    """Whether every device of x's context can bind x whole (what a gather reads from)."""
    return x.nbytes <= min(d["max_storage_buffer_range"] for d in x.context.devices)


def _roll_gather(x, offsets):
    """roll as one gather, or None where it cannot be one: x indexed by host index arrays
    ``(arange(n) - offset) mod n``, one per axis from the first rolled axis to the last (at most
    two, broadcast as an open mesh so the axes stay in place; slices elsewhere). Not three: a
    gather with three index arrays of a 3-d array needs more push-constant bytes than some
    devices have (136 > 128 on lavapipe)."""
    moved = [ax for ax, off in enumerate(offsets) if off % x.shape[ax]]
    lo, hi = moved[0], moved[-1]
    if hi - lo >= 2:
        return None
    key = [slice(None)] * x.ndim
    for ax in range(lo, hi + 1):
        n = x.shape[ax]
        index = (_np.arange(n, dtype=_np.int64) - offsets[ax]) % n
        key[ax] = index.astype(_np.int32 if n < 2**31 else _np.int64).reshape(
            (n,) + (1,) * (hi - ax))
    return x[tuple(key)]


def tile(A, reps):
    """numpy.tile: A repeated reps times along each axis (A or reps extended with leading 1s
    to the same length). One kernel, run at once: the result, seen as (r0, r1, ..., s0, s1,
    ...) through a view, is assigned A broadcast, so a lazy A fuses into it."""
    x = _asarray(A)
    reps = _nonnegative_ints("tile", reps, "reps")
    d = max(len(reps), x.ndim)
    shape = (1,) * (d - x.ndim) + tuple(x.shape)
    reps = (1,) * (d - len(reps)) + reps
    out = empty(tuple(s * r for s, r in zip(shape, reps)), x.dtype,
                    **_creation_kwargs(x.context))
    if out.size:
        split_shape = tuple(v for pair in zip(reps, shape) for v in pair)  # r0, s0, r1, s1, ...
        order = list(range(0, 2 * d, 2)) + list(range(1, 2 * d, 2))
        out.reshape(split_shape).transpose(order)[...] = x
    return out


def _repeat_counts(op, repeats, n):
    """repeats as one int (an int) or n ints (an array), checked as numpy checks them."""
    if isinstance(repeats, _vk.ndarray):
        repeats = repeats.get()
    r = _np.asarray(repeats)
    if not _np.can_cast(r.dtype, _INTP, "safe"):
        raise TypeError(f"[{op}] Cannot cast array data from dtype('{r.dtype}') to "
                        "dtype('int64') according to the rule 'safe'")
    if r.ndim > 1:
        raise ValueError(f"[{op}] repeats must be an int or a 1-d sequence, got shape {r.shape}")
    r = r.astype(_INTP)
    if r.size == 1:
        count = int(r.reshape(()))
        if count < 0:
            raise ValueError(f"[{op}] negative dimensions are not allowed")
        return count
    if r.shape[0] != n:
        raise ValueError(f"[{op}] operands could not be broadcast together with shape ({n},) "
                         f"({r.shape[0]},)")
    if (r < 0).any():
        raise ValueError(f"[{op}] repeats may not contain negative values.")
    return r


def _repeat_into(out, x, axis, start, count):
    """Writes x repeated `count` times along axis into out from `start` on: out's section,
    seen as (count, ..., n, ...) through a view, is assigned x broadcast (one kernel)."""
    n = x.shape[axis]
    section = out[_at(axis, slice(start, start + n * count))]
    shape = tuple(x.shape)
    section = section.reshape(shape[:axis + 1] + (count,) + shape[axis + 1:])
    section = _vk.moveaxis(section, axis + 1, 0)
    if x.dtype != out.dtype:
        x = x.astype(out.dtype)
    section[...] = x


def repeat(a, repeats, axis=None):
    """numpy.repeat: each element repeated along axis (axis=None: over the flattened array).
    repeats is an int (one kernel, run at once; a lazy input fuses into it) or host ints, one
    per element (a Python sequence, a numpy array, or a vkarray array, which is downloaded):
    one kernel per run of equal counts."""
    x = _asarray(a)
    if axis is None:
        counts = _repeat_counts("repeat", repeats, x.size)
        if isinstance(counts, int):
            # The result seen as (count,) + x.shape takes x broadcast, with no flat copy of x.
            out = empty((x.size * counts,), x.dtype, **_creation_kwargs(x.context))
            if out.size:
                view = _vk.moveaxis(out.reshape(tuple(x.shape) + (counts,)), -1, 0)
                view[...] = x
            return out
        x, axis = x.reshape(-1), 0
    else:
        if x.ndim == 0:  # numpy takes a 0-d array as 1-d here
            x = x.reshape(1)
        axis = _normalize_axis("repeat", axis, x.ndim)
        counts = _repeat_counts("repeat", repeats, x.shape[axis])
    shape = list(x.shape)
    n = shape[axis]
    if isinstance(counts, int):
        shape[axis] = n * counts
        out = empty(tuple(shape), x.dtype, **_creation_kwargs(x.context))
        if out.size:
            _repeat_into(out, x, axis, 0, counts)
        return out
    shape[axis] = int(counts.sum())
    out = empty(tuple(shape), x.dtype, **_creation_kwargs(x.context))
    if out.size:
        # One assignment per run of equal counts; split points where the count changes.
        change = _np.flatnonzero(counts[1:] != counts[:-1]) + 1
        bounds = [0] + change.tolist() + [n]
        start = 0
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            c = int(counts[lo])
            if c:
                _repeat_into(out, x[_at(axis, slice(lo, hi))], axis, start, c)
            start += (hi - lo) * c
    return out


# ---------------------------------------------------------------------------------------------
# Padding


def _pad_pairs(op, pad_width, ndim):
    """numpy's normalization of pad_width: an int, (before, after), or one pair per axis."""
    widths = _np.asarray(pad_width)
    if widths.dtype.kind not in "iu":
        raise TypeError(f"[{op}] `pad_width` must be of integral type.")
    if widths.ndim < 3 and widths.size == 1:
        widths = widths.reshape(1).repeat(2)
    elif widths.ndim < 3 and widths.size == 2 and widths.shape != (2, 1):
        widths = widths.reshape(2)
    if widths.size and widths.min() < 0:
        raise ValueError(f"[{op}] index can't contain negative values")
    try:
        return [tuple(int(w) for w in pair) for pair in _np.broadcast_to(widths, (ndim, 2))]
    except ValueError:
        raise ValueError(f"[{op}] pad_width of shape {widths.shape} cannot be broadcast to "
                         f"({ndim}, 2)") from None


def _periodic_runs(mode, n, first, count):
    """Covers the extended indices first .. first+count-1 of an axis of length n with runs
    (offset from first, source start, length, reversed): slices of the original that the
    mode's periodic extension copies, forward or reversed."""
    runs = []
    j, end = first, first + count
    while j < end:
        if mode == "wrap":  # period n: x0 .. xn-1
            m = j % n
            lo, length, rev = m, n - m, False
        elif mode == "symmetric":  # period 2n: x0 .. xn-1 xn-1 .. x0
            m = j % (2 * n)
            if m < n:
                lo, length, rev = m, n - m, False
            else:
                top, length, rev = 2 * n - 1 - m, 2 * n - m, True
        else:  # reflect, period 2(n-1): x0 .. xn-1 xn-2 .. x1
            p = 2 * (n - 1)
            m = j % p
            if m < n - 1:
                lo, length, rev = m, n - 1 - m, False
            else:
                top, length, rev = p - m, p - m, True
        length = min(length, end - j)
        if rev:  # a reversed run walks down from the source element `top`
            lo = top - length + 1
        runs.append((j - first, lo, length, rev))
        j += length
    return runs


def pad(array, pad_width, mode="constant", **kwargs):
    """numpy.pad for every mode: constant (constant_values: a scalar, or (before, after) pairs
    per axis as numpy takes them), edge, reflect, symmetric, wrap, empty (padding left
    undefined), and maximum, minimum, mean, median (stat_length=), linear_ramp (end_values=),
    reflect_type='odd' and a callable, which _pad_modes fills axis by axis as numpy >= 1.25
    does. A new array, written by assignments run at once: the input (one kernel); for
    constant with one value, a fill first (one more); otherwise per padded axis and side, one
    for constant and edge, and one per period of the source covered for reflect, symmetric and
    wrap (a middle axis of an array of 3 or more dimensions takes two per write: its source
    interleaves with its destination). With per-axis constant values, corners take the last
    axis's, as numpy's; wide wrap padding repeats the input periodically, as numpy >= 1.25
    does."""
    stat = {"stat_length"}
    modes = {"constant": {"constant_values"}, "edge": set(), "reflect": {"reflect_type"},
             "symmetric": {"reflect_type"}, "wrap": set(), "empty": set(), "maximum": stat,
             "minimum": stat, "mean": stat, "median": stat, "linear_ramp": {"end_values"}}
    x = _asarray(array)
    widths = _pad_pairs("pad", pad_width, x.ndim)
    in_shape = tuple(x.shape)
    shape = tuple(lo + n + hi for n, (lo, hi) in zip(in_shape, widths))
    interior = tuple(slice(lo, lo + n) for n, (lo, _) in zip(in_shape, widths))
    kw = _creation_kwargs(x.context)
    if callable(mode):
        out = full(shape, 0, x.dtype, **kw)
        if x.size:
            out[interior] = x
        _pad_modes.fill_callable(out, widths, mode, kwargs)
        return out
    if not isinstance(mode, str) or mode not in modes:
        raise ValueError(f"[pad] mode {mode!r} is not supported")
    unsupported = set(kwargs) - modes[mode]
    if unsupported:
        raise ValueError(f"[pad] unsupported keyword arguments for mode '{mode}': {unsupported}")
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"[pad] reflect_type must be 'even' or 'odd', got {reflect_type!r}")

    if mode not in ("constant", "empty") and x.size == 0:
        for axis, (n, pair) in enumerate(zip(in_shape, widths)):
            if n == 0 and any(pair):
                raise ValueError(f"[pad] can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
        return empty(shape, x.dtype, **kw)

    values = None
    if mode == "constant":
        cv = kwargs.get("constant_values", 0)
        if isinstance(cv, _vk.ndarray):
            cv = cv.get()
        cv = _np.asarray(cv)
        if cv.size == 1:
            out = full(shape, cv.reshape(()).astype(x.dtype)[()], x.dtype, **kw)
        else:
            out = empty(shape, x.dtype, **kw)
            try:
                values = _np.broadcast_to(cv, (x.ndim, 2)).astype(x.dtype)
            except ValueError:
                raise ValueError(f"[pad] constant_values of shape {cv.shape} cannot be "
                                 f"broadcast to ({x.ndim}, 2)") from None
    else:
        out = empty(shape, x.dtype, **kw)
    if x.size:
        out[interior] = x
    if mode == "empty" or (mode == "constant" and values is None):
        return out
    if mode in _pad_modes.STATISTICS:
        _pad_modes.fill_statistic(out, interior, widths, mode, kwargs.get("stat_length"))
        return out
    if mode == "linear_ramp":
        _pad_modes.fill_linear_ramp(out, interior, widths, kwargs.get("end_values", 0))
        return out
    if reflect_type == "odd":
        _pad_modes.fill_reflect(out, interior, widths, in_shape, mode, True)
        return out

    if mode == "constant":
        # numpy's order: each axis over the earlier axes' padding, so corners take the values
        # of the last axis padded there.
        for axis, (n, (lo, hi)) in enumerate(zip(in_shape, widths)):
            roi = out[(slice(None),) * (axis + 1) + interior[axis + 1:]]
            if lo:
                roi[_at(axis, slice(0, lo))] = values[axis][0]
            if hi:
                roi[_at(axis, slice(lo + n, lo + n + hi))] = values[axis][1]
        return out

    # The other modes copy, per axis, x at an index chosen from the output index on that axis
    # alone, so the axes may be padded in any order. Last axis first: while no later axis is
    # padded, the source is x itself, another buffer; later, whole blocks of the output along
    # the leading axis. Both keep source and destination apart in memory, so each write is one
    # kernel (an interleaved source and destination in one buffer would be staged: two).
    later_padded = False
    for axis in reversed(range(x.ndim)):
        n, (lo, hi) = in_shape[axis], widths[axis]
        if not (lo or hi):
            continue
        # The region of interest: the input's extent on earlier axes, padded on later ones.
        roi = out[interior[:axis]]

        def source(start, stop):  # elements start..stop-1 of x along axis, as read here
            if later_padded:
                return roi[_at(axis, slice(lo + start, lo + stop))]
            return x[_at(axis, slice(start, stop))]

        if mode == "edge" or (mode == "reflect" and n == 1):
            if lo:
                roi[_at(axis, slice(0, lo))] = source(0, 1)
            if hi:
                roi[_at(axis, slice(lo + n, lo + n + hi))] = source(n - 1, n)
        else:
            for first, count in ((-lo, lo), (n, hi)):
                for offset, src, length, rev in _periodic_runs(mode, n, first, count):
                    block = source(src, src + length)
                    if rev:
                        block = _vk.flip(block, axis)
                    dst = lo + first + offset
                    roi[_at(axis, slice(dst, dst + length))] = block
        later_padded = True
    return out


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
