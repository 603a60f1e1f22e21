"""numpy's functional programming helpers on vkarray arrays: apply_along_axis (one Python
call per slice, each on the device), apply_over_axes, piecewise and vectorize (the Python
function called once on whole arrays, so it runs on the device as vkarray operations)."""

import numpy as _np

from . import _math, _vkarray
from ._creation import zeros
from ._dtypes import astype
from ._joining import stack
from ._shaping import _AxisError, _asarray

__all__ = [
    "apply_along_axis", "apply_over_axes", "piecewise", "vectorize",
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


def apply_over_axes(func, a, axes):
    """numpy.apply_over_axes: func(a, axis) for each axis in turn, each result given a's
    number of dimensions back (a length-1 axis where func removed it)."""
    val = _asarray(a)
    n = val.ndim
    for axis in ((axes,) if _np.ndim(axes) == 0 else axes):
        axis = axis + n if axis < 0 else axis
        res = _asarray(func(val, axis), val.context)
        if res.ndim != val.ndim:
            res = _vkarray.expand_dims(res, axis)
        if res.ndim != val.ndim:
            raise ValueError("[apply_over_axes] function is not returning an array of the "
                             "correct shape")
        val = res
    return val


class vectorize:  # noqa: N801 — numpy's name
    """numpy.vectorize on the device: pyfunc is called once, on the broadcast vkarray arrays
    of the arguments (those in excluded passed as they are), rather than once per element on
    the host. So pyfunc must be written with array operations (arithmetic, vkarray's
    functions, vkarray.where for choices); Python control flow on an element's value (`if x >
    0:`) or math-module calls can't run on arrays, and fail naming vectorize. Results are
    broadcast to the arguments' shape and cast to otypes where given; a tuple result gives a
    tuple of arrays. signature= (generalized ufunc core dimensions) is not supported."""

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if signature is not None:
            raise NotImplementedError(
                f"[vectorize] signature={signature!r} is not supported: vkarray's vectorize "
                f"calls the function on whole arrays")
        self.pyfunc = pyfunc
        self.cache = cache
        self.signature = signature
        if isinstance(otypes, str):
            otypes = list(otypes)
        self.otypes = None if otypes is None else [_np.dtype(t) for t in otypes]
        self.excluded = set(excluded or ())
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if self.pyfunc is None:  # @vectorize(otypes=...) as a decorator
            return vectorize(args[0], otypes=self.otypes, doc=self.__doc__,
                             excluded=self.excluded, cache=self.cache)
        vary = [i for i in range(len(args)) if i not in self.excluded]
        vary_kw = [k for k in kwargs if k not in self.excluded]
        inputs = [_asarray(args[i]) for i in vary] + [_asarray(kwargs[k]) for k in vary_kw]
        arrays = _vkarray.broadcast_arrays(*inputs) if inputs else []
        args, kwargs = list(args), dict(kwargs)
        for i, x in zip(vary + vary_kw, arrays):
            if isinstance(i, int):
                args[i] = x
            else:
                kwargs[i] = x
        try:
            result = self.pyfunc(*args, **kwargs)
        except (TypeError, ValueError) as err:
            raise type(err)(
                f"[vectorize] {getattr(self.pyfunc, '__name__', 'pyfunc')} failed on whole "
                f"arrays: vkarray's vectorize calls it once with vkarray arrays (on the "
                f"device), so it must use array operations, not Python control flow or math "
                f"functions on element values ({err})") from err
        shape = arrays[0].shape if arrays else ()
        outs = result if isinstance(result, tuple) else (result,)
        if self.otypes is not None and len(self.otypes) != len(outs):
            raise ValueError(f"[vectorize] otypes has {len(self.otypes)} types for "
                             f"{len(outs)} outputs")
        made = []
        for j, r in enumerate(outs):
            r = _asarray(r, arrays[0].context if arrays else None)
            if self.otypes is not None:
                r = astype(r, self.otypes[j])
            made.append(_vkarray.broadcast_to(r, shape).copy() if r.shape != shape else r)
        return tuple(made) if isinstance(result, tuple) else made[0]
