"""Joining, splitting and reordering arrays: numpy's concatenate, stack, split, roll, tile,
repeat, pad, tril/triu, meshgrid, diag, rot90 and the index conversions, built from views,
assignments and fused elementwise expressions.

Kernel counts (inputs already evaluated; a lazy input fuses into the kernel that reads it
where the count says "fused", and is evaluated once first where a view of it is taken):

- views, no kernel: split, array_split, hsplit, vsplit, dsplit, rot90, diag of a 2-d array,
  meshgrid with copy=False.
- one fused, lazy kernel (the result stays lazy and fuses with what uses it): tril, triu,
  diag/diagflat of a 1-d array with k=0, ravel_multi_index, unravel_index (one kernel for all
  of its outputs when they are evaluated together), meshgrid's copies (one each).
- one kernel, run at once: tile, repeat with one count. roll where nothing moves: a lazy copy
  (one kernel when evaluated).
- trace: a pairwise sum of the diagonal view, one fused kernel per halving (ceil(log2 n)).
- one kernel per piece, run at once: concatenate and the stacks (one per non-empty input),
  roll (two per rolled axis, multiplied: 2, 4, ...), repeat with per-element counts (one per
  run of equal counts), diag/diagflat with k != 0 (two), pad (see pad).

Results are new arrays unless the function says it returns views; numpy's errors are raised
with the same exception types, their messages prefixed with the function's name.
"""

import itertools as _itertools
import operator as _operator

import numpy as _np

from . import _vkarray as _vk

__all__ = [
    "concatenate", "concat", "stack", "hstack", "vstack", "dstack", "column_stack", "split",
    "array_split", "hsplit", "vsplit", "dsplit", "roll", "tile", "repeat", "pad", "tril",
    "triu", "meshgrid", "diag", "diagflat", "rot90", "unravel_index", "ravel_multi_index",
    "trace",
]

# numpy's AxisError subclasses both ValueError and IndexError (numpy.exceptions from 1.25).
_AxisError = getattr(_np, "exceptions", _np).AxisError
_INTP = _np.dtype(_np.intp)


# ---------------------------------------------------------------------------------------------
# Helpers


def _context(objs):
    """The context of the first vkarray array among objs (None: the process default)."""
    for obj in objs:
        if isinstance(obj, _vk.ndarray):
            return obj.context
    return None


def _asarray(obj, ctx=None):
    """obj as an ndarray; host data is uploaded to ctx (default: the process context)."""
    if isinstance(obj, _vk.ndarray):
        return obj
    if ctx is None:
        return _vk.asarray(obj)
    return _vk.asarray(obj, context=ctx)


def _asarrays(op, arrays):
    """A sequence of array-likes as ndarrays on the context of the first ndarray among them."""
    if isinstance(arrays, (_vk.ndarray, _np.ndarray)):
        arrays = [arrays[i] for i in range(len(arrays))]
    elif not isinstance(arrays, (list, tuple)):
        try:
            arrays = list(arrays)
        except TypeError:
            raise TypeError(f"[{op}] arrays must be passed as a sequence such as a list or "
                            f"tuple, got {type(arrays).__name__}") from None
    ctx = _context(arrays)
    return [_asarray(a, ctx) for a in arrays]


def _creation_kwargs(ctx):
    return {} if ctx is None else {"context": ctx}


def _normalize_axis(op, axis, ndim):
    """axis as a non-negative int below ndim; numpy's AxisError otherwise."""
    axis = _operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _AxisError(f"[{op}] axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else axis


def _at(axis, index):
    """A key selecting `index` on `axis` and everything on the axes before it."""
    return (slice(None),) * axis + (index,)


def _store(target, value):
    """target[...] = value, where value has target's shape up to axes of extent 1 (which a
    reshape of target drops or adds as a view, so no copy of value is ever taken)."""
    if value.size == 0:
        return
    if target.shape != value.shape:
        target = target.reshape(value.shape)
    if value.dtype != target.dtype:
        value = value.astype(target.dtype)  # numpy's unsafe cast of assignment, fused
    target[...] = value


def _host_ints(op, obj, what):
    """A host copy of integer values (a vkarray array is downloaded)."""
    data = obj.get() if isinstance(obj, _vk.ndarray) else _np.asarray(obj)
    if data.dtype.kind not in "biu" and data.size:
        raise TypeError(f"[{op}] {what} must be integers, got {data.dtype}")
    return data.astype(_INTP)


def _check_cast(op, dtypes, to, casting):
    for dt in dtypes:
        if not _vk.can_cast(dt, to, casting):
            raise TypeError(f"[{op}] Cannot cast array data from dtype('{_np.dtype(dt)}') to "
                            f"dtype('{_np.dtype(to)}') according to the rule '{casting}'")


# ---------------------------------------------------------------------------------------------
# Joining


def _concat(op, xs, shapes, axis, out, dtype, casting):
    """Concatenates xs along axis, xs[i] being seen with shapes[i] (its shape up to axes of
    extent 1): one assignment (kernel) per non-empty input into a new array or `out`."""
    if not xs:
        raise ValueError(f"[{op}] need at least one array to concatenate")
    if out is not None and dtype is not None:
        raise TypeError(f"[{op}] only takes `out` or `dtype` as an argument, but both were "
                        "provided.")
    if axis is None:
        shapes = [(int(_np.prod(s, dtype=_np.int64)),) for s in shapes]
        axis = 0
    ndim = len(shapes[0])
    if ndim == 0:
        raise ValueError(f"[{op}] zero-dimensional arrays cannot be concatenated")
    axis = _normalize_axis(op, axis, ndim)
    first = shapes[0]
    for i, s in enumerate(shapes[1:], 1):
        if len(s) != ndim:
            raise ValueError(
                f"[{op}] all the input arrays must have same number of dimensions, but the "
                f"array at index 0 has {ndim} dimension(s) and the array at index {i} has "
                f"{len(s)} dimension(s)")
        for d in range(ndim):
            if d != axis and s[d] != first[d]:
                raise ValueError(
                    f"[{op}] all the input array dimensions except for the concatenation axis "
                    f"must match exactly, but along dimension {d}, the array at index 0 has "
                    f"size {first[d]} and the array at index {i} has size {s[d]}")
    shape = first[:axis] + (sum(s[axis] for s in shapes),) + first[axis + 1:]
    if out is not None:
        if not isinstance(out, _vk.ndarray):
            raise TypeError(f"[{op}] out must be a vkarray.ndarray, got {type(out).__name__}")
        if tuple(out.shape) != shape:
            raise ValueError(f"[{op}] Output array is the wrong shape: {tuple(out.shape)}, "
                             f"needs {shape}")
        target_dtype = out.dtype
    elif dtype is not None:
        target_dtype = _np.dtype(dtype)
    else:
        target_dtype = _vk.result_type(*xs)
    _check_cast(op, [x.dtype for x in xs], target_dtype, casting)
    if out is None:
        out = _vk.empty(shape, target_dtype, **_creation_kwargs(xs[0].context))
    start = 0
    for x, s in zip(xs, shapes):
        n = s[axis]
        if x.size:
            _store(out[_at(axis, slice(start, start + n))], x)
        start += n
    return out


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    """numpy.concatenate: the arrays joined along an existing axis (axis=None: each flattened
    first). One kernel per non-empty input, run at once; dtype is numpy's result_type of the
    inputs unless dtype= or out= names it, and `casting` rules every input's conversion."""
    xs = _asarrays("concatenate", arrays)
    return _concat("concatenate", xs, [tuple(x.shape) for x in xs], axis, out, dtype, casting)


concat = concatenate  # the array API standard's (and numpy 2's) name


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """numpy.stack: the arrays, all of one shape, joined along a new axis. One kernel per
    non-empty input."""
    xs = _asarrays("stack", arrays)
    if not xs:
        raise ValueError("[stack] need at least one array to stack")
    shape = tuple(xs[0].shape)
    if any(tuple(x.shape) != shape for x in xs):
        raise ValueError("[stack] all input arrays must have the same shape")
    axis = _normalize_axis("stack", axis, len(shape) + 1)
    expanded = shape[:axis] + (1,) + shape[axis:]
    return _concat("stack", xs, [expanded] * len(xs), axis, out, dtype, casting)


def _atleast_2d(shape):
    """shape as numpy's atleast_2d makes it: () -> (1, 1), (n,) -> (1, n)."""
    shape = tuple(shape)
    return (1,) * (2 - len(shape)) + shape if len(shape) < 2 else shape


def _atleast_3d(shape):
    """shape as numpy's atleast_3d makes it: () -> (1, 1, 1), (n,) -> (1, n, 1),
    (m, n) -> (m, n, 1)."""
    shape = tuple(shape)
    return {0: (1, 1, 1), 1: (1,) + shape + (1,), 2: shape + (1,)}.get(len(shape), shape)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """numpy.hstack: 1-d inputs (and scalars) joined end to end, others along axis 1. One
    kernel per non-empty input."""
    xs = _asarrays("hstack", tup)
    shapes = [tuple(x.shape) or (1,) for x in xs]
    axis = 0 if shapes and len(shapes[0]) == 1 else 1
    return _concat("hstack", xs, shapes, axis, None, dtype, casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """numpy.vstack: inputs made at least 2-d ((n,) becomes (1, n)) and joined along axis 0.
    One kernel per non-empty input."""
    xs = _asarrays("vstack", tup)
    shapes = [_atleast_2d(x.shape) for x in xs]
    return _concat("vstack", xs, shapes, 0, None, dtype, casting)


def dstack(tup):
    """numpy.dstack: inputs made at least 3-d ((n,) becomes (1, n, 1), (m, n) becomes
    (m, n, 1)) and joined along axis 2. One kernel per non-empty input."""
    xs = _asarrays("dstack", tup)
    shapes = [_atleast_3d(x.shape) for x in xs]
    return _concat("dstack", xs, shapes, 2, None, None, "same_kind")


def column_stack(tup):
    """numpy.column_stack: 1-d inputs become columns ((n,) as (n, 1)), and everything is
    joined along axis 1. One kernel per non-empty input."""
    xs = _asarrays("column_stack", tup)
    shapes = []
    for x in xs:
        s = tuple(x.shape)
        shapes.append(s if len(s) >= 2 else (s[0], 1) if s else (1, 1))
    return _concat("column_stack", xs, shapes, 1, None, None, "same_kind")


# ---------------------------------------------------------------------------------------------
# Splitting (views)


def array_split(ary, indices_or_sections, axis=0):
    """numpy.array_split: a list of views of ary along axis, no copy and no kernel. An int
    makes that many parts, the first ones one longer where the length does not divide; a
    sequence gives the split points (Python slice rules: negative counts from the end)."""
    x = _asarray(ary)
    axis = _normalize_axis("array_split", axis, x.ndim)
    total = x.shape[axis]
    if isinstance(indices_or_sections, _vk.ndarray):
        indices_or_sections = indices_or_sections.get()
    try:
        points = [_operator.index(i) for i in indices_or_sections]
        bounds = [0] + points + [total]
    except TypeError:
        sections = _operator.index(indices_or_sections)
        if sections <= 0:
            raise ValueError("[array_split] number sections must be larger than 0.") from None
        each, extras = divmod(total, sections)
        sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
        bounds = list(_itertools.accumulate(sizes))
    return [x[_at(axis, slice(lo, hi))] for lo, hi in zip(bounds[:-1], bounds[1:])]


def split(ary, indices_or_sections, axis=0):
    """numpy.split: array_split that requires an int number of sections to divide the axis
    exactly (ValueError otherwise). Views, no kernel."""
    x = _asarray(ary)
    try:
        len(indices_or_sections)
    except TypeError:
        sections = _operator.index(indices_or_sections)
        total = x.shape[_normalize_axis("split", axis, x.ndim)]
        if total % sections:
            raise ValueError("[split] array split does not result in an equal division") \
                from None
    return array_split(x, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """numpy.hsplit: split along axis 1 (axis 0 for 1-d arrays). Views."""
    x = _asarray(ary)
    if x.ndim == 0:
        raise ValueError("[hsplit] hsplit only works on arrays of 1 or more dimensions")
    return split(x, indices_or_sections, 1 if x.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """numpy.vsplit: split along axis 0 of an array of 2 or more dimensions. Views."""
    x = _asarray(ary)
    if x.ndim < 2:
        raise ValueError("[vsplit] vsplit only works on arrays of 2 or more dimensions")
    return split(x, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """numpy.dsplit: split along axis 2 of an array of 3 or more dimensions. Views."""
    x = _asarray(ary)
    if x.ndim < 3:
        raise ValueError("[dsplit] dsplit only works on arrays of 3 or more dimensions")
    return split(x, indices_or_sections, 2)


# ---------------------------------------------------------------------------------------------
# Reordering and repetition


def roll(a, shift, axis=None):
    """numpy.roll: elements shifted along the axes, those leaving one end coming back at the
    other (axis=None: over the flattened array, shape kept). shift and axis may be ints or
    sequences broadcast together; shifts of a repeated axis add up. A new array: two
    assignments (kernels) per rolled axis, 2**k for k axes; a lazy copy when nothing moves."""
    x = _asarray(a)
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
    out = _vk.empty(x.shape, x.dtype, **_creation_kwargs(x.context))
    for combo in _itertools.product(*pieces):
        src, dst = zip(*combo)
        out[dst] = x[src]
    return out


def tile(A, reps):
    """numpy.tile: A repeated reps times along each axis (A or reps extended with leading 1s
    to the same length). One kernel, run at once: the result, seen as (r0, r1, ..., s0, s1,
    ...) through a view, is assigned A broadcast, so a lazy A fuses into it."""
    x = _asarray(A)
    try:
        reps = tuple(_operator.index(r) for r in reps)
    except TypeError:
        reps = (_operator.index(reps),)
    if any(r < 0 for r in reps):
        raise ValueError(f"[tile] reps may not contain negative values, got {reps}")
    d = max(len(reps), x.ndim)
    shape = (1,) * (d - x.ndim) + tuple(x.shape)
    reps = (1,) * (d - len(reps)) + reps
    out = _vk.empty(tuple(s * r for s, r in zip(shape, reps)), x.dtype,
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
            out = _vk.empty((x.size * counts,), x.dtype, **_creation_kwargs(x.context))
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
        out = _vk.empty(tuple(shape), x.dtype, **_creation_kwargs(x.context))
        if out.size:
            _repeat_into(out, x, axis, 0, counts)
        return out
    shape[axis] = int(counts.sum())
    out = _vk.empty(tuple(shape), x.dtype, **_creation_kwargs(x.context))
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
    """numpy.pad for the modes constant (constant_values: a scalar, or (before, after) pairs
    per axis as numpy takes them), edge, reflect, symmetric, wrap and empty (padding left
    undefined). A new array, written by assignments run at once: the input (one kernel); for
    constant with one value, a fill first (one more); otherwise per padded axis and side, one
    for constant and edge, and one per period of the source covered for reflect, symmetric and
    wrap (a middle axis of an array of 3 or more dimensions takes two per write: its source
    interleaves with its destination). With per-axis constant values, corners take the last
    axis's, as numpy's; wide wrap padding repeats the input periodically, as numpy >= 1.25
    does."""
    modes = {"constant": {"constant_values"}, "edge": set(), "reflect": set(),
             "symmetric": set(), "wrap": set(), "empty": set()}
    if not isinstance(mode, str) or mode not in modes:
        raise ValueError(f"[pad] mode {mode!r} is not supported")
    unsupported = set(kwargs) - modes[mode]
    if unsupported:
        raise ValueError(f"[pad] unsupported keyword arguments for mode '{mode}': {unsupported}")
    x = _asarray(array)
    widths = _pad_pairs("pad", pad_width, x.ndim)
    in_shape = tuple(x.shape)
    shape = tuple(lo + n + hi for n, (lo, hi) in zip(in_shape, widths))
    interior = tuple(slice(lo, lo + n) for n, (lo, _) in zip(in_shape, widths))
    kw = _creation_kwargs(x.context)

    if mode not in ("constant", "empty") and x.size == 0:
        for axis, (n, pair) in enumerate(zip(in_shape, widths)):
            if n == 0 and any(pair):
                raise ValueError(f"[pad] can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
        return _vk.empty(shape, x.dtype, **kw)

    values = None
    if mode == "constant":
        cv = kwargs.get("constant_values", 0)
        if isinstance(cv, _vk.ndarray):
            cv = cv.get()
        cv = _np.asarray(cv)
        if cv.size == 1:
            out = _vk.full(shape, cv.reshape(()).astype(x.dtype)[()], x.dtype, **kw)
        else:
            out = _vk.empty(shape, x.dtype, **kw)
            try:
                values = _np.broadcast_to(cv, (x.ndim, 2)).astype(x.dtype)
            except ValueError:
                raise ValueError(f"[pad] constant_values of shape {cv.shape} cannot be "
                                 f"broadcast to ({x.ndim}, 2)") from None
    else:
        out = _vk.empty(shape, x.dtype, **kw)
    if x.size:
        out[interior] = x
    if mode == "empty" or (mode == "constant" and values is None):
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


# ---------------------------------------------------------------------------------------------
# Triangles, diagonals, rotations and grids


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
    bound = _vk.asarray(bound.reshape(rows, 1), context=ctx)
    col = _vk.arange(cols, dtype=_np.int32, context=ctx)
    keep = (col <= bound) if lower else (col >= bound)
    return _vk.where(keep, x, x.dtype.type(0))


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
        return _vk.diagonal(x, k)
    if x.ndim != 1:
        raise ValueError("[diag] Input must be 1- or 2-d.")
    n = x.shape[0]
    zero = x.dtype.type(0)
    if k == 0:
        return _vk.where(_vk.eye(n, dtype=_np.bool_, context=x.context), x, zero)
    size = n + abs(k)
    out = _vk.full((size, size), zero, x.dtype, context=x.context)
    first = k if k > 0 else -k * size  # flat position of the diagonal's first element
    if n:
        out.reshape(-1)[first:first + (n - 1) * (size + 1) + 1:size + 1][...] = x
    return out


def diagflat(v, k=0):
    """numpy.diagflat: diag of v flattened (a view when v is contiguous). Kernels as diag."""
    return diag(_asarray(v).reshape(-1), k)


def _sum_last_axis(x):
    """Sums the last axis pairwise: each step adds the upper half onto the lower half in one
    fused kernel (a gather of the upper half, clipped and masked where the length is odd)."""
    n = x.shape[-1]
    while n > 1:
        h = (n + 1) // 2
        pos = _vk.arange(h, dtype=_np.int64, context=x.context) + h
        upper = _vk.take(x, _vk.minimum(pos, n - 1), axis=-1)
        x = x[..., :h] + _vk.where(pos < n, upper, 0)
        x.eval()
        n = h
    return x[..., 0] if n == 1 else _vk.zeros(x.shape[:-1], dtype=x.dtype, context=x.context)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """numpy.trace: the sum of the diagonal with offset `offset` of axes (axis1, axis2); a 0-d
    array for 2-d input. Integers and bools sum in int64 (unsigned: uint64) unless `dtype` says
    otherwise, as numpy's sum does."""
    a = _asarray(a)
    if a.ndim < 2:
        raise ValueError("[trace] diag requires an array of at least two dimensions")
    d = _vk.diagonal(a, offset, axis1, axis2)
    if dtype is None:
        dt = _np.dtype(a.dtype)
        if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
            dtype = _np.int64
        elif dt.kind == "u" and dt.itemsize < 8:
            dtype = _np.uint64
        else:
            dtype = dt
    result = _sum_last_axis(d.astype(dtype))
    if out is not None:
        _store(out, result)
        return out
    return result


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


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """numpy.meshgrid: coordinate arrays from 1-d coordinate vectors (each input flattened).
    indexing='xy' swaps the first two output axes (Cartesian), 'ij' does not (matrix).
    sparse=True leaves each output with extent 1 on the other axes. copy=False returns views
    (read-only broadcast views when not sparse), as numpy does; copy=True gives lazy copies,
    one kernel each. A tuple, as numpy 2 returns."""
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
        outputs = [_vk.broadcast_to(o, full) for o in outputs]
    if copy:
        outputs = [_vk.copy(o) for o in outputs]
    return tuple(outputs)


# ---------------------------------------------------------------------------------------------
# Flat and multi-dimensional indices


def _index_array(op, obj, ctx, checked=True):
    """An integer index operand as (device int64 array, host copy): host data is checked and
    uploaded; a vkarray array is downloaded for the bound checks when `checked` (host copy
    None otherwise: a lazy one stays lazy)."""
    if isinstance(obj, _vk.ndarray):
        if obj.dtype.kind not in "biu":
            raise TypeError(f"[{op}] only int indices permitted, got {obj.dtype}")
        return obj.astype(_np.int64, copy=False), obj.get() if checked else None
    data = _np.asarray(obj)
    if data.dtype.kind not in "biu" and not (data.size == 0 and data.dtype.kind == "f"):
        raise TypeError(f"[{op}] only int indices permitted, got {data.dtype}")
    data = data.astype(_np.int64)
    return _vk.asarray(data, context=ctx) if ctx is not None else _vk.asarray(data), data


def _dims(op, shape):
    try:
        dims = tuple(_operator.index(d) for d in shape)
    except TypeError:
        dims = (_operator.index(shape),)
    if any(d < 0 for d in dims):
        raise ValueError(f"[{op}] dimensions must be non-negative, got {dims}")
    return dims


def _strides(dims, order):
    if order not in ("C", "F"):
        raise ValueError(f"[{order!r}] only 'C' or 'F' order is permitted")
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
    if order not in ("C", "F"):
        raise ValueError("[unravel_index] only 'C' or 'F' order is permitted")
    dims = _dims("unravel_index", shape)
    idx, host = _index_array("unravel_index", indices, _context([indices]))
    strides, size = _strides(dims, order)
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
        outs.append(_vk.copy(coord) if coord is indices else coord)
    return tuple(outs)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """numpy.ravel_multi_index: a tuple of coordinate arrays (broadcast together) into flat
    indices (int64) of an array of shape dims. mode per axis or for all: 'raise' (ValueError
    for coordinates out of range; vkarray inputs are downloaded for that check), 'wrap'
    (modulo the extent) or 'clip' (to the extent). Lazy, one fused kernel."""
    dims = _dims("ravel_multi_index", dims)
    coords = list(multi_index)
    if len(coords) != len(dims):
        raise ValueError(f"[ravel_multi_index] parameter multi_index must be a sequence of "
                         f"length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims) or any(m not in ("raise", "wrap", "clip") for m in modes):
        raise ValueError(f"[ravel_multi_index] clipmode must be one of 'raise', 'wrap' or "
                         f"'clip' (one or one per axis), got {mode!r}")
    strides, _ = _strides(dims, order)
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
            idx = _vk.clip(idx, 0, d - 1)
        term = idx * stride if stride != 1 else idx
        result = term if result is None else result + term
    if result is None:  # no axes: numpy returns 0
        return _vk.zeros((), _np.int64, **_creation_kwargs(ctx))
    if result.dtype != _np.int64:
        result = result.astype(_np.int64)
    return _vk.copy(result) if any(result is c for c in coords) else result
