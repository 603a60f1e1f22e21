"""numpy's functional programming helpers on vkarray arrays: apply_along_axis (one Python
call per slice, each on the device) and piecewise."""

import numpy as _np

from . import _math, _vkarray
from ._creation import zeros
from ._dtypes import astype
from ._joining import stack
from ._shaping import _AxisError, _asarray

__all__ = [
    "apply_along_axis", "piecewise",
]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """numpy.apply_along_axis: func1d on every 1-d slice along axis (one Python call per
    slice, each on the device), results stacked where the axis was."""
    arr = _asarray(arr)
    nd = arr.ndim
    if not -nd <= axis < nd:
        raise _AxisError(f"[apply_along_axis] axis {axis} is out of bounds for array of "
                            f"dimension {nd}")
    moved = _vkarray.moveaxis(arr, axis % nd, -1)
    outer = moved.shape[:-1]
    if 0 in outer:
        raise ValueError("[apply_along_axis] Cannot apply_along_axis when any iteration "
                         "dimensions are 0")
    rows = _vkarray.reshape(moved, (-1, moved.shape[-1]))
    results = [_asarray(func1d(rows[i], *args, **kwargs), arr.context)
               for i in range(rows.shape[0])]
    out = _vkarray.reshape(stack(results), outer + results[0].shape)
    if results[0].ndim == 0:
        return out
    lead = axis % nd
    return _vkarray.moveaxis(out, tuple(range(len(outer), out.ndim)),
                        tuple(range(lead, lead + results[0].ndim)))


def piecewise(x, condlist, funclist, *args, **kw):
    """numpy.piecewise: funclist[i] (a function of x, or a value) where condlist[i]; an extra
    function is the default. Functions see the whole array (vkarray evaluates elementwise
    functions on every element and selects)."""
    x = _asarray(x)
    if isinstance(condlist, (_vkarray.ndarray, _np.ndarray, bool)) or (
            condlist and not isinstance(condlist[0], (list, _vkarray.ndarray, _np.ndarray))):
        condlist = [condlist]
    conds = [astype(_asarray(c, x.context), _np.bool_) for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"[piecewise] with {n} condition(s), either {n} or {n + 1} functions "
                         f"are expected")

    def value(f):
        return astype(_asarray(f(x, *args, **kw) if callable(f) else f, x.context), x.dtype)

    r = value(funclist[n]) if len(funclist) == n + 1 else zeros(x.shape, dtype=x.dtype)
    for c, f in zip(conds, funclist):
        r = _math.where(c, value(f), r)
    return _vkarray.broadcast_to(r, x.shape)
