"""numpy's elementwise functions that vkarray composes from the op table's primitives (lazy,
fused with their neighbours): divmod, modf, fmod, float_power, degrees/radians, cbrt, logaddexp,
logaddexp2, fabs, heaviside, sinc, angle, nan_to_num, fix and the complex/infinity tests. The
ufunc-named ones also serve numpy's ufuncs through __array_ufunc__ (np.fmod(x, y))."""

import numpy as _np

from ._namespace import vk as _vk
from ._shaping import _asarray, _context

__all__ = [
    "divmod", "modf", "fmod", "float_power", "deg2rad", "rad2deg", "degrees", "radians",
    "cbrt", "logaddexp", "logaddexp2", "fabs", "heaviside", "sinc", "angle", "nan_to_num",
    "fix", "iscomplex", "isreal", "isneginf", "isposinf", "iscomplexobj", "isrealobj",
]

# numpy ufuncs among these, with their number of outputs (two for divmod and modf).
UFUNCS = ["divmod", "modf", "fmod", "float_power", "deg2rad", "rad2deg", "degrees", "radians",
          "cbrt", "logaddexp", "logaddexp2", "fabs", "heaviside"]

_LN2 = 0.693147180559945309417232121458176568
_LOG2E = 1.442695040888963407359924681001892137


def _arrays(*xs):
    ctx = _context(xs)
    return [_asarray(x, ctx) if not _np.isscalar(x) or isinstance(x, _vk.ndarray) else x
            for x in xs]


def _float_of(x, op, complex_ok=True):
    """x in the float dtype numpy's unary float ufuncs give it (int8 → float16, int32 →
    float64, ...); TypeError for complex where numpy has no loop."""
    x = _asarray(x)
    kind = x.dtype.kind
    if kind == "c" and not complex_ok:
        raise TypeError(f"[{op}] ufunc '{op}' not supported for the input type complex "
                        f"({x.dtype})")
    to = _np.sqrt(_np.zeros((), x.dtype)).dtype
    return x if x.dtype == to else _vk.astype(x, to)


def _finish(result, out, dtype, op):
    if dtype is not None:
        result = _vk.astype(result, dtype)
    if out is None:
        return result
    if isinstance(out, tuple):
        out = out[0]
    if not isinstance(out, _vk.ndarray):
        raise TypeError(f"[{op}] out must be a vkarray.ndarray, got {type(out).__name__}")
    if not _vk.can_cast(result.dtype, out.dtype, casting="same_kind"):
        raise TypeError(f"[{op}] cannot cast the result from {result.dtype} to out's dtype "
                        f"{out.dtype} with casting rule 'same_kind'")
    out[...] = result
    return out


def divmod(x1, x2, out1=None, out2=None, /, out=(None, None)):
    """numpy.divmod: (x1 // x2, x1 % x2), one fused expression."""
    x1, x2 = _arrays(x1, x2)
    outs = out if out != (None, None) else (out1, out2)
    return (_finish(_vk.floor_divide(x1, x2), outs[0], None, "divmod"),
            _finish(_vk.remainder(x1, x2), outs[1], None, "divmod"))


def modf(x, out1=None, out2=None, /, out=(None, None)):
    """numpy.modf: (fractional part, integral part), both with x's sign; modf(±inf) is
    (±0, ±inf)."""
    x = _float_of(x, "modf", complex_ok=False)
    whole = _vk.trunc(x)
    frac = _vk.copysign(_vk.where(_vk.isinf(x), _vk.zeros((), x.dtype), x - whole), x)
    outs = out if out != (None, None) else (out1, out2)
    return _finish(frac, outs[0], None, "modf"), _finish(whole, outs[1], None, "modf")


def fmod(x1, x2, /, out=None, *, dtype=None):
    """numpy.fmod: the remainder with the sign of x1 (C's fmod), from numpy's floored
    remainder: equal where the signs agree, otherwise off by one x2."""
    x1, x2 = _arrays(x1, x2)
    if _vk.result_type(x1, x2).kind == "c":
        raise TypeError("[fmod] ufunc 'fmod' not supported for complex inputs")
    r = _vk.remainder(x1, x2)
    fix = (r != 0) & ((r < 0) != (x1 < 0))
    r = _vk.where(fix, r - x2, r)
    if _vk.result_type(x1, x2).kind == "f":
        r = _vk.copysign(_vk.where(_vk.isinf(x2) & _vk.isfinite(x1), x1 + 0 * r, r), x1)
    return _finish(r, out, dtype, "fmod")


def float_power(x1, x2, /, out=None, *, dtype=None):
    """numpy.float_power: x1 ** x2 computed in float64 (complex128 for complex inputs)."""
    x1, x2 = _arrays(x1, x2)
    big = _np.complex128 if _vk.result_type(x1, x2).kind == "c" else _np.float64
    return _finish(_vk.power(_vk.asarray(x1, dtype=big), _vk.asarray(x2, dtype=big)), out,
                   dtype, "float_power")


def deg2rad(x, /, out=None, *, dtype=None):
    """numpy.deg2rad: x * (pi / 180) in x's float dtype."""
    return _finish(_float_of(x, "deg2rad", False) * (_np.pi / 180.0), out, dtype, "deg2rad")


def rad2deg(x, /, out=None, *, dtype=None):
    """numpy.rad2deg: x * (180 / pi) in x's float dtype."""
    return _finish(_float_of(x, "rad2deg", False) * (180.0 / _np.pi), out, dtype, "rad2deg")


radians = deg2rad
degrees = rad2deg


def cbrt(x, /, out=None, *, dtype=None):
    """numpy.cbrt: the real cube root; exp(log|x| / 3) refined by one Newton step."""
    x = _float_of(x, "cbrt", complex_ok=False)
    a = _vk.abs(x)
    y = _vk.exp(_vk.log(a) / 3)
    y = y - (y * y * y - a) / (3 * y * y)
    y = _vk.where((a == 0) | _vk.isinf(a) | _vk.isnan(a), a, y)
    return _finish(_vk.copysign(y, x), out, dtype, "cbrt")


def logaddexp(x1, x2, /, out=None, *, dtype=None):
    """numpy.logaddexp: log(exp(x1) + exp(x2)) without overflow, as numpy computes it."""
    x1, x2 = _arrays(x1, x2)
    x1, x2 = _float_of(x1, "logaddexp", False), _float_of(x2, "logaddexp", False)
    d = x1 - x2
    r = _vk.where(d > 0, x1 + _vk.log1p(_vk.exp(-d)), x2 + _vk.log1p(_vk.exp(d)))
    r = _vk.where(x1 == x2, x1 + _LN2, _vk.where(_vk.isnan(d), d, r))
    return _finish(r, out, dtype, "logaddexp")


def logaddexp2(x1, x2, /, out=None, *, dtype=None):
    """numpy.logaddexp2: log2(2**x1 + 2**x2) without overflow, as numpy computes it."""
    x1, x2 = _arrays(x1, x2)
    x1, x2 = _float_of(x1, "logaddexp2", False), _float_of(x2, "logaddexp2", False)
    d = x1 - x2
    r = _vk.where(d > 0, x1 + _LOG2E * _vk.log1p(_vk.exp2(-d)),
                  x2 + _LOG2E * _vk.log1p(_vk.exp2(d)))
    r = _vk.where(x1 == x2, x1 + 1, _vk.where(_vk.isnan(d), d, r))
    return _finish(r, out, dtype, "logaddexp2")


def fabs(x, /, out=None, *, dtype=None):
    """numpy.fabs: the absolute value as a float (complex is refused, as numpy does)."""
    return _finish(_vk.abs(_float_of(x, "fabs", complex_ok=False)), out, dtype, "fabs")


def heaviside(x1, x2, /, out=None, *, dtype=None):
    """numpy.heaviside: 0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0, nan where x1 is."""
    x1, x2 = _arrays(x1, x2)
    t = _vk.result_type(x1, x2)
    if t.kind not in "f":
        t = _np.result_type(t, _np.float16)
    if t.kind == "c":
        raise TypeError("[heaviside] ufunc 'heaviside' not supported for complex inputs")
    one, zero = _vk.ones((), t), _vk.zeros((), t)
    r = _vk.where(x1 < 0, zero, _vk.where(x1 > 0, one, _vk.astype(_asarray(x2), t)))
    r = _vk.where(_vk.isnan(x1), _vk.astype(_asarray(x1), t), r)
    return _finish(r, out, dtype, "heaviside")


def sinc(x):
    """numpy.sinc: sin(pi x) / (pi x), 1 at 0 (numpy's formula: x = 0 replaced by 1e-20)."""
    x = _asarray(x)
    if x.dtype.kind not in "fc":
        x = _vk.astype(x, _np.float64)
    y = _np.pi * _vk.where(x == 0, 1.0e-20, x)
    return _vk.sin(y) / y


def angle(z, deg=False):
    """numpy.angle: the counterclockwise angle from the positive real axis (float64 for
    real integer input)."""
    z = _asarray(z)
    if z.dtype.kind == "c":
        re, im = _vk.real(z), _vk.imag(z)
    else:
        re = z if z.dtype.kind == "f" else _vk.astype(z, _np.float64)
        im = _vk.zeros((), re.dtype)
    a = _vk.arctan2(im, re)
    return a * (180 / _np.pi) if deg else a


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """numpy.nan_to_num: nan → `nan`, +inf → `posinf` (default the dtype's largest), -inf →
    `neginf` (default the most negative); complex parts separately; others unchanged."""
    x = _asarray(x)
    if x.dtype.kind not in "fc":
        return _vk.copy(x) if copy else x

    def fix(part):
        info = _np.finfo(part.dtype)
        hi = info.max if posinf is None else posinf
        lo = info.min if neginf is None else neginf
        r = _vk.where(_vk.isnan(part), _vk.asarray(nan, dtype=part.dtype), part)
        r = _vk.where(_vk.isinf(r) & (r > 0), _vk.asarray(hi, dtype=part.dtype), r)
        return _vk.where(_vk.isinf(r) & (r < 0), _vk.asarray(lo, dtype=part.dtype), r)

    if x.dtype.kind == "c":
        r = _vk.astype(fix(_vk.real(x)), x.dtype) + 1j * _vk.astype(fix(_vk.imag(x)), x.dtype)
        r = _vk.astype(r, x.dtype)
    else:
        r = fix(x)
    if not copy:
        x[...] = r
        return x
    return r


def fix(x, out=None):
    """numpy.fix: round toward zero (floats; integers as floats, as numpy's floor/ceil)."""
    x = _asarray(x)
    if x.dtype.kind not in "f":
        x = _float_of(x, "fix", complex_ok=False)
    return _finish(_vk.trunc(x), out, None, "fix")


def iscomplex(x):
    """numpy.iscomplex: imaginary part nonzero (all False for real input)."""
    x = _asarray(x)
    if x.dtype.kind != "c":
        return _vk.zeros(x.shape, dtype=_np.bool_)
    return _vk.imag(x) != 0


def isreal(x):
    """numpy.isreal: imaginary part zero (all True for real input)."""
    x = _asarray(x)
    if x.dtype.kind != "c":
        return _vk.ones(x.shape, dtype=_np.bool_)
    return _vk.imag(x) == 0


def isposinf(x, out=None):
    """numpy.isposinf: +inf (real input only)."""
    x = _asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("[isposinf] This operation is not supported for complex values "
                        "because it would be ambiguous.")
    return _finish(_vk.isinf(x) & ~_vk.signbit(x), out, None, "isposinf") \
        if x.dtype.kind == "f" else _finish(_vk.zeros(x.shape, dtype=_np.bool_), out, None,
                                            "isposinf")


def isneginf(x, out=None):
    """numpy.isneginf: -inf (real input only)."""
    x = _asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("[isneginf] This operation is not supported for complex values "
                        "because it would be ambiguous.")
    return _finish(_vk.isinf(x) & _vk.signbit(x), out, None, "isneginf") \
        if x.dtype.kind == "f" else _finish(_vk.zeros(x.shape, dtype=_np.bool_), out, None,
                                            "isneginf")


def iscomplexobj(x):
    """numpy.iscomplexobj: the dtype (of an array, or numpy's for other input) is complex."""
    dtype = x.dtype if hasattr(x, "dtype") else _np.asarray(x).dtype
    return _np.dtype(dtype).kind == "c"


def isrealobj(x):
    """numpy.isrealobj: not iscomplexobj."""
    return not iscomplexobj(x)
