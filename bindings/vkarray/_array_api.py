"""The array API standard's (2023.12) data-type functions and names that numpy 1.24 lacks:
finfo, iinfo, isdtype, logaddexp, unstack, newaxis, and ndarray.to_device."""

import builtins as _builtins

import numpy as _np

from . import _info, _vkarray

__all__ = ["__array_api_version__", "newaxis", "finfo", "iinfo", "isdtype", "logaddexp",
           "unstack"]

__array_api_version__ = "2023.12"
newaxis = None


def _dtype_of(x, op):
    """The numpy dtype of a dtype-like or of an array (vkarray or numpy)."""
    if isinstance(x, (_vkarray.ndarray, _np.ndarray)):
        return _np.dtype(x.dtype)
    try:
        return _np.dtype(x)
    except TypeError:
        raise TypeError(f"[{op}] expected a dtype or an array, got {x!r}") from None


class finfo_object:  # noqa: N801
    """Machine limits of a floating-point dtype, as Python floats (the array API's finfo)."""

    __module__ = "vkarray"

    def __init__(self, dtype):
        info = _np.finfo(dtype)
        self._numpy = info
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        self.resolution = float(info.resolution)
        self.dtype = info.dtype.type  # complex64's limits are float32's

    def __getattr__(self, name):  # numpy's other fields (tiny, precision, machep, ...)
        return getattr(self.__dict__["_numpy"], name)

    def __repr__(self):
        return (f"finfo(bits={self.bits}, eps={self.eps!r}, max={self.max!r}, "
                f"min={self.min!r}, smallest_normal={self.smallest_normal!r}, "
                f"dtype={_np.dtype(self.dtype).name})")


class iinfo_object:  # noqa: N801
    """Limits of an integer dtype, as Python ints (the array API's iinfo)."""

    __module__ = "vkarray"

    def __init__(self, dtype):
        info = _np.iinfo(dtype)
        self._numpy = info
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = info.dtype.type

    def __getattr__(self, name):  # numpy's other fields (kind, ...)
        return getattr(self.__dict__["_numpy"], name)

    def __repr__(self):
        return (f"iinfo(bits={self.bits}, min={self.min}, max={self.max}, "
                f"dtype={_np.dtype(self.dtype).name})")


def finfo(type, /):  # noqa: A002 — the array API's parameter name
    """The limits of a real or complex floating-point dtype (or of an array's dtype)."""
    dt = _dtype_of(type, "finfo")
    if dt.kind not in "fc":
        raise ValueError(f"[finfo] {dt.name} is not a floating-point dtype")
    return finfo_object(dt)


def iinfo(type, /):  # noqa: A002
    """The limits of an integer dtype (or of an array's dtype)."""
    dt = _dtype_of(type, "iinfo")
    if dt.kind not in "iu":
        raise ValueError(f"[iinfo] {dt.name} is not an integer dtype")
    return iinfo_object(dt)


def isdtype(dtype, kind):
    """Whether dtype is of kind: a dtype, a kind name ("bool", "signed integer", "unsigned
    integer", "integral", "real floating", "complex floating", "numeric") or a tuple of
    them."""
    if isinstance(dtype, (_vkarray.ndarray, _np.ndarray)) or dtype is None:
        raise TypeError(f"[isdtype] expected a dtype, got {type(dtype).__name__}")
    dt = _np.dtype(dtype)
    if isinstance(kind, tuple):
        return _builtins.any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        return dt.name in _info._kinds(kind)
    try:
        return dt == _np.dtype(kind)
    except TypeError:
        raise TypeError(f"[isdtype] kind must be a dtype, a kind name or a tuple of them, "
                        f"not {kind!r}") from None


def _operand_dtype(x):
    """What numpy's type resolution sees of an operand: an empty array of its dtype, or a
    Python scalar itself (value-based, as numpy 1.24 treats scalars)."""
    if isinstance(x, (_vkarray.ndarray, _np.ndarray, _np.generic)):
        return _np.empty(0, _np.dtype(x.dtype))
    return x


def logaddexp(x1, x2, /, out=None, *, dtype=None):
    """numpy.logaddexp: log(exp(x1) + exp(x2)) without overflow, as one fused expression:
    max(x1, x2) + log1p(exp(-|x1 - x2|)), and x1 + log(2) where x1 == x2 (so that equal
    infinities give themselves, not NaN)."""
    try:
        dt = _np.logaddexp(_operand_dtype(x1), _operand_dtype(x2), dtype=dtype).dtype
    except TypeError as e:
        raise TypeError(f"[logaddexp] {e}") from None
    a = _vkarray.astype(_vkarray.asarray(x1), dt, copy=False)
    b = _vkarray.astype(_vkarray.asarray(x2), dt, copy=False)
    m = _vkarray._ufuncs["maximum"](a, b)
    d = _vkarray._ufuncs["absolute"](a - b)
    r = _vkarray._ufuncs["where"](a == b, a + _np.log(2.0).astype(dt),
                                  m + _vkarray._ufuncs["log1p"](
                                      _vkarray._ufuncs["exp"](-d)))
    if out is not None:
        out[...] = r
        return out
    return r


def unstack(x, /, *, axis=0):
    """The array API's unstack: the views x[..., i, ...] along axis, as a tuple."""
    x = _vkarray.asarray(x)
    if x.ndim == 0:
        raise ValueError("[unstack] cannot unstack a 0-d array")
    if not -x.ndim <= axis < x.ndim:
        raise _np.AxisError(f"[unstack] axis {axis} is out of bounds for array of dimension "
                            f"{x.ndim}")
    v = _vkarray.moveaxis(x, axis, 0)
    return tuple(v[i] for i in range(v.shape[0]))


def _to_device(self, device, /, *, stream=None):
    """The array on device: itself where it already lives there, else a copy through the
    host onto that device's context."""
    if stream is not None:
        raise ValueError("[to_device] vkarray has no streams: stream must be None")
    if device == self.device:
        return self
    return _vkarray.asarray(self.get(), context=_info.context_for(device, "to_device"))


if not hasattr(_vkarray.ndarray, "to_device"):  # a Device-aware one may be installed already
    _vkarray.ndarray.to_device = _to_device
