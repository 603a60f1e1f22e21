"""numpy's elementwise functions that vkarray composes from the op table's primitives (lazy,
fused with their neighbours): the ufuncs divmod, modf, fmod, float_power, deg2rad/radians,
rad2deg/degrees, cbrt, logaddexp, logaddexp2, fabs, heaviside, gcd and lcm, and the
floating-point routines frexp, ldexp and spacing (exact, from the rows ldexp, nextafter and
frexp_exponent; kernels/glsl/math_bits.cc) (vkarray.ufunc objects: numpy's keywords and
methods come from the ufunc type), and the plain functions sinc, angle, nan_to_num, fix and
real_if_close."""

import numpy as _np

from . import _vkarray
from ._creation import asarray, ones, zeros
from ._math import (_ROWS, abs, arctan2, copysign, exp, exp2, floor_divide, imag, isfinite, isinf,
                    isnan, log, log1p, maximum, nextafter, power, real, remainder, sin, trunc,
                    where)
from ._shaping import _asarray, _context
from ._ufunc import ufunc

__all__ = [
    "divmod", "modf", "fmod", "float_power", "deg2rad", "rad2deg", "degrees", "radians",
    "cbrt", "logaddexp", "logaddexp2", "fabs", "heaviside", "gcd", "lcm", "sinc", "angle",
    "nan_to_num", "fix", "real_if_close", "frexp", "ldexp", "spacing",
]

_LN2 = 0.693147180559945309417232121458176568
_LOG2E = 1.442695040888963407359924681001892137


def _composed(nin, nout=1, identity=None, reorderable=False, types=None):
    """The decorated function as a vkarray.ufunc of its name: the function is the kernel
    (positional inputs, array-likes converted by it), the ufunc adds numpy's keywords and
    methods. types: the loops where probing the kernel with equal input dtypes cannot find
    them (ldexp's exponent is an integer)."""
    def make(fn):
        return ufunc(fn.__name__, fn, nin, nout, identity=identity, reorderable=reorderable,
                     types=types, doc=fn.__doc__)
    return make


def _arrays(*xs):
    """Array-likes as ndarrays on the first ndarray's context; Python scalars stay weak."""
    ctx = _context(xs)
    return [_asarray(x, ctx) if not _np.isscalar(x) or isinstance(x, _vkarray.ndarray) else x
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
    return x if x.dtype == to else x.astype(to)


def _float_pair(op, x1, x2):
    """x1 and x2 in the float dtype numpy 2 computes op in: their promoted dtype (Python
    scalars weak), integers as the smallest float holding them; complex refused."""
    x1, x2 = _arrays(x1, x2)
    t = _np.dtype(_vkarray.result_type(x1, x2))
    if t.kind == "c":
        raise TypeError(f"[{op}] ufunc '{op}' not supported for the input types "
                        f"({t}): complex")
    if t.kind != "f":
        t = _np.sqrt(_np.zeros((), t)).dtype
    return asarray(x1, dtype=t), asarray(x2, dtype=t)


@_composed(nin=2, nout=2)
def divmod(x1, x2):  # noqa: A001 — numpy's name
    """numpy.divmod: (x1 // x2, x1 % x2), one fused expression."""
    x1, x2 = _arrays(x1, x2)
    return floor_divide(x1, x2), remainder(x1, x2)


@_composed(nin=1, nout=2)
def modf(x):
    """numpy.modf: (fractional part, integral part), both with x's sign; modf(±inf) is
    (±0, ±inf)."""
    x = _float_of(x, "modf", complex_ok=False)
    whole = trunc(x)
    frac = copysign(where(isinf(x), zeros((), x.dtype), x - whole), x)
    return frac, whole


@_composed(nin=2)
def fmod(x1, x2):
    """numpy.fmod: the remainder with the sign of x1 (C's fmod), from numpy's floored
    remainder: equal where the signs agree, otherwise off by one x2."""
    x1, x2 = _arrays(x1, x2)
    kind = _np.dtype(_vkarray.result_type(x1, x2)).kind
    if kind == "c":
        raise TypeError("[fmod] ufunc 'fmod' not supported for complex inputs")
    r = remainder(x1, x2)
    fix = (r != 0) & ((r < 0) != (x1 < 0))
    r = where(fix, r - x2, r)
    if kind == "f":
        r = copysign(where(isinf(x2) & isfinite(x1), x1 + 0 * r, r), x1)
    return r


@_composed(nin=2)
def float_power(x1, x2):
    """numpy.float_power: x1 ** x2 computed in float64 (complex128 for complex inputs)."""
    x1, x2 = _arrays(x1, x2)
    kind = _np.dtype(_vkarray.result_type(x1, x2)).kind
    big = _np.complex128 if kind == "c" else _np.float64
    return power(asarray(x1, dtype=big), asarray(x2, dtype=big))


@_composed(nin=1)
def deg2rad(x):
    """numpy.deg2rad: x * (pi / 180) in x's float dtype."""
    return _float_of(x, "deg2rad", False) * (_np.pi / 180.0)


@_composed(nin=1)
def radians(x):
    """numpy.radians: x * (pi / 180) in x's float dtype (deg2rad under its other name)."""
    return _float_of(x, "radians", False) * (_np.pi / 180.0)


@_composed(nin=1)
def rad2deg(x):
    """numpy.rad2deg: x * (180 / pi) in x's float dtype."""
    return _float_of(x, "rad2deg", False) * (180.0 / _np.pi)


@_composed(nin=1)
def degrees(x):
    """numpy.degrees: x * (180 / pi) in x's float dtype (rad2deg under its other name)."""
    return _float_of(x, "degrees", False) * (180.0 / _np.pi)


@_composed(nin=1)
def cbrt(x):
    """numpy.cbrt: the real cube root; exp(log|x| / 3) refined by one Newton step."""
    x = _float_of(x, "cbrt", complex_ok=False)
    a = abs(x)
    y = exp(log(a) / 3)
    y = y - (y * y * y - a) / (3 * y * y)
    y = where((a == 0) | isinf(a) | isnan(a), a, y)
    return copysign(y, x)


@_composed(nin=2, identity=-_np.inf, reorderable=True)
def logaddexp(x1, x2):
    """numpy.logaddexp: log(exp(x1) + exp(x2)) without overflow, as one fused expression:
    max(x1, x2) + log1p(exp(-|x1 - x2|)), and x1 + log(2) where x1 == x2 (so that equal
    infinities give themselves, not NaN)."""
    a, b = _float_pair("logaddexp", x1, x2)
    d = abs(a - b)
    return where(a == b, a + _LN2, maximum(a, b) + log1p(exp(-d)))


@_composed(nin=2, identity=-_np.inf, reorderable=True)
def logaddexp2(x1, x2):
    """numpy.logaddexp2: log2(2**x1 + 2**x2) without overflow, as numpy computes it."""
    a, b = _float_pair("logaddexp2", x1, x2)
    d = abs(a - b)
    return where(a == b, a + 1, maximum(a, b) + _LOG2E * log1p(exp2(-d)))


@_composed(nin=1)
def fabs(x):
    """numpy.fabs: the absolute value as a float (complex is refused, as numpy does)."""
    return abs(_float_of(x, "fabs", complex_ok=False))


@_composed(nin=2)
def heaviside(x1, x2):
    """numpy.heaviside: 0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0, nan where x1 is."""
    x1, x2 = _arrays(x1, x2)
    t = _np.dtype(_vkarray.result_type(x1, x2))
    if t.kind not in "f":
        t = _np.result_type(t, _np.float16)
    if t.kind == "c":
        raise TypeError("[heaviside] ufunc 'heaviside' not supported for complex inputs")
    one, zero = ones((), t), zeros((), t)
    r = where(x1 < 0, zero, where(x1 > 0, one, _asarray(x2).astype(t)))
    return where(isnan(x1), _asarray(x1).astype(t), r)


def _int_operands(op, x1, x2):
    x1, x2 = _arrays(x1, x2)
    t = _np.dtype(_vkarray.result_type(x1, x2))
    if t.kind not in "iu":
        raise TypeError(f"[{op}] ufunc '{op}' not supported for the input types ({t}): "
                        f"integers only")
    a = _asarray(x1).astype(t)
    b = _asarray(x2, a.context).astype(t)
    return _vkarray.broadcast_arrays(abs(a), abs(b))


@_composed(nin=2, identity=0, reorderable=True)
def gcd(x1, x2):
    """numpy.gcd: the greatest common divisor of |x1| and |x2| (gcd(0, 0) = 0), by Euclid's
    algorithm in blocks of 8 fused steps, stopping when every remainder is zero (at most
    the Fibonacci bound of the dtype's width)."""
    a, b = _int_operands("gcd", x1, x2)
    steps = 3 * 8 * a.dtype.itemsize // 2 + 8  # >= 1.44 * bits + 2 (Lame's theorem)
    for _ in range(0, steps, 8):
        if a.size == 0 or not bool(_vkarray.any(b != 0)):
            break
        for _ in range(8):
            nonzero = b != 0
            a, b = where(nonzero, b, a), where(nonzero, remainder(a, where(nonzero, b, 1)), 0)
        _vkarray.eval(a, b)
    return a


@_composed(nin=2)
def lcm(x1, x2):
    """numpy.lcm: |x1| // gcd(x1, x2) * |x2| (0 when either is 0)."""
    a, b = _int_operands("lcm", x1, x2)
    g = gcd(a, b)
    return where(g == 0, 0, floor_divide(a, where(g == 0, 1, g)) * b).astype(a.dtype)


def sinc(x):
    """numpy.sinc: sin(pi x) / (pi x), 1 at 0 (numpy's formula: x = 0 replaced by 1e-20)."""
    x = _asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(_np.float64)
    y = _np.pi * where(x == 0, 1.0e-20, x)
    return sin(y) / y


def angle(z, deg=False):
    """numpy.angle: the counterclockwise angle from the positive real axis; real input z is
    numpy's arctan2(0, z), whose loop sets the dtype (float16 for int8, float32 for int16)."""
    z = _asarray(z)
    if z.dtype.kind == "c":
        a = arctan2(imag(z), real(z))
    else:
        a = arctan2(0, z if z.dtype.kind != "b" else z.astype(_np.float64))
    return a * (180 / _np.pi) if deg else a


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """numpy.nan_to_num: nan → `nan`, +inf → `posinf` (default the dtype's largest), -inf →
    `neginf` (default the most negative); complex parts separately; others unchanged."""
    x = _asarray(x)
    if x.dtype.kind not in "fc":
        return _vkarray.copy(x) if copy else x

    def fix(part):
        info = _np.finfo(part.dtype)
        hi = info.max if posinf is None else posinf
        lo = info.min if neginf is None else neginf
        r = where(isnan(part), asarray(nan, dtype=part.dtype), part)
        r = where(isinf(r) & (r > 0), asarray(hi, dtype=part.dtype), r)
        return where(isinf(r) & (r < 0), asarray(lo, dtype=part.dtype), r)

    if x.dtype.kind == "c":
        r = (fix(real(x)).astype(x.dtype) + 1j * fix(imag(x)).astype(x.dtype)).astype(x.dtype)
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
    return _vkarray._finish(trunc(x), out, op="fix")


def real_if_close(a, tol=100):
    """numpy.real_if_close: the real part when every imaginary part is within tol machine
    epsilons of zero (one reduction read back), else a unchanged."""
    a = _asarray(a)
    if a.dtype.kind != "c":
        return a
    eps = _np.finfo(a.dtype).eps
    limit = tol * eps if tol > 1 else tol
    if bool(_vkarray.all(abs(imag(a)) < limit)):
        return real(a)
    return a


def _is_integer(x):
    if isinstance(x, _vkarray.ndarray):
        return x.dtype.kind in "biu"
    return isinstance(x, (bool, int, _np.integer, _np.bool_))


@_composed(nin=2, types=["ei->e", "fi->f", "el->e", "fl->f", "di->d", "dl->d"])
def ldexp(x1, x2):
    """numpy.ldexp: x1 * 2**x2 for an integer x2, exactly (rounded once, as C's ldexp, only
    where the result is subnormal), in x1's float dtype (integers: the smallest float that
    holds them, as numpy's loops)."""
    x1, x2 = _arrays(x1, x2)
    if not _is_integer(x2) or isinstance(x1, complex) or (
            isinstance(x1, _vkarray.ndarray) and x1.dtype.kind == "c"):
        t1 = x1.dtype if isinstance(x1, _vkarray.ndarray) else type(x1).__name__
        t2 = x2.dtype if isinstance(x2, _vkarray.ndarray) else type(x2).__name__
        raise TypeError(f"[ldexp] ufunc 'ldexp' not supported for the input types ({t1}, {t2}): "
                        f"x1 must be real and x2 an integer")
    x1 = _float_of(x1, "ldexp", complex_ok=False)
    # Beyond +-2048 every result is 0 or infinite (and the kernel clamps further): the clipped
    # exponent is exact in any float dtype, float16's included.
    if isinstance(x2, _vkarray.ndarray):
        info = _np.iinfo(x2.dtype) if x2.dtype.kind != "b" else _np.iinfo(_np.uint8)
        lo, hi = max(-2048, int(info.min)), min(2048, int(info.max))
        e = x2 if (lo, hi) == (info.min, info.max) else _vkarray._clip(x2, lo, hi, None)
        e = e.astype(x1.dtype)
    else:
        e = float(min(max(int(x2), -2048), 2048))
    return _ROWS["ldexp"]["kernel"](x1, e)


@_composed(nin=1, nout=2, types=["e->ei", "f->fi", "d->di"])
def frexp(x):
    """numpy.frexp: (mantissa, exponent) with x = mantissa * 2**exponent, 0.5 <= |mantissa|
    < 1 (0, inf and nan: themselves and 0); the exponent int32. Exact."""
    x = _float_of(x, "frexp", complex_ok=False)
    e = _ROWS["frexp_exponent"]["kernel"](x)
    return _ROWS["ldexp"]["kernel"](x, -e), e.astype(_np.int32)


@_composed(nin=1, types=["e->e", "f->f", "d->d"])
def spacing(x):
    """numpy.spacing: the distance from x to its neighbour away from zero (negative for
    negative x, positive for both zeros; nan for inf and nan), exactly. float16 follows
    numpy's float16 loop: the distance to the next larger value, always positive."""
    x = _float_of(x, "spacing", complex_ok=False)
    inf = float("inf")
    if x.dtype == _np.float16:
        return where(isinf(x), float("nan"), nextafter(x, inf) - x)
    away = where(x == 0, inf, copysign(inf, x))
    return nextafter(x, away) - x
