"""Joining, splitting and reordering arrays, built from views, assignments and fused elementwise
expressions: numpy's concatenate and the stacks, and the splits (this module); roll, tile,
repeat and pad (_reorder.py); tril/triu, diag, trace, rot90, meshgrid and the index
conversions (_grids.py). The kernel counts below cover all three.

Kernel counts (inputs already evaluated; a lazy input fuses into the kernel that reads it
where the count says "fused", and is evaluated once first where a view of it is taken):

- views, no kernel: split, array_split, hsplit, vsplit, dsplit, rot90, diag of a 2-d array,
  meshgrid with copy=False.
- one fused, lazy kernel (the result stays lazy and fuses with what uses it): tril, triu,
  diag/diagflat of a 1-d array with k=0, ravel_multi_index, unravel_index (one kernel for all
  of its outputs when they are evaluated together), meshgrid's copies (one each), roll (a
  gather, on up to two adjacent rolled axes of an array a gather can bind).
- one kernel, run at once: tile, repeat with one count. roll where nothing moves: a lazy copy
  (one kernel when evaluated).
- trace: a pairwise sum of the diagonal view, one fused kernel per halving (ceil(log2 n)).
- one kernel per piece, run at once: concatenate and the stacks (one per non-empty input),
  roll otherwise (two per rolled axis, multiplied: 2, 4, ...), repeat with per-element counts (one per
  run of equal counts), diag/diagflat with k != 0 (two), pad (see pad).

Results are new arrays unless the function says it returns views; numpy's errors are raised
with the same exception types, their messages prefixed with the function's name.
"""
import itertools as _itertools
import operator as _operator

import numpy as _np

from . import _vkarray as _vk
from ._creation import empty
from ._shaping import _asarray, _asarrays, _creation_kwargs, _normalize_axis, _at, _store, _check_cast

__all__ = [
    "concatenate", "concat", "stack", "hstack", "vstack", "row_stack", "dstack", "column_stack",
    "split", "array_split", "hsplit", "vsplit", "dsplit",
]


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
        out = empty(shape, target_dtype, **_creation_kwargs(xs[0].context))
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


row_stack = vstack  # numpy 1.24's other name


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
