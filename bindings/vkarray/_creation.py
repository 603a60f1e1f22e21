"""Array creation from data and from shapes: the array type, numpy's creation functions with
the array API's keywords (``device=``, a device string as ``x.device`` gives or a Context,
beside vkarray's ``context=``; asarray's ``copy=``), and the conversions from host data.

Each keyword form forwards to the compiled function (vkarray._vkarray._<name>) on the context
the device names; without a device or context, the default context."""

import operator as _operator

import numpy as _np

from . import _info, _vkarray
from ._vkarray import array, ascontiguousarray, copy, identity, ndarray

__all__ = ["ndarray", "asarray", "array", "asanyarray", "ascontiguousarray", "copy",
           "asarray_chkfinite", "frombuffer", "fromiter", "empty", "zeros", "ones", "full",
           "empty_like", "zeros_like", "ones_like", "full_like", "arange", "linspace", "eye",
           "identity", "asfarray", "asfortranarray", "require"]


def _context(op, device, context):
    """The context argument for the compiled function: from device= or context=."""
    if device is None:
        return context
    ctx = _info.context_for(device, op)
    if context is not None and ctx is not None and context is not ctx:
        raise ValueError(f"[{op}] device={device!r} and context={context!r} disagree")
    return ctx if ctx is not None else context


def asarray(obj, dtype=None, *, device=None, copy=None, context=None):
    """An array of obj (a vkarray array, numpy array, nested sequence or scalar) with dtype,
    on a device. copy=True always makes a new array; copy=False never copies and raises
    ValueError where a copy is needed (any host data, another dtype or device); copy=None
    copies only where needed."""
    ctx = _context("asarray", device, context)
    if isinstance(obj, _vkarray.ndarray):
        if ctx is not None and _info.context_device(ctx) != obj.device:
            if copy is False:
                raise ValueError(f"[asarray] copy=False, but an array on {obj.device} must be "
                                 f"copied to reach device {_info.context_device(ctx)}")
            return _vkarray._asarray(obj.get(), dtype, context=ctx)
        out = _vkarray._asarray(obj, dtype)
        if copy is False and out is not obj:
            raise ValueError(f"[asarray] copy=False, but converting {obj.dtype} to "
                             f"{out.dtype} needs a copy")
        if copy and out is obj:
            out = _vkarray.copy(obj)
        return out
    if copy is False:
        raise ValueError(f"[asarray] copy=False, but {type(obj).__name__} data on the host "
                         "must be copied to the device")
    return _vkarray._asarray(obj, dtype, context=ctx)


def empty(shape, dtype=None, *, device=None, context=None):
    """An uninitialized array of shape and dtype (float64 by default) on a device."""
    return _vkarray._empty(shape, dtype, context=_context("empty", device, context))


def zeros(shape, dtype=None, *, device=None, context=None):
    """An array of zeros of shape and dtype (float64 by default) on a device."""
    return _vkarray._zeros(shape, dtype, context=_context("zeros", device, context))


def ones(shape, dtype=None, *, device=None, context=None):
    """An array of ones of shape and dtype (float64 by default) on a device."""
    return _vkarray._ones(shape, dtype, context=_context("ones", device, context))


def full(shape, fill_value, dtype=None, *, device=None, context=None):
    """An array of shape filled with fill_value (dtype: fill_value's by default)."""
    return _vkarray._full(shape, fill_value, dtype, context=_context("full", device, context))


def _like(op, fn, prototype, dtype, shape, device, context, *fill):
    ctx = _context(op, device, context)
    return fn(prototype, *fill, dtype, shape=shape, context=ctx)


def empty_like(prototype, dtype=None, *, shape=None, device=None, context=None):
    """empty() with the shape, dtype and device of prototype."""
    return _like("empty_like", _vkarray._empty_like, prototype, dtype, shape, device, context)


def zeros_like(a, dtype=None, *, shape=None, device=None, context=None):
    """zeros() with the shape, dtype and device of a."""
    return _like("zeros_like", _vkarray._zeros_like, a, dtype, shape, device, context)


def ones_like(a, dtype=None, *, shape=None, device=None, context=None):
    """ones() with the shape, dtype and device of a."""
    return _like("ones_like", _vkarray._ones_like, a, dtype, shape, device, context)


def full_like(a, fill_value, dtype=None, *, shape=None, device=None, context=None):
    """full() with the shape, dtype and device of a."""
    return _like("full_like", _vkarray._full_like, a, dtype, shape, device, context, fill_value)


def arange(start, stop=None, step=1, dtype=None, *, device=None, context=None):
    """Evenly spaced values in [start, stop) (numpy.arange)."""
    return _vkarray._arange(start, stop, step, dtype,
                           context=_context("arange", device, context))


def linspace(start, stop, num=50, endpoint=True, dtype=None, *, device=None,
             context=None):
    """num evenly spaced values from start to stop (numpy.linspace)."""
    return _vkarray._linspace(start, stop, num, endpoint, dtype,
                             context=_context("linspace", device, context))


def eye(N, M=None, k=0, dtype=None, *, device=None, context=None):  # noqa: N803
    """A 2-d array with ones on the k-th diagonal (numpy.eye). A diagonal beyond the matrix
    (any Python int k, however large) leaves it all zeros."""
    k = _operator.index(k)
    if N >= 0 and (M is None or M >= 0):  # else the compiled function names the bad size
        k = max(-N - 1, min(N + 1 if M is None else M + 1, k))
    return _vkarray._eye(N, M, k, dtype, context=_context("eye", device, context))


_ISFINITE = next(row["kernel"] for row in _vkarray._elementwise if row["name"] == "isfinite")


def asanyarray(a, dtype=None):
    """numpy.asanyarray: vkarray has no subclasses, so asarray."""
    return asarray(a, dtype=dtype)


def asarray_chkfinite(a, dtype=None, order=None):
    """numpy.asarray_chkfinite: asarray, raising ValueError if any value is inf or NaN."""
    a = asarray(a, dtype=dtype)
    if a.dtype.kind in "fc" and not bool(_vkarray.all(_ISFINITE(a))):
        raise ValueError("[asarray_chkfinite] array must not contain infs or NaNs")
    return a


def frombuffer(buffer, dtype=float, count=-1, offset=0):
    """numpy.frombuffer on host bytes, uploaded to the device."""
    return asarray(_np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromiter(iter, dtype, count=-1):  # noqa: A002 — numpy's parameter name
    """numpy.fromiter on the host, uploaded to the device."""
    return asarray(_np.fromiter(iter, dtype=dtype, count=count))


def asfarray(a, dtype=_np.float64):
    """numpy.asfarray: a as an array of a floating-point dtype (dtype, or float64 where dtype
    is not inexact)."""
    if not _np.issubdtype(dtype, _np.inexact):
        dtype = _np.float64
    return asarray(a, dtype=dtype)


def asfortranarray(a, dtype=None, *, like=None):
    """numpy.asfortranarray: a laid out in Fortran order (a itself where it already is): the
    transpose of a C-contiguous copy of a's transpose, a view of new device memory."""
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.flags.f_contiguous:
        return a
    return ascontiguousarray(a.T).T


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F",
                 "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W",
                 "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """numpy.require: a as an array of dtype meeting the flag requirements ('C', 'F', 'A',
    'W', 'O', 'E' or their long names), copied only where a does not. vkarray's Fortran-order
    arrays are views, so 'F' with 'O' is refused."""
    if not requirements:
        return asarray(a, dtype=dtype)
    try:  # numpy's: a string is a sequence of one-letter requirements
        req = {_REQUIREMENTS[r.upper()] for r in requirements}
    except KeyError as err:
        raise KeyError(f"[require] unknown requirement {err.args[0]!r}") from None
    req.discard("E")  # vkarray.ndarray has no subclasses: every result is the base class
    if {"C", "F"} <= req:
        raise ValueError('Cannot specify both "C" and "F" order')
    a = asarray(a, dtype=dtype)
    if "F" in req and "O" in req and a.ndim > 1:
        raise ValueError("[require] vkarray's Fortran-order arrays are views of a C-order "
                         "allocation and never own their memory: requirements 'F' and 'O' "
                         "can't both hold")
    if "C" in req:
        a = ascontiguousarray(a)
    elif "F" in req:
        a = asfortranarray(a)
    if ("O" in req and not a.flags.owndata) or ("W" in req and not a.flags.writeable):
        a = asfortranarray(a.copy()) if "F" in req else a.copy()
    return a
