"""Array creation from data and from shapes: the array type, numpy's creation functions with
the array API's keywords (``device=``, a device string as ``x.device`` gives or a Context,
beside vkarray's ``context=``; asarray's ``copy=``), and the conversions from host data.

``order='F'`` gives an array in Fortran order: a C-ordered buffer of the reversed shape seen
through its transpose (a view), so the first index varies fastest in memory. 'A' and 'K' keep
a host array's Fortran order; a vkarray array keeps its layout.

Each keyword form forwards to the compiled function (vkarray._vkarray._<name>) on the context
the device names; without a device or context, the default context."""

import operator as _operator

import numpy as _np

from . import _info, _vkarray
from ._vkarray import ascontiguousarray, copy, identity, ndarray

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


def _order(order, op, keep):
    """numpy's order= checked and upper-cased: 'C' or 'F', or where the order of the data is
    kept (`keep`: asarray, array, the *_like functions) also 'A' and 'K' (None: 'K');
    elsewhere None means 'C'."""
    if order is None:
        return "K" if keep else "C"
    o = order.upper() if isinstance(order, str) else None
    if o not in ("C", "F", "A", "K"):
        raise ValueError(f"[{op}] order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if not keep and o in ("A", "K"):
        raise ValueError(f"[{op}] only 'C' or 'F' order is permitted")
    return o


def _shape_tuple(shape):
    return tuple(shape) if hasattr(shape, "__len__") else (_operator.index(shape),)


def _fortran_new(make, shape):
    """make(shape) in Fortran order: make builds the reversed shape in C order, and the
    result is its transpose (a view; nothing is copied)."""
    shape = _shape_tuple(shape)
    return make(shape) if len(shape) < 2 else make(shape[::-1]).T


def _fortran_copy(x):
    """x's values in a new Fortran-ordered array (x itself when it has fewer than 2 axes)."""
    return x if x.ndim < 2 else _vkarray.ascontiguousarray(x.T).T


def _host_fortran(obj, order):
    """Whether order 'A'/'K' keeps obj in Fortran order: a host array that is F- but not
    C-contiguous."""
    flags = getattr(obj, "flags", None)
    return (order in ("A", "K") and isinstance(obj, _np.ndarray) and flags.f_contiguous
            and not flags.c_contiguous)


def _upload_fortran(obj, dtype, ctx):
    """Host data uploaded into Fortran order: its transpose is C-contiguous (no host copy
    where obj already is in Fortran order), uploaded as it is and seen through a transpose
    on the device (a view: no kernel)."""
    host = _np.asfortranarray(obj)
    if host.ndim < 2:
        return _vkarray._asarray(host, dtype, context=ctx)
    return _vkarray._asarray(host.T, dtype, context=ctx).T


def asarray(obj, dtype=None, order=None, *, device=None, copy=None, context=None):
    """An array of obj (a vkarray array, numpy array, nested sequence or scalar) with dtype,
    on a device, in `order` (see above). copy=True always makes a new array; copy=False never
    copies and raises ValueError where a copy is needed (any host data, another dtype or
    device, order='F' of a vkarray array with 2 or more axes); copy=None copies only where
    needed."""
    order = _order(order, "asarray", True)
    if order == "F" or _host_fortran(obj, order):
        if not isinstance(obj, _vkarray.ndarray):
            if copy is False:
                raise ValueError(f"[asarray] copy=False, but {type(obj).__name__} data on the "
                                 "host must be copied to the device")
            return _upload_fortran(obj, dtype, _context("asarray", device, context))
        out = asarray(obj, dtype, "C", device=device, copy=copy, context=context)
        if out.ndim > 1 and copy is False:
            raise ValueError("[asarray] copy=False, but order='F' needs a copy")
        return _fortran_copy(out)
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


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0,  # noqa: A002
          device=None, context=None):
    """numpy.array: a new array of object's values (copy=False: object itself where no copy
    is needed), with at least ndmin axes (ones prepended), in `order` (see above). subok is
    accepted: vkarray has no subclasses."""
    order = _order(order, "array", True)
    fortran = order == "F" or _host_fortran(object, order)
    if fortran and not isinstance(object, _vkarray.ndarray) and _np.ndim(object) >= ndmin:
        return _upload_fortran(object, dtype, _context("array", device, context))
    if copy:
        out = _vkarray._array(object, dtype, context=_context("array", device, context))
    else:
        out = asarray(object, dtype, device=device, context=context)
    if out.ndim < ndmin:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return _fortran_copy(out) if fortran else out


def _new(op, fn, shape, order, device, context, *args):
    ctx = _context(op, device, context)
    make = lambda s: fn(s, *args, context=ctx)  # noqa: E731
    return _fortran_new(make, shape) if _order(order, op, False) == "F" else make(shape)


def empty(shape, dtype=None, order="C", *, device=None, context=None):
    """An uninitialized array of shape and dtype (float64 by default) on a device."""
    return _new("empty", _vkarray._empty, shape, order, device, context, dtype)


def zeros(shape, dtype=None, order="C", *, device=None, context=None):
    """An array of zeros of shape and dtype (float64 by default) on a device."""
    return _new("zeros", _vkarray._zeros, shape, order, device, context, dtype)


def ones(shape, dtype=None, order="C", *, device=None, context=None):
    """An array of ones of shape and dtype (float64 by default) on a device."""
    return _new("ones", _vkarray._ones, shape, order, device, context, dtype)


def full(shape, fill_value, dtype=None, order="C", *, device=None, context=None):
    """An array of shape filled with fill_value (dtype: fill_value's by default)."""
    return _new("full", _vkarray._full, shape, order, device, context, fill_value, dtype)


def _like(op, fn, prototype, dtype, order, shape, device, context, *fill):
    ctx = _context(op, device, context)
    make = lambda s: fn(prototype, *fill, dtype, shape=s, context=ctx)  # noqa: E731
    order = _order(order, op, True)
    if order == "F" or _host_fortran(prototype, order):
        return _fortran_new(make, _np.shape(prototype) if shape is None else shape)
    return make(shape)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None,
               context=None):
    """empty() with the shape, dtype and device of prototype (subok: no subclasses exist)."""
    return _like("empty_like", _vkarray._empty_like, prototype, dtype, order, shape, device,
                 context)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None, context=None):
    """zeros() with the shape, dtype and device of a."""
    return _like("zeros_like", _vkarray._zeros_like, a, dtype, order, shape, device, context)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None, context=None):
    """ones() with the shape, dtype and device of a."""
    return _like("ones_like", _vkarray._ones_like, a, dtype, order, shape, device, context)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None,
              context=None):
    """full() with the shape, dtype and device of a."""
    return _like("full_like", _vkarray._full_like, a, dtype, order, shape, device, context,
                 fill_value)


def arange(start, stop=None, step=1, dtype=None, *, device=None, context=None):
    """Evenly spaced values in [start, stop) (numpy.arange). A complex dtype holds the real
    sequence (computed in the matching float dtype); bool is the integer sequence cast, for
    at most 2 values, as numpy allows."""
    ctx = _context("arange", device, context)
    kind = None if dtype is None else _np.dtype(dtype).kind
    real_args = not any(isinstance(v, complex) or _np.iscomplexobj(v)
                        for v in (start, stop, step))
    if kind == "c" and real_args:
        real = _np.float32 if _np.dtype(dtype) == _np.complex64 else _np.float64
        return _vkarray._arange(start, stop, step, real, context=ctx).astype(dtype)
    if kind == "b" and real_args:
        r = _vkarray._arange(start, stop, step, _np.int64, context=ctx)
        if r.shape[0] > 2:
            raise TypeError("[arange] arange() is only supported for booleans when the result "
                            "has at most length 2.")
        return r.astype(_np.bool_)
    return _vkarray._arange(start, stop, step, dtype, context=ctx)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None, context=None):
    """num evenly spaced values from start to stop (numpy.linspace); with retstep, also the
    spacing (NaN when there is no interval: num 0, or 1 with endpoint). Array-like or
    complex start and stop give one sequence per element, along `axis`, by numpy's formula."""
    num = _operator.index(num)
    if num < 0:
        raise ValueError(f"[linspace] Number of samples, {num}, must be non-negative.")
    ctx = _context("linspace", device, context)
    div = num - 1 if endpoint else num
    complex_ends = _np.iscomplexobj(start) or _np.iscomplexobj(stop)
    if _np.ndim(start) == 0 and _np.ndim(stop) == 0 and not complex_ends:
        if isinstance(start, ndarray) or isinstance(stop, ndarray):
            start, stop = start[()].item(), stop[()].item()  # a 0-d device array's value
        if dtype is not None and _np.dtype(dtype).kind == "b":  # the float values, cast
            y = _vkarray._linspace(start, stop, num, endpoint, None, context=ctx).astype(dtype)
        else:
            y = _vkarray._linspace(start, stop, num, endpoint, dtype, context=ctx)
        if not retstep:
            return y
        with _np.errstate(all="ignore"):
            delta = _np.asarray(stop) * 1.0 - _np.asarray(start) * 1.0
            return y, (delta / div if div > 0 else _np.nan * delta)
    return _linspace_arrays(start, stop, num, div, endpoint, retstep, dtype, axis, ctx)


def _linspace_arrays(start, stop, num, div, endpoint, retstep, dtype, axis, ctx):
    """numpy 1.24's linspace of array endpoints: arange(num) scaled by the step (or by
    delta / div where a step is 0) plus start, the last row set to stop."""
    start = asarray(start, context=ctx) * 1.0
    stop = asarray(stop, context=ctx) * 1.0
    dt = _vkarray.result_type(start, stop, float(num))
    delta = stop - start
    y = _vkarray.reshape(arange(0, num, 1, dt, context=ctx),
                         (-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        y = y / div * delta if bool(_vkarray.any(step == 0)) else y * step
    else:
        step = delta * _np.nan
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y[-1, ...] = stop
    y = _vkarray.moveaxis(y, 0, axis)
    if dtype is not None and _np.issubdtype(dtype, _np.integer):
        y = y // 1  # numpy floors before the cast to an integer dtype
    y = y.astype(dt if dtype is None else dtype)
    return (y, step) if retstep else y


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None, context=None):  # noqa: N803
    """A 2-d array with ones on the k-th diagonal (numpy.eye). A diagonal beyond the matrix
    (any Python int k, however large) leaves it all zeros."""
    k = _operator.index(k)
    fortran = _order(order, "eye", False) == "F"
    if N >= 0 and (M is None or M >= 0):  # else the compiled function names the bad size
        k = max(-N - 1, min(N + 1 if M is None else M + 1, k))
    out = _vkarray._eye(N, M, k, dtype, context=_context("eye", device, context))
    return _fortran_copy(out) if fortran else out


_ISFINITE = next(row["kernel"] for row in _vkarray._elementwise if row["name"] == "isfinite")


def asanyarray(a, dtype=None, order=None):
    """numpy.asanyarray: vkarray has no subclasses, so asarray."""
    return asarray(a, dtype, order)


def asarray_chkfinite(a, dtype=None, order=None):
    """numpy.asarray_chkfinite: asarray, raising ValueError if any value is inf or NaN."""
    a = asarray(a, dtype, order)
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
