"""ufunc.at on the device: a[indices] = op(a[indices], b) in place, unbuffered, as numpy's. The
flat positions a[indices] names are sorted (stably, so repeats keep their order) and grouped:
each occurrence of a repeated index is applied in turn (rounds: the k-th occurrences of every
index together, unique within a round, one gather and one scatter each), unless the ufunc is
reorderable and its result needs no cast back to a's dtype: then a segmented doubling scan
combines each index's values first and one scatter applies them. Only counts come back to the
host (the rounds' sizes and the longest run)."""

import numpy as _np

from . import _ufunc_methods as _methods
from . import _vkarray as _core
from ._creation import arange, asarray, full


def at(uf, a, indices, b):
    """ufunc.at (vkarray.ufunc.at's docstring)."""
    name = uf.__name__
    if uf.nout != 1:
        raise ValueError(f"[{name}.at] Only single output ufuncs supported at this time")
    if not isinstance(a, _core.ndarray):
        raise TypeError(f"[{name}.at] a must be a vkarray.ndarray, got {type(a).__name__} "
                        f"(vkarray does not write to host memory)")
    if uf.nin == 2 and b is None:
        raise ValueError(f"[{name}.at] second operand needed for ufunc")
    if uf.nin == 1 and b is not None:
        raise ValueError(f"[{name}.at] second operand provided when ufunc is unary")
    if uf.nin > 2:
        raise ValueError(f"[{name}.at] only unary and binary ufuncs are supported")
    if not a.flags_writeable:
        raise ValueError(f"[{name}.at] output array is read-only")
    pos = _positions(a, indices)
    p = _core.ravel(pos)
    if p.size == 0:
        return
    weak = type(b) in (bool, int, float, complex)
    v = None
    if b is not None and not weak:
        bv = b if isinstance(b, _core.ndarray) else asarray(b, context=a.context)
        try:
            v = _core.ravel(_core.broadcast_to(bv, pos.shape))
        except ValueError:
            raise ValueError(f"[{name}.at] array is not broadcastable to correct shape: "
                             f"{bv.shape} to {pos.shape}") from None
    # Scatters take at most 3 index arrays: a is addressed by its unravelled positions where
    # it has 1 to 3 axes, else through a flat contiguous copy written back at the end.
    target = a if 1 <= a.ndim <= 3 else _core.ascontiguousarray(a).reshape(-1)
    order = _core._argsort(p)
    ps = _methods._take(p, order)
    vs = None if v is None else _methods._take(v, order)
    j = arange(p.size, dtype=_np.int64, context=a.context)
    head = (j == 0) | (ps != _methods._take(ps, _core._clip(j - 1, 0, None)))
    start = _core.cummax(_methods._where(head, j, 0), 0)
    probe = uf._kernel(target[_unravel(p[:0], target.shape)], *(
        () if uf.nin == 1 else (b,) if weak else (vs[:0],)))
    if uf._reorderable and uf.nin == 2 and probe.dtype == a.dtype:
        vs = (full((p.size,), b, dtype=a.dtype, context=a.context) if weak
              else _methods._cast(vs, a.dtype))
        combined = _methods._doubling(uf, vs, a.dtype, start=start)
        last = (j == p.size - 1) | (ps != _methods._take(ps, _core._clip(j + 1, None, p.size - 1)))
        sel = _core.flatnonzero(last)
        dest = _unravel(_methods._take(ps, sel), target.shape)
        target[dest] = uf._kernel(target[dest], _methods._take(combined, sel))
    else:
        rank = j - start
        for k in range(int(_core.max(rank)) + 1):
            sel = _core.flatnonzero(rank == k)
            dest = _unravel(_methods._take(ps, sel), target.shape)
            operand = () if uf.nin == 1 else (b,) if weak else (_methods._take(vs, sel),)
            target[dest] = uf._kernel(target[dest], *operand)
    if target is not a:
        a[...] = target.reshape(a.shape)


def _unravel(p, shape):
    """Flat C-order positions (in range) as one index array per axis of `shape`: lazy, fused
    into the gather or scatter that uses them."""
    index, stride = [], 1
    for axis in range(len(shape) - 1, -1, -1):
        q = p // stride if stride > 1 else p
        index.append(q % shape[axis] if axis else q)
        stride *= shape[axis]
    return tuple(reversed(index))


def _is_integer_index(index):
    if isinstance(index, (bool, _np.bool_)):
        return False
    if isinstance(index, (int, _np.integer)):
        return True
    if isinstance(index, _core.ndarray):
        return index.dtype.kind in "iu"
    if isinstance(index, (list, _np.ndarray)):
        return _np.asarray(index).dtype.kind in "iu"
    return False


def _positions(a, indices):
    """The flat positions a[indices] names, in the selection's shape and numpy's order: a
    gather of a's positions (any index numpy takes), or for one integer index per axis of an
    array of more axes than a gather takes, their C-order combination (bounds checked)."""
    if not (isinstance(indices, tuple) and len(indices) == a.ndim > 3
            and all(_is_integer_index(i) for i in indices)):
        return _core.reshape(arange(a.size, dtype=_np.int64, context=a.context), a.shape)[indices]
    p, stride = 0, 1
    for axis in range(a.ndim - 1, -1, -1):
        n = a.shape[axis]
        i = indices[axis] if isinstance(indices[axis], _core.ndarray) else asarray(
            indices[axis], context=a.context)
        i = _methods._cast(i, _np.dtype(_np.int64))
        if i.size:
            lo, hi = int(_core.min(i)), int(_core.max(i))
            if lo < -n or hi >= n:
                raise IndexError(f"index {lo if lo < -n else hi} is out of bounds for axis "
                                 f"{axis} with size {n}")
        p = p + _methods._where(i < 0, i + n, i) * stride
        stride *= n
    return p
