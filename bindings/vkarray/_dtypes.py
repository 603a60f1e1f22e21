"""dtypes, numpy's constants and the dtype routines: vkarray's dtypes are numpy's own scalar
types (so they compare and hash exactly like numpy's and any numpy dtype-like is accepted
wherever a dtype is); finfo, iinfo and isdtype are the array API standard's (2023.12), with
numpy's other fields; result_type and can_cast follow numpy 2's promotion (NEP 50)."""

import builtins as _builtins

import numpy as _np

from . import _info, _vkarray
from ._vkarray import can_cast, result_type

__all__ = [
    "dtype", "bool_", "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
    "uint64", "float16", "float32", "float64", "complex64", "complex128", "pi", "e", "inf",
    "nan", "newaxis", "finfo", "iinfo", "isdtype", "issubdtype", "promote_types",
    "result_type", "can_cast", "common_type", "astype",
    # numpy's other names of vkarray's dtypes and the abstract scalar types.
    "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "uint", "intp", "uintp",
    "longlong", "ulonglong", "half", "single", "double", "float_", "csingle", "singlecomplex",
    "cdouble", "cfloat", "complex_", "generic", "number", "integer", "signedinteger",
    "unsignedinteger", "inexact", "floating", "complexfloating", "flexible", "character",
    # numpy's dtype routines beyond the array API's.
    "min_scalar_type", "find_common_type", "maximum_sctype", "issctype", "obj2sctype",
    "sctype2char", "issubsctype", "issubclass_", "mintypecode", "typename",
]

__array_api_version__ = "2023.12"

dtype = _np.dtype
bool_ = _np.bool_
bool = _np.bool_  # noqa: A001 — numpy 2 and the array API name it `bool`
int8 = _np.int8
uint8 = _np.uint8
int16 = _np.int16
uint16 = _np.uint16
int32 = _np.int32
uint32 = _np.uint32
int64 = _np.int64
uint64 = _np.uint64
float16 = _np.float16
float32 = _np.float32
float64 = _np.float64
complex64 = _np.complex64
complex128 = _np.complex128

# numpy's C-named scalar types are its own objects, so each compares with the dtype it names
# (vkarray.double is numpy.float64; vkarray.longlong is numpy.longlong, an int64). numpy's
# extended-precision, string, object, structured and datetime types are left out (_absent.py).
byte, ubyte, short, ushort = _np.byte, _np.ubyte, _np.short, _np.ushort
intc, uintc, int_, uint = _np.intc, _np.uintc, _np.int_, _np.uint
intp, uintp, longlong, ulonglong = _np.intp, _np.uintp, _np.longlong, _np.ulonglong
half, single, double, float_ = _np.half, _np.single, _np.double, _np.float_
csingle, singlecomplex = _np.csingle, _np.singlecomplex
cdouble, cfloat, complex_ = _np.cdouble, _np.cfloat, _np.complex_
# The abstract classes of numpy's scalar hierarchy, for issubdtype(x.dtype, vkarray.floating).
generic, number, integer = _np.generic, _np.number, _np.integer
signedinteger, unsignedinteger = _np.signedinteger, _np.unsignedinteger
inexact, floating, complexfloating = _np.inexact, _np.floating, _np.complexfloating
flexible, character = _np.flexible, _np.character

pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan
newaxis = None

# numpy's dtype helpers work on dtypes alone: vkarray's dtypes are numpy's, so these are too.
issubdtype = _np.issubdtype
promote_types = _np.promote_types


def _dtype_of(x, op):
    """The numpy dtype of a dtype-like or of an array (vkarray or numpy)."""
    if isinstance(x, (_vkarray.ndarray, _np.ndarray)):
        return _np.dtype(x.dtype)
    try:
        return _np.dtype(x)
    except TypeError:
        raise TypeError(f"[{op}] expected a dtype or an array, got {x!r}") from None


class _Limits:
    """The array API's limits of a dtype: `_FLOATS` and `_INTS` of numpy's fields as Python
    floats and ints, numpy's other fields from numpy's own object."""

    __module__ = "vkarray"
    _FLOATS, _INTS = (), ()

    def __init__(self, info):
        self._numpy = info
        for field in self._FLOATS:
            setattr(self, field, float(getattr(info, field)))
        for field in self._INTS:
            setattr(self, field, int(getattr(info, field)))
        self.dtype = info.dtype.type  # complex64's limits are float32's

    def __getattr__(self, name):  # numpy's other fields (tiny, precision, kind, ...)
        return getattr(self.__dict__["_numpy"], name)


class finfo_object(_Limits):  # noqa: N801
    """Machine limits of a floating-point dtype, as Python floats (the array API's finfo)."""

    _FLOATS = ("eps", "max", "min", "smallest_normal", "resolution")
    _INTS = ("bits",)

    def __init__(self, dtype):
        super().__init__(_np.finfo(dtype))

    def __repr__(self):
        return (f"finfo(bits={self.bits}, eps={self.eps!r}, max={self.max!r}, "
                f"min={self.min!r}, smallest_normal={self.smallest_normal!r}, "
                f"dtype={_np.dtype(self.dtype).name})")


class iinfo_object(_Limits):  # noqa: N801
    """Limits of an integer dtype, as Python ints (the array API's iinfo)."""

    _INTS = ("bits", "max", "min")

    def __init__(self, dtype):
        super().__init__(_np.iinfo(dtype))

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


def common_type(*arrays):
    """numpy.common_type: the inexact scalar type of the arrays' dtypes."""
    return _np.common_type(*[_np.empty(0, a.dtype) for a in arrays])


def astype(x, dtype, /, *, copy=True, device=None):
    """The array API's astype(x, dtype): x converted to dtype with numpy's casting results (a
    new array unless copy=False and dtype is x's), on device."""
    if not isinstance(x, _vkarray.ndarray):
        raise TypeError(f"[astype] expected a vkarray.ndarray, got {type(x)}")
    r = x.astype(dtype, copy=copy)
    if device is not None and device != r.device:
        r = _vkarray._asarray(r.get(), context=_info.context_for(device, "astype"))
    return r


def _dtype_stand_in(x):
    """x with each vkarray array (in lists and tuples too) replaced by an empty numpy array of
    its dtype: numpy's dtype routines read only dtypes, never values."""
    if isinstance(x, _vkarray.ndarray):
        return _np.empty(0, x.dtype)
    if isinstance(x, (list, tuple)):
        return type(x)(_dtype_stand_in(v) for v in x)
    return x


def _on_dtypes(numpy_fn):
    """numpy's dtype routine numpy_fn, taking vkarray arrays for their dtypes."""
    def fn(*args, **kwargs):
        return numpy_fn(*[_dtype_stand_in(a) for a in args],
                        **{k: _dtype_stand_in(v) for k, v in kwargs.items()})
    fn.__name__ = fn.__qualname__ = numpy_fn.__name__
    fn.__doc__ = (f"numpy.{numpy_fn.__name__} (numpy's own, on dtypes): vkarray arrays are "
                  f"read for their dtypes only.")
    fn.__wrapped__ = numpy_fn
    return fn


find_common_type = _on_dtypes(_np.find_common_type)
issctype = _on_dtypes(_np.issctype)
obj2sctype = _on_dtypes(_np.obj2sctype)
sctype2char = _on_dtypes(_np.sctype2char)
issubsctype = _on_dtypes(_np.issubsctype)
mintypecode = _on_dtypes(_np.mintypecode)
issubclass_ = _np.issubclass_  # on Python classes only
typename = _np.typename  # on type characters only


def min_scalar_type(a, /):
    """numpy.min_scalar_type: the smallest dtype that holds a's value (a Python or numpy
    scalar, or a 0-d vkarray array, whose one value is read to the host as float(a) would),
    or the dtype of an array with dimensions, unchanged."""
    if isinstance(a, _vkarray.ndarray):
        return _np.min_scalar_type(a.get() if a.ndim == 0 else _np.empty(0, a.dtype))
    return _np.min_scalar_type(a)


_WIDEST = {"b": _np.bool_, "i": _np.int64, "u": _np.uint64, "f": _np.float64,
           "c": _np.complex128}


def maximum_sctype(t):
    """numpy.maximum_sctype: the widest vkarray scalar type of t's kind (float64 and
    complex128: vkarray's devices have no extended precision); t itself where its kind has
    none."""
    dt = _dtype_of(t, "maximum_sctype") if not isinstance(t, type) else _np.dtype(t)
    return _WIDEST.get(dt.kind, dt.type)
