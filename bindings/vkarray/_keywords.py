"""The array API's keywords on functions whose numpy 1.24 signatures lack them: sort and
argsort's ``descending=``, std and var's ``correction=``, clip's ``min=``/``max=``, astype's
``device=``. Each forwards to the compiled function (vkarray._vkarray)."""

import numpy as _np

from . import _info, _vkarray

__all__ = ["sort", "argsort", "std", "var", "clip", "astype"]


def _descending(op, fn, a, axis, kind, order, stable):
    """fn (sort or argsort) in descending order, stable: reversing, sorting ascending stably
    and reversing back keeps equal elements in their original order."""
    a = _vkarray.asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), -1
    if a.ndim == 0:
        raise _np.AxisError(f"[{op}] axis {axis} is out of bounds for array of dimension 0")
    r = _vkarray.flip(fn(_vkarray.flip(a, axis), axis, kind, order, stable=True), axis)
    if fn is _vkarray.argsort:
        r = (a.shape[axis] - 1) - r
    return r


def sort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """numpy.sort, with the array API's descending= (stable, as ascending sorts are)."""
    if descending:
        return _descending("sort", _vkarray.sort, a, axis, kind, order, stable)
    return _vkarray.sort(a, axis, kind, order, stable=stable)


def argsort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """numpy.argsort, with the array API's descending= (equal elements keep their order)."""
    if descending:
        return _descending("argsort", _vkarray.argsort, a, axis, kind, order, stable)
    return _vkarray.argsort(a, axis, kind, order, stable=stable)


def _ddof(op, ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError(f"[{op}] ddof={ddof} and correction={correction} cannot both be given")
    return correction


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
        correction=None):
    """numpy.std; correction= is the array API's name for ddof."""
    return _vkarray.std(a, axis, dtype, out, _ddof("std", ddof, correction), keepdims,
                        where=where)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
        correction=None):
    """numpy.var; correction= is the array API's name for ddof."""
    return _vkarray.var(a, axis, dtype, out, _ddof("var", ddof, correction), keepdims,
                        where=where)


_NOT_GIVEN = object()


def clip(a, min=None, max=None, out=None, *, a_min=_NOT_GIVEN,  # noqa: A002
         a_max=_NOT_GIVEN):
    """numpy.clip: minimum(maximum(a, min), max) with NaNs propagated; a bound of None is not
    applied. numpy 1.24's keyword names a_min= and a_max= are accepted too."""
    if a_min is not _NOT_GIVEN:
        if min is not None:
            raise TypeError("[clip] min and a_min cannot both be given")
        min = a_min  # noqa: A001
    if a_max is not _NOT_GIVEN:
        if max is not None:
            raise TypeError("[clip] max and a_max cannot both be given")
        max = a_max  # noqa: A001
    return _vkarray.clip(a, min, max, out)


def astype(x, dtype, /, *, copy=True, device=None):
    """x converted to dtype (a new array unless copy=False and dtype is x's), on device."""
    r = _vkarray.astype(x, dtype, copy=copy)
    if device is not None and device != r.device:
        r = _vkarray.asarray(r.get(), context=_info.context_for(device, "astype"))
    return r
