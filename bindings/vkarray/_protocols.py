"""numpy's dispatch protocols for vkarray arrays, each mapping numpy's name to vkarray's public
one (looked up in the vkarray namespace when called): the function protocol (NEP 18:
``np.sum(x)``, ``np.concatenate([x, y])``, ``np.linalg.norm(x)`` and ``np.fft.fft(x)``), the
ufunc protocol (NEP 13: ``np.sin(x)``, ``np.add(x, y, out=z)`` and every ufunc method, through
vkarray's ufunc of the same name) and the array API's ``__array_namespace__``. They run on the
device and return vkarray arrays; what vkarray does not implement raises a TypeError naming
it: vkarray never copies to the host behind the caller's back."""

import numbers as _numbers

import numpy as _np

from . import _vkarray as _vk
from ._creation import asarray

# numpy's modules whose functions have a vkarray counterpart of the same qualified name.
_NAMESPACES = {"numpy": "", "numpy.linalg": "linalg", "numpy.fft": "fft",
               "numpy.lib.stride_tricks": ""}

# numpy 1.24's own names for functions vkarray knows under numpy 2's (or another) name.
_RENAMED = {"row_stack": "vstack", "trapz": "trapezoid"}

# numpy's memory-layout keyword of functions whose vkarray version has none: they give
# C-ordered arrays, so the orders that give C-ordered values are accepted and dropped. (The
# creation functions take order= themselves.)
_ORDERS = {"copy": "KCA", "ascontiguousarray": "KCA", "ravel": "C", "identity": "C"}

# numpy's creation functions that take like= (NEP 35): numpy calls the like array's
# __array_function__, so the result is made on that array's context.
_CREATION = {"empty", "zeros", "ones", "full", "eye", "identity", "array", "asarray", "arange",
             "linspace", "frombuffer", "fromiter", "fromfunction"}


def _not_implemented(qualname):
    return TypeError(f"[__array_function__] {qualname} is not implemented by vkarray; convert "
                     f"explicitly with numpy.asarray(x) (a download to the host) to use numpy's "
                     f"version, or write it with vkarray's functions")


def _namespace():
    """The vkarray namespace: complete by the time numpy dispatches to it."""
    import vkarray
    return vkarray


def _lookup(func):
    """vkarray's function for numpy's func, or None."""
    vkarray = _namespace()
    module = getattr(func, "__module__", None)
    if module not in _NAMESPACES:
        return None
    sub = _NAMESPACES[module]
    namespace = getattr(vkarray, sub) if sub else vkarray
    name = func.__name__
    fn = getattr(namespace, _RENAMED.get(name, name), None)
    return fn if callable(fn) else None


def _qualname(func):
    return f"{getattr(func, '__module__', 'numpy')}.{func.__name__}"


def _to_device(value, ctx):
    """numpy arrays among the arguments (also inside lists and tuples, as concatenate's) are
    uploaded to the context of the vkarray arguments."""
    if isinstance(value, _np.ndarray):
        return asarray(value, context=ctx)
    if isinstance(value, (list, tuple)) and any(isinstance(v, _np.ndarray) for v in value):
        converted = [_to_device(v, ctx) for v in value]
        return converted if isinstance(value, list) else tuple(converted)
    return value


def _context_of(values):
    for v in values:
        if isinstance(v, _vk.ndarray):
            return v.context
        if isinstance(v, (list, tuple)):
            c = _context_of(v)
            if c is not None:
                return c
    return None


def _array_function(self, func, types, args, kwargs):
    """NEP 18: numpy's function `func` called with vkarray arrays among its arguments."""
    for t in types:
        if not (issubclass(t, _vk.ndarray) or issubclass(t, _np.ndarray)):
            return NotImplemented  # another library's array: let it (or numpy) decide
    qualname = _qualname(func)
    fn = _lookup(func)
    if fn is None:
        raise _not_implemented(qualname)
    kwargs = dict(kwargs)
    kwargs.pop("subok", None)  # vkarray.ndarray has no subclasses: both values mean the same
    if func.__name__ in _ORDERS and "order" in kwargs:
        order = kwargs.pop("order")
        if order not in tuple(_ORDERS[func.__name__]):
            raise TypeError(f"[__array_function__] {qualname}: order={order!r} is not "
                            f"supported by vkarray (arrays are C-ordered)")
    if isinstance(kwargs.get("out"), _np.ndarray):
        raise TypeError(f"[__array_function__] {qualname}: out= must be a vkarray.ndarray, got "
                        f"a numpy.ndarray (vkarray does not write results to host memory)")
    ctx = _context_of(list(args) + list(kwargs.values()))
    kwargs.pop("like", None)
    if func.__name__ in _CREATION and ctx is None and "context" not in kwargs:
        ctx = self.context
        if func.__name__ not in ("frombuffer", "fromiter", "fromfunction"):
            kwargs["context"] = ctx
    args = [_to_device(a, ctx) for a in args]
    kwargs = {k: (v if k == "out" else _to_device(v, ctx)) for k, v in kwargs.items()}
    try:
        return fn(*args, **kwargs)
    except TypeError as error:
        text = str(error)
        # Raised by the call itself (its arguments did not bind), not from inside fn.
        at_call = error.__traceback__ is not None and error.__traceback__.tb_next is None
        if at_call and ("unexpected keyword argument" in text
                        or "incompatible function arguments" in text):
            raise TypeError(f"[__array_function__] {qualname}: vkarray's "
                            f"{getattr(fn, '__name__', '')} does not take these arguments "
                            f"(keywords {sorted(kwargs)}): {text}") from None
        raise


def _known(value):
    """Values vkarray takes as ufunc operands: its arrays, numpy arrays and scalars, Python
    scalars and nested sequences of them."""
    return isinstance(value, (_vk.ndarray, _np.ndarray, _np.generic, _numbers.Number,
                              list, tuple, bool))


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NEP 13: numpy's ufunc (or its method) called with vkarray arrays among the operands,
    run by vkarray's ufunc of the same name."""
    for value in inputs + tuple(kwargs.get("out", None) or ()):
        if not _known(value) and hasattr(value, "__array_ufunc__"):
            return NotImplemented  # another library's array: let it decide
    vkarray = _namespace()
    fn = getattr(vkarray, ufunc.__name__, None)
    if not isinstance(fn, vkarray.ufunc):
        raise TypeError(f"[__array_ufunc__] numpy.{ufunc.__name__} is not implemented by "
                        f"vkarray; convert explicitly with numpy.asarray(x) (a download to the "
                        f"host) to use numpy's")
    for o in kwargs.get("out", None) or ():
        if o is not None and not isinstance(o, _vk.ndarray):
            raise TypeError(f"[__array_ufunc__] numpy.{ufunc.__name__}.{method}: out= must be "
                            f"vkarray.ndarray, got {type(o).__name__} (vkarray does not write "
                            f"results to host memory)")
    if method == "at" and not isinstance(inputs[0], _vk.ndarray):
        raise TypeError(f"[__array_ufunc__] numpy.{ufunc.__name__}.at: the array must be a "
                        f"vkarray.ndarray (vkarray does not write results to host memory)")
    return getattr(fn, method)(*inputs, **kwargs)


def _array_namespace(self, api_version=None):
    """The array API namespace of vkarray arrays: the vkarray module."""
    return _namespace()


# Above numpy's (0): libraries that pick the array type of a mixed operation by priority (dask's
# tensordot and concatenate3) pick vkarray's.
ARRAY_PRIORITY = 100.0
