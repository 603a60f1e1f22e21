"""Creation functions with the array API's keywords: ``device=`` (a device string, as
``x.device`` gives, or a Context) beside vkarray's ``context=``, and asarray's ``copy=``.

Each forwards to the compiled function of the same name (vkarray._vkarray) on the context
the device names; without a device or context, the default context."""

import operator as _operator

from . import _info, _vkarray

__all__ = ["asarray", "empty", "zeros", "ones", "full", "empty_like", "zeros_like",
           "ones_like", "full_like", "arange", "linspace", "eye"]


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
            return _vkarray.asarray(obj.get(), dtype, context=ctx)
        out = _vkarray.asarray(obj, dtype)
        if copy is False and out is not obj:
            raise ValueError(f"[asarray] copy=False, but converting {obj.dtype} to "
                             f"{out.dtype} needs a copy")
        if copy and out is obj:
            out = _vkarray.copy(obj)
        return out
    if copy is False:
        raise ValueError(f"[asarray] copy=False, but {type(obj).__name__} data on the host "
                         "must be copied to the device")
    return _vkarray.asarray(obj, dtype, context=ctx)


def empty(shape, dtype=None, *, device=None, context=None):
    """An uninitialized array of shape and dtype (float64 by default) on a device."""
    return _vkarray.empty(shape, dtype, context=_context("empty", device, context))


def zeros(shape, dtype=None, *, device=None, context=None):
    """An array of zeros of shape and dtype (float64 by default) on a device."""
    return _vkarray.zeros(shape, dtype, context=_context("zeros", device, context))


def ones(shape, dtype=None, *, device=None, context=None):
    """An array of ones of shape and dtype (float64 by default) on a device."""
    return _vkarray.ones(shape, dtype, context=_context("ones", device, context))


def full(shape, fill_value, dtype=None, *, device=None, context=None):
    """An array of shape filled with fill_value (dtype: fill_value's by default)."""
    return _vkarray.full(shape, fill_value, dtype, context=_context("full", device, context))


def _like(op, fn, prototype, dtype, shape, device, context, *fill):
    ctx = _context(op, device, context)
    return fn(prototype, *fill, dtype, shape=shape, context=ctx)


def empty_like(prototype, dtype=None, *, shape=None, device=None, context=None):
    """empty() with the shape, dtype and device of prototype."""
    return _like("empty_like", _vkarray.empty_like, prototype, dtype, shape, device, context)


def zeros_like(a, dtype=None, *, shape=None, device=None, context=None):
    """zeros() with the shape, dtype and device of a."""
    return _like("zeros_like", _vkarray.zeros_like, a, dtype, shape, device, context)


def ones_like(a, dtype=None, *, shape=None, device=None, context=None):
    """ones() with the shape, dtype and device of a."""
    return _like("ones_like", _vkarray.ones_like, a, dtype, shape, device, context)


def full_like(a, fill_value, dtype=None, *, shape=None, device=None, context=None):
    """full() with the shape, dtype and device of a."""
    return _like("full_like", _vkarray.full_like, a, dtype, shape, device, context, fill_value)


def arange(start, stop=None, step=1, dtype=None, *, device=None, context=None):
    """Evenly spaced values in [start, stop) (numpy.arange)."""
    return _vkarray.arange(start, stop, step, dtype,
                           context=_context("arange", device, context))


def linspace(start, stop, num=50, endpoint=True, dtype=None, *, device=None,
             context=None):
    """num evenly spaced values from start to stop (numpy.linspace)."""
    return _vkarray.linspace(start, stop, num, endpoint, dtype,
                             context=_context("linspace", device, context))


def eye(N, M=None, k=0, dtype=None, *, device=None, context=None):  # noqa: N803
    """A 2-d array with ones on the k-th diagonal (numpy.eye). A diagonal beyond the matrix
    (any Python int k, however large) leaves it all zeros."""
    k = _operator.index(k)
    if N >= 0 and (M is None or M >= 0):  # else the compiled function names the bad size
        k = max(-N - 1, min(N + 1 if M is None else M + 1, k))
    return _vkarray.eye(N, M, k, dtype, context=_context("eye", device, context))
