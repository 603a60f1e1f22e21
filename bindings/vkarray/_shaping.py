"""Helpers the joining, reordering and grid functions share: contexts and conversions, axis
checks, assignment into slices, host integer arguments."""

import operator as _operator

import numpy as _np

from . import _vkarray as _vk
from ._creation import asarray

# numpy's AxisError subclasses both ValueError and IndexError (numpy.exceptions from 1.25).
_AxisError = getattr(_np, "exceptions", _np).AxisError
_INTP = _np.dtype(_np.intp)


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
        return asarray(obj)
    return asarray(obj, context=ctx)


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


def _nonnegative_ints(op, value, what):
    """An int or a sequence of ints as a tuple, none negative (ValueError naming `what`)."""
    try:
        ints = tuple(_operator.index(v) for v in value)
    except TypeError:
        ints = (_operator.index(value),)
    if any(v < 0 for v in ints):
        raise ValueError(f"[{op}] {what} must be non-negative, got {ints}")
    return ints


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
    target[...] = value  # assignment casts as numpy's does


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
