"""numpy's ufunc protocol (NEP 13) for vkarray arrays: ``np.sin(x)``, ``np.add(x, y, out=z)``
and the ufunc methods ``np.add.reduce``, ``np.multiply.accumulate``, ``np.add.outer`` run on the
device and return vkarray arrays. What vkarray does not implement raises a TypeError naming the
ufunc and the method, never a silent host copy."""

import numbers as _numbers

import numpy as _np

from . import _vkarray as _vk

# ufunc.reduce → the vkarray reduction with numpy's identical results.
_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
           "fmax": "nanmax", "fmin": "nanmin", "logical_and": "all", "logical_or": "any"}
# ufunc.accumulate → the vkarray scan; logical_and/or accumulate as running min/max of truth.
_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod", "maximum": "cummax",
               "minimum": "cummin", "logical_and": "cummin", "logical_or": "cummax"}
_NO_VALUE = getattr(_np, "_NoValue", object())


def _vkarray():
    import vkarray
    return vkarray


def _refuse(ufunc, method, what):
    return TypeError(f"[__array_ufunc__] numpy.{ufunc.__name__}.{method}: {what} is not "
                     f"supported by vkarray")


def _known(value):
    """Values vkarray takes as operands: its arrays, numpy arrays and scalars, Python scalars
    and nested sequences of them."""
    return isinstance(value, (_vk.ndarray, _np.ndarray, _np.generic, _numbers.Number,
                              list, tuple, bool))


def _single_out(ufunc, method, out, nout=1):
    if out is None:
        return None
    if isinstance(out, tuple):
        if len(out) != nout:
            raise ValueError(f"[__array_ufunc__] numpy.{ufunc.__name__}.{method}: out must "
                             f"have {nout} elements, got {len(out)}")
        if nout == 1:
            out = out[0]
    for o in (out if isinstance(out, tuple) else (out,)):
        if o is not None and not isinstance(o, _vk.ndarray):
            raise TypeError(f"[__array_ufunc__] numpy.{ufunc.__name__}.{method}: out= must be "
                            f"vkarray.ndarray, got {type(o).__name__} (vkarray does not write "
                            f"results to host memory)")
    return out


def _layout_kwargs(ufunc, method, kwargs):
    """Drops numpy's layout keywords at values that change nothing for vkarray arrays."""
    if kwargs.pop("order", "K") not in ("K", "C", "A"):
        raise _refuse(ufunc, method, "order other than 'K', 'C' or 'A'")
    kwargs.pop("subok", None)
    if kwargs.pop("casting", "same_kind") != "same_kind":
        raise _refuse(ufunc, method, "casting= other than 'same_kind'")
    for key in ("signature", "extobj", "sig"):
        if kwargs.get(key) is not None:
            raise _refuse(ufunc, method, f"{key}=")
        kwargs.pop(key, None)


def _call(ufunc, fn, inputs, kwargs):
    vk = _vkarray()
    name = ufunc.__name__
    out = _single_out(ufunc, "__call__", kwargs.pop("out", None), ufunc.nout)
    where = kwargs.pop("where", True)
    dtype = kwargs.pop("dtype", None)
    _layout_kwargs(ufunc, "__call__", kwargs)
    if kwargs:
        raise _refuse(ufunc, "__call__", f"keyword(s) {sorted(kwargs)}")
    if ufunc.nout > 1:
        if dtype is not None:
            raise _refuse(ufunc, "__call__", "dtype= with several outputs")
        results = fn(*inputs)
        outs = out if out is not None else (None,) * ufunc.nout
        return tuple(_store(vk, r, o, where, name) for r, o in zip(results, outs))
    if where is True:
        return fn(*inputs, out=out, dtype=dtype)
    return _store(vk, fn(*inputs, dtype=dtype), out, where, name)


def _store(vk, result, out, where, name):
    """result into out (where `where` holds, when given); numpy leaves the other elements of a
    fresh result undefined, vkarray returns the computed values there."""
    if out is None:
        return result
    if where is not True:
        result = vk.where(where, result, out)
    if result.shape != out.shape:
        result = vk.broadcast_to(result, out.shape)
    if not vk.can_cast(result.dtype, out.dtype, casting="same_kind"):
        raise TypeError(f"[{name}] cannot cast the result from {result.dtype} to out's dtype "
                        f"{out.dtype} with casting rule 'same_kind'")
    out[...] = result
    return out


def _reduce_axis(x, axis):
    if x.ndim == 0 and axis in (0, None, (), -1):
        return None
    return axis


def _reduce(ufunc, x, kwargs):
    vk = _vkarray()
    name = ufunc.__name__
    reducer = _REDUCE.get(name)
    if reducer is None:
        raise _refuse(ufunc, "reduce", "this method")
    x = vk.asarray(x) if not isinstance(x, _vk.ndarray) else x
    axis = _reduce_axis(x, kwargs.pop("axis", 0))
    out = _single_out(ufunc, "reduce", kwargs.pop("out", None))
    dtype = kwargs.pop("dtype", None)
    keepdims = kwargs.pop("keepdims", False)
    initial = kwargs.pop("initial", _NO_VALUE)
    where = kwargs.pop("where", True)
    if kwargs:
        raise _refuse(ufunc, "reduce", f"keyword(s) {sorted(kwargs)}")
    extra = {}
    if initial is not _NO_VALUE and initial is not None:
        if name in ("logical_and", "logical_or"):
            raise _refuse(ufunc, "reduce", "initial=")
        extra["initial"] = initial
    if where is not True:
        extra["where"] = where
    if name in ("logical_and", "logical_or"):
        result = getattr(vk, reducer)(x, axis=axis, keepdims=keepdims, **extra)
        return result if out is None else _store(vk, result, out, True, name)
    return getattr(vk, reducer)(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **extra)


def _accumulate(ufunc, x, kwargs):
    vk = _vkarray()
    name = ufunc.__name__
    scan = _ACCUMULATE.get(name)
    if scan is None:
        raise _refuse(ufunc, "accumulate", "this method")
    x = vk.asarray(x) if not isinstance(x, _vk.ndarray) else x
    axis = kwargs.pop("axis", 0)
    out = _single_out(ufunc, "accumulate", kwargs.pop("out", None))
    dtype = kwargs.pop("dtype", None)
    if kwargs:
        raise _refuse(ufunc, "accumulate", f"keyword(s) {sorted(kwargs)}")
    if x.ndim == 0:
        raise TypeError(f"[{name}.accumulate] cannot accumulate on a scalar")
    if axis is None or isinstance(axis, tuple):
        if x.ndim != 1 or (isinstance(axis, tuple) and len(axis) != 1):
            raise ValueError(f"[{name}.accumulate] accumulate does not allow multiple axes")
        axis = 0 if axis is None else axis[0]
    if name in ("add", "multiply"):
        return getattr(vk, scan)(x, axis=axis, dtype=dtype, out=out)
    if name in ("logical_and", "logical_or"):
        x = vk.astype(x, _np.bool_) if x.dtype != _np.bool_ else x
    result = getattr(vk, scan)(x, axis=axis)
    if dtype is not None:
        result = vk.astype(result, dtype)
    return _store(vk, result, out, True, name)


def _outer(ufunc, fn, a, b, kwargs):
    vk = _vkarray()
    if ufunc.nin != 2:
        raise ValueError(f"[{ufunc.__name__}.outer] outer product only supported for binary "
                         f"functions")
    a, b = vk.asarray(a), vk.asarray(b)
    a = vk.reshape(a, a.shape + (1,) * b.ndim)
    return _call(ufunc, fn, (a, b), kwargs)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """numpy ufuncs and their methods on vkarray arrays (NEP 13)."""
    for value in inputs + tuple(kwargs.get("out", None) or ()):
        if not _known(value) and hasattr(value, "__array_ufunc__"):
            return NotImplemented  # another library's array: let it decide
    vk = _vkarray()
    fn = vk._UFUNCS.get(ufunc.__name__)
    if fn is None:
        raise TypeError(f"[__array_ufunc__] numpy.{ufunc.__name__} is not implemented by "
                        f"vkarray; convert explicitly with numpy.asarray(x) (a download to the "
                        f"host) to use numpy's")
    if method == "__call__":
        return _call(ufunc, fn, inputs, kwargs)
    if method == "reduce":
        return _reduce(ufunc, inputs[0], kwargs)
    if method == "accumulate":
        return _accumulate(ufunc, inputs[0], kwargs)
    if method == "outer":
        return _outer(ufunc, fn, inputs[0], inputs[1], kwargs)
    raise _refuse(ufunc, method, "this method")


_vk.ndarray.__array_ufunc__ = _array_ufunc
