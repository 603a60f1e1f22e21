"""The ufunc methods reduce, accumulate and reduceat on the device (at is in _ufunc_at.py),
with numpy's dtypes, errors and order of application. Where a vkarray reduction or scan
computes the method exactly (add.reduce is sum, maximum.accumulate is cummax, ...) it is used;
otherwise:

- reorderable ufuncs (numpy may regroup them) reduce by pairwise halving (one kernel per
  level) and scan by doubling (Hillis-Steele: ceil(log2 n) kernels); reduceat gathers segments
  of similar lengths into one padded block and reduces its rows, and otherwise gathers their
  rows and runs the doubling scan segment by segment (at uses it too);
- the others fold in numpy's order: reduce 16 steps per fused kernel, accumulate one kernel per
  position along the axis, reduceat one gathered step per position of its longest segment.

Only scalars come back to the host (counts and lengths that size the work)."""

import operator as _operator

import numpy as _np

from . import _vkarray as _core
from ._creation import arange, asarray
from ._shaping import _AxisError

NO_VALUE = getattr(_np, "_NoValue", object())  # numpy's "not given" (initial=None differs)
_FOLD = 16  # sequential steps fused into one kernel
_KERNELS = {row["name"]: row["kernel"] for row in _core._elementwise}
_where = _KERNELS["where"]
# Reductions and scans vkarray computes directly, by ufunc.
_REDUCE = {"add": _core.sum, "multiply": _core.prod, "maximum": _core.max,
           "minimum": _core.min, "fmax": _core.nanmax, "fmin": _core.nanmin,
           "logical_and": _core.all, "logical_or": _core.any}
_SCAN = {"add": _core._cumsum, "multiply": _core._cumprod, "maximum": _core.cummax,
         "minimum": _core.cummin, "logical_and": _core.cummin, "logical_or": _core.cummax}
# numpy's reductions of add and multiply widen bool and small integers to 64 bits.
_WIDENING = {"add", "multiply"}
# Truth-value ufuncs: reducing the inputs' truth values gives the same result.
_LOGICAL = {"logical_and", "logical_or", "logical_xor"}


def _take(x, indices, axis=None):
    """take for indices computed in range: mode='clip' skips the bounds check (a kernel and a
    readback each)."""
    return _core.take(x, indices, axis=axis, mode="clip")


def _binary_only(uf, method):
    if uf.nin != 2:
        raise ValueError(f"[{uf.__name__}.{method}] {method} only supported for binary "
                         f"functions")
    if uf.nout != 1:
        raise ValueError(f"[{uf.__name__}.{method}] {method} only supported for functions "
                         f"returning a single value")


def _loop_dtype(uf, method, dtype, given, out=None):
    """The dtype numpy reduces `dtype` input in: dtype= when given; else out's when the ufunc
    has that loop and the input casts to it safely; else the input's (add and multiply widen
    bool and small integers). The ufunc must map it to itself, or (without dtype=) safely to a
    dtype it does map to itself (divide: int64 → float64)."""
    name = uf.__name__
    if given is None and out is not None:
        o = out[0] if isinstance(out, tuple) and len(out) == 1 else out
        if isinstance(o, _core.ndarray) and _core.can_cast(dtype, o.dtype, "safe") \
                and _probe(uf, o.dtype) == o.dtype:
            return _np.dtype(o.dtype)
    t = _np.dtype(given) if given is not None else _np.dtype(dtype)
    if given is None and name in _WIDENING and t.kind in "biu" and t.itemsize < 8:
        t = _np.dtype(_np.uint64 if t.kind == "u" else _np.int64)
    r = _probe(uf, t)
    if r == t:
        return t
    if given is None and r is not None and (_core.can_cast(t, r, "safe") or name in _LOGICAL) \
            and _probe(uf, r) == r:
        return r
    raise TypeError(f"[{name}.{method}] No loop matching the specified signature and casting "
                    f"was found for ufunc {name}")


def _probe(uf, t):
    """The result dtype of uf on two t operands (lazy, empty: nothing runs)."""
    try:
        z = _core._zeros((0,), t)
        return _np.dtype(uf._kernel(z, z).dtype)
    except (TypeError, ValueError, NotImplementedError):
        return None


def _as_input(array):
    return array if isinstance(array, _core.ndarray) else asarray(array)


def _cast(x, t):
    return x if x.dtype == t else x.astype(t)


def _scalar(value, t, ctx):
    """initial= or the identity as a 0-d array of t (numpy casts it unsafely)."""
    return _core._full((), _np.asarray(value).astype(t)[()], t, context=ctx)


def _axes(uf, x, axis):
    """axis= as a tuple of non-negative axes (numpy's errors for duplicates and bounds)."""
    if axis is None:
        return tuple(range(x.ndim))
    seq = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in seq:
        a = _operator.index(a)
        if x.ndim == 0 and a in (0, -1):
            continue  # numpy reduces a 0-d array along axis 0
        if not -x.ndim <= a < x.ndim:
            raise _AxisError(f"[{uf.__name__}.reduce] axis {a} is out of bounds for array of "
                             f"dimension {x.ndim}")
        out.append(a % x.ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"[{uf.__name__}.reduce] duplicate value in 'axis'")
    return tuple(out)


def _finish(uf, method, r, out):
    """out= of the methods: numpy's reductions cast unsafely and take out of the exact shape."""
    return _core._finish(r, out, op=f"{uf.__name__}.{method}", casting="unsafe",
                         exact_shape=True)


def reduce(uf, array, axis, dtype, out, keepdims, initial, where):
    """ufunc.reduce (vkarray.ufunc.reduce's docstring)."""
    _binary_only(uf, "reduce")
    name = uf.__name__
    x = _as_input(array)
    axes = _axes(uf, x, axis)
    if len(axes) > 1 and not uf._reorderable:
        raise ValueError(f"[{name}.reduce] reduction operation '{name}' is not reorderable, "
                         f"so at most one axis may be specified")
    t = _loop_dtype(uf, "reduce", x.dtype, dtype, out)
    identity = None if initial is None else uf.identity
    start = None if initial is NO_VALUE or initial is None else initial
    masked = where is not True
    if start is None and identity is None:
        if masked:
            raise ValueError(f"[{name}.reduce] reduction operation '{name}' does not have an "
                             f"identity, so to use a where mask one has to specify 'initial'")
        if any(x.shape[a] == 0 for a in axes):
            raise ValueError(f"[{name}.reduce] zero-size array to reduction operation {name} "
                             f"which has no identity")
    kept = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    shape = kept if keepdims else tuple(n for i, n in enumerate(x.shape) if i not in axes)
    xt = _cast(x, t)
    if not axes:  # each element reduced alone: op(initial, x), the base where masked out
        r = xt if start is None else _cast(uf._kernel(_scalar(start, t, x.context), xt), t)
        if masked:
            base = _scalar(start if start is not None else identity, t, x.context)
            r = _where(asarray(where, context=x.context), r, base)
        return _finish(uf, "reduce", _cast(r, t).reshape(shape), out)
    direct = _REDUCE.get(name)
    if direct is not None:
        r = _reduce_direct(uf, direct, xt, axes, t, start, where, masked)
    elif uf._reorderable and (identity is not None or not masked):
        if masked:  # masked-out elements become the identity
            xt = _where(asarray(where, context=x.context), xt, _scalar(identity, t, x.context))
        r = _tree(uf, xt, axes, t, start, identity)
    else:
        r = _fold(uf, xt, axes[0], t, start, where if masked else None)
    return _finish(uf, "reduce", _cast(r, t).reshape(shape), out)


def _reduce_direct(uf, fn, xt, axes, t, start, where, masked):
    kwargs = {} if not masked else {"where": where}
    if uf.__name__ in _LOGICAL:
        r = fn(xt, axis=axes, **kwargs)
        return r if start is None else uf._kernel(_scalar(start, t, xt.context), r)
    if start is not None:
        kwargs["initial"] = _np.asarray(start).astype(t)[()].item()
    if uf.__name__ in ("add", "multiply"):  # xt is in t already: only sums widen without it
        kwargs["dtype"] = t
    return fn(xt, axis=axes, **kwargs)


def _last_axis(x, axes):
    """x with `axes` moved last and merged into one: (rest..., K)."""
    rest = [i for i in range(x.ndim) if i not in axes]
    x = _core.transpose(x, tuple(rest) + tuple(axes))
    return x.reshape(tuple(x.shape[:len(rest)]) + (-1,))


def _tree(uf, xt, axes, t, start, identity):
    """A reorderable reduction by pairwise halving along the merged axes, then op(start, r)."""
    x = _last_axis(xt, axes)
    k = x.shape[-1]
    if k == 0:
        empty = start if start is not None else identity
        return _core._full(x.shape[:-1], _np.asarray(empty).astype(t)[()], t,
                           context=x.context)
    while k > 1:
        h = k // 2
        r = uf._kernel(x[..., :h], x[..., h:2 * h])
        if k % 2:  # the odd element joins the first pair
            first = arange(h, context=x.context) == 0  # broadcasts along the last axis
            r = _where(first, uf._kernel(r, x[..., 2 * h:]), r)
        x, k = _cast(r, t), h
        _core.eval(x)
    r = x[..., 0]
    return r if start is None else uf._kernel(_scalar(start, t, r.context), r)


def _fold(uf, xt, axis, t, start, where):
    """op folded along one axis in numpy's order, _FOLD steps per kernel."""
    x = _core.moveaxis(xt, axis, 0)
    mask = None if where is None else _core.moveaxis(
        _core.broadcast_to(asarray(where, context=x.context), xt.shape), axis, 0)
    if start is not None:
        r, first = _core.broadcast_to(_scalar(start, t, x.context), x.shape[1:]), 0
    else:
        r, first = x[0], 1
    for i in range(first, x.shape[0]):
        step = _cast(uf._kernel(r, x[i]), t)
        r = step if mask is None else _where(mask[i], step, r)
        if (i - first) % _FOLD == _FOLD - 1:
            _core.eval(r)
    return r


def accumulate(uf, array, axis, dtype, out):
    """ufunc.accumulate (vkarray.ufunc.accumulate's docstring)."""
    _binary_only(uf, "accumulate")
    name = uf.__name__
    x = _as_input(array)
    if x.ndim == 0:
        raise TypeError(f"[{name}.accumulate] cannot accumulate on a scalar")
    if axis is None or isinstance(axis, (tuple, list)):
        if (axis is None and x.ndim != 1) or (axis is not None and len(axis) != 1):
            raise ValueError(f"[{name}.accumulate] accumulate does not allow multiple axes")
        axis = 0 if axis is None else axis[0]
    axis = _operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _AxisError(f"[{name}.accumulate] axis {axis} is out of bounds for array of "
                         f"dimension {x.ndim}")
    axis %= x.ndim
    t = _loop_dtype(uf, "accumulate", x.dtype, dtype, out)
    xt = _cast(x, t)
    scan = _SCAN.get(name)
    if scan is _core._cumsum or scan is _core._cumprod:
        r = scan(xt, axis, t)
    elif scan is not None:
        r = scan(xt, axis)
    elif uf._reorderable:
        r = _core.moveaxis(_doubling(uf, _core.moveaxis(xt, axis, 0), t), 0, axis)
    else:
        r = _sequential_scan(uf, xt, axis, t)
    return _finish(uf, "accumulate", r, out)


def _doubling(uf, g, t, start=None):
    """Inclusive scan of g along axis 0 by doubling; with `start` (int64, per row: the first
    row of its segment) each segment is scanned alone. Earlier rows are the left operand. One
    fused kernel per step: the row index and the starts are shaped to broadcast once, before."""
    n = g.shape[0]
    if n < 2:
        return g
    j = arange(n, dtype=_np.int64, context=g.context)
    span = n if start is None else int(_core.max(j - start)) + 1
    lead = (n,) + (1,) * (g.ndim - 1)
    jl = j if g.ndim == 1 else _core.reshape(j, lead)
    sl = None if start is None else start if g.ndim == 1 else _core.reshape(start, lead)
    d = 1
    while d < span:
        prev = _take(g, _core._clip(j - d, 0, None), axis=0)
        ok = jl >= d if sl is None else (jl - d) >= sl
        g = _cast(_where(ok, uf._kernel(prev, g), g), t)
        _core.eval(g)
        d *= 2
    return g


def _sequential_scan(uf, xt, axis, t):
    """A non-reorderable accumulate in numpy's order: one kernel per position."""
    x = _core.moveaxis(xt, axis, 0)
    r = _core._empty(x.shape, t, context=x.context)
    if x.shape[0]:
        r[0] = x[0]
    for i in range(1, x.shape[0]):
        r[i] = uf._kernel(r[i - 1], x[i])
    return _core.moveaxis(r, 0, axis)


def reduceat(uf, array, indices, axis, dtype, out):
    """ufunc.reduceat (vkarray.ufunc.reduceat's docstring)."""
    _binary_only(uf, "reduceat")
    name = uf.__name__
    x = _as_input(array)
    axis = _operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _AxisError(f"[{name}.reduceat] axis {axis} is out of bounds for array of "
                         f"dimension {x.ndim}")
    axis %= x.ndim
    idx = indices if isinstance(indices, _core.ndarray) else asarray(indices,
                                                                      context=x.context)
    if idx.ndim != 1:
        raise ValueError(f"[{name}.reduceat] indices must be 1-d, got shape {idx.shape}")
    if idx.dtype.kind not in "iu" and idx.size:
        raise TypeError(f"[{name}.reduceat] Cannot cast array data from dtype('{idx.dtype}') "
                        f"to dtype('int64') according to the rule 'safe'")
    n, m = x.shape[axis], idx.shape[0]
    t = _loop_dtype(uf, "reduceat", x.dtype, dtype, out)
    X = _core.moveaxis(_cast(x, t), axis, 0)  # noqa: N806
    if m == 0:
        r = _core._empty((0,) + X.shape[1:], t, context=x.context)
        return _finish(uf, "reduceat", _core.moveaxis(r, 0, axis), out)
    s = _cast(idx, _np.dtype(_np.int64))
    lo, hi = int(_core.min(s)), int(_core.max(s))
    if lo < 0 or hi >= n:
        raise IndexError(f"[{name}.reduceat] index {lo if lo < 0 else hi} out-of-bounds in "
                         f"{name}.reduceat [0, {n})")
    i = arange(m, dtype=_np.int64, context=x.context)
    nxt = _take(s, _core._clip(i + 1, None, m - 1))
    end = _where(i == m - 1, n, _where(nxt > s, nxt, s + 1))
    length = end - s
    longest = int(_core.max(length))
    if uf._reorderable and m * longest <= 2 * n + 1024:
        r = _dense_segments(uf, X, s, length, longest, t)
    elif uf._reorderable:  # lengths far apart: the gathered rows, scanned segment by segment
        off = _core._cumsum(length, 0, None) - length
        total = int(_core.sum(length))
        j = arange(total, dtype=_np.int64, context=x.context)
        seg = _core.searchsorted(off, j, side="right") - 1
        first = _take(off, seg)
        g = _take(X, _take(s, seg) + (j - first), axis=0)
        g = _doubling(uf, g, t, start=first)
        r = _take(g, off + length - 1, axis=0)
    else:
        ll = length if X.ndim == 1 else _core.reshape(length, (m,) + (1,) * (X.ndim - 1))
        r = _take(X, s, axis=0)
        for k in range(1, longest):
            rows = _take(X, _core._clip(s + k, None, n - 1), axis=0)
            step = _cast(uf._kernel(r, rows), t)
            r = _where(ll > k, step, r)
            if k % _FOLD == 0:
                _core.eval(r)
    # numpy's result is a new C-ordered array, not a view with its axes moved
    return _finish(uf, "reduceat", _core.ascontiguousarray(_core.moveaxis(r, 0, axis)), out)


def _dense_segments(uf, X, s, length, longest, t):  # noqa: N803
    """reduceat of a reorderable ufunc over segments of similar lengths: the segments as the
    rows of an (m, longest) block (one gather), padded with the identity, or for max/min-like
    ufuncs (idempotent, no identity) with the segment's first element, then reduced along the
    rows (vkarray's reduction where there is one)."""
    m = s.shape[0]
    k = _core.reshape(arange(longest, dtype=_np.int64, context=X.context), (1, longest))
    first = _core.reshape(s, (m, 1))
    valid = k < _core.reshape(length, (m, 1))
    g = _take(X, _core.ravel(_where(valid, first + k, first)), axis=0)
    g = g.reshape((m, longest) + tuple(X.shape[1:]))
    if uf.identity is not None:
        mask = valid if X.ndim == 1 else _core.reshape(valid, (m, longest) + (1,) * (X.ndim - 1))
        g = _where(mask, g, _scalar(uf.identity, t, X.context))
    return reduce(uf, g, 1, t, None, False, NO_VALUE, True)
