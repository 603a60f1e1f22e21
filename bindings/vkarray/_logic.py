"""numpy's logic functions: truth testing (the compiled all and any), comparison (isclose,
allclose, array_equal, array_equiv), array contents (iscomplex, isreal, isposinf, isneginf;
isfinite, isinf and isnan are op-table ufuncs in _math.py) and type testing (iscomplexobj,
isrealobj, isscalar)."""

import numpy as _np

from . import _math, _vkarray
from ._creation import ones, zeros
from ._dtypes import astype
from ._shaping import _asarray, _asarrays
from ._vkarray import all, any  # noqa: A004 — numpy's names

__all__ = [
    "all", "any", "isclose", "allclose", "array_equal", "array_equiv", "iscomplex", "isreal",
    "isposinf", "isneginf", "iscomplexobj", "isrealobj", "isscalar", "alltrue", "sometrue",
    "isfortran",
]

alltrue = all  # numpy's older spellings
sometrue = any


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.isclose: |a - b| <= atol + rtol * |b| elementwise, infinities equal only to
    themselves, NaNs equal when equal_nan (numpy's formula, in numpy's float dtype)."""
    a, b = _asarrays("isclose", [a, b])
    try:
        _np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"[isclose] operands could not be broadcast together with shapes "
                         f"{a.shape} {b.shape}") from None
    t = _np.result_type(b.dtype, 1.0)
    a, b = astype(a, _np.result_type(a.dtype, t)), astype(b, t)
    finite = _math.isfinite(a) & _math.isfinite(b)
    close = _math.abs(a - b) <= atol + rtol * _math.abs(b)
    r = _math.where(finite, close, a == b)
    if equal_nan:
        r = r | (_math.isnan(a) & _math.isnan(b))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.allclose: a Python bool, all(isclose(...))."""
    return bool(_vkarray.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """numpy.array_equal: same shape and all elements equal (a Python bool)."""
    a1, a2 = _asarrays("array_equal", [a1, a2])
    if a1.shape != a2.shape:
        return False
    eq = a1 == a2
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        eq = eq | (_math.isnan(a1) & _math.isnan(a2))
    return bool(_vkarray.all(eq))


def array_equiv(a1, a2):
    """numpy.array_equiv: broadcastable to one shape and all elements equal."""
    a1, a2 = _asarrays("array_equiv", [a1, a2])
    try:
        _np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(_vkarray.all(a1 == a2))


def isscalar(element):
    """numpy.isscalar: True for Python and numpy scalars; vkarray arrays (0-d too) are not."""
    return not isinstance(element, _vkarray.ndarray) and _np.isscalar(element)


def iscomplex(x):
    """numpy.iscomplex: imaginary part nonzero (all False for real input)."""
    x = _asarray(x)
    if x.dtype.kind != "c":
        return zeros(x.shape, dtype=_np.bool_)
    return _math.imag(x) != 0


def isreal(x):
    """numpy.isreal: imaginary part zero (all True for real input)."""
    x = _asarray(x)
    if x.dtype.kind != "c":
        return ones(x.shape, dtype=_np.bool_)
    return _math.imag(x) == 0


def isposinf(x, out=None):
    """numpy.isposinf: +inf (real input only)."""
    x = _asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("[isposinf] This operation is not supported for complex values "
                        "because it would be ambiguous.")
    r = (_math.isinf(x) & ~_math.signbit(x) if x.dtype.kind == "f"
         else zeros(x.shape, dtype=_np.bool_))
    return _vkarray._finish(r, out, op="isposinf")


def isneginf(x, out=None):
    """numpy.isneginf: -inf (real input only)."""
    x = _asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("[isneginf] This operation is not supported for complex values "
                        "because it would be ambiguous.")
    r = (_math.isinf(x) & _math.signbit(x) if x.dtype.kind == "f"
         else zeros(x.shape, dtype=_np.bool_))
    return _vkarray._finish(r, out, op="isneginf")


def iscomplexobj(x):
    """numpy.iscomplexobj: the dtype (of an array, or numpy's for other input) is complex."""
    dtype = x.dtype if hasattr(x, "dtype") else _np.asarray(x).dtype
    return _np.dtype(dtype).kind == "c"


def isrealobj(x):
    """numpy.isrealobj: not iscomplexobj."""
    return not iscomplexobj(x)


def isfortran(a):
    """numpy.isfortran: whether a is Fortran-contiguous and not C-contiguous (a view's
    layout; vkarray.asfortranarray makes one)."""
    if not isinstance(a, _vkarray.ndarray):
        return _np.isfortran(a)
    return a.flags.fnc
