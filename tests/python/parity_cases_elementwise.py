"""Parity cases of the elementwise functions (the op table's ufuncs, their aliases and the
composed ones): each on inputs inside its domain, float64 and an integer or float32 variant."""

import numpy as np

from parity_registry import case

RNG = np.random.default_rng(20261122)
F = RNG.standard_normal((3, 5))
G = RNG.standard_normal((3, 5)) + 0.1
F32 = F.astype(np.float32)
U = RNG.uniform(-0.9, 0.9, 7)
P = RNG.uniform(1.1, 4.0, 7)
I = RNG.integers(-9, 10, (3, 5))
J = RNG.integers(1, 6, (3, 5))
C = RNG.standard_normal(5) + 1j * RNG.standard_normal(5)

UNARY_U = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
           "arcsinh", "arctanh", "exp", "expm1", "log1p", "exp2", "asin", "acos", "atan",
           "asinh", "atanh", "abs", "absolute", "negative", "positive", "sign", "ceil",
           "floor", "trunc", "rint", "square", "isfinite", "isinf", "isnan", "signbit",
           "logical_not", "cbrt", "fabs", "deg2rad", "rad2deg", "degrees", "radians", "modf",
           "real", "imag", "conj", "conjugate"]
UNARY_P = ["sqrt", "log", "log2", "log10", "arccosh", "acosh", "reciprocal"]
UNARY_I = ["invert", "bitwise_not", "bitwise_invert", "negative", "abs", "square", "sign"]
BINARY_F = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide",
            "remainder", "mod", "maximum", "minimum", "fmax", "fmin", "arctan2", "atan2",
            "hypot", "copysign", "equal", "not_equal", "less", "less_equal", "greater",
            "greater_equal", "logical_and", "logical_or", "logical_xor", "fmod", "logaddexp",
            "logaddexp2", "heaviside", "divmod"]
BINARY_I = ["add", "subtract", "multiply", "floor_divide", "remainder", "fmod", "bitwise_and",
            "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "bitwise_left_shift",
            "bitwise_right_shift", "divmod", "maximum", "minimum", "gcd", "lcm"]
POWER = ["power", "pow", "float_power"]


def _unary(name, data):
    case(name, lambda xp, to: getattr(xp, name)(to(data)))


def _binary(name, a, b):
    case(name, lambda xp, to: getattr(xp, name)(to(a), to(b)))


for _n in UNARY_U:
    _unary(_n, U)
for _n in UNARY_P:
    _unary(_n, P)
for _n in UNARY_I:
    _unary(_n, I)
for _n in ["sin", "exp", "abs", "sqrt", "floor", "cbrt", "deg2rad", "logaddexp"]:
    if _n == "logaddexp":
        _binary(_n, F32, F32[::-1])
    else:
        _unary(_n, np.abs(F32) if _n == "sqrt" else F32)
for _n in ["exp", "sqrt", "conj", "real", "imag", "abs", "negative", "square"]:
    _unary(_n, C)
for _n in BINARY_F:
    _binary(_n, F, G)
for _n in BINARY_I:
    _binary(_n, I, J)
for _n in POWER:
    _binary(_n, P, U)
case("where", lambda xp, to: xp.where(to(F) > 0, to(F), to(G)))
case("where", lambda xp, to: xp.where(to(F) > 0))
case("matmul", lambda xp, to: xp.matmul(to(F), to(G.T)))
case("matmul", lambda xp, to: xp.matmul(to(F32), to(F32.T)), rtol=1e-5)
case("add", lambda xp, to: xp.add(to(F32), 1.5))  # a Python scalar stays weak
case("multiply", lambda xp, to: xp.multiply(to(I), 3, dtype=np.float64))
FIB = np.array([832040, 1346269, 0, 12, -18, 7])  # Fibonacci numbers: Euclid's worst case
case("gcd", lambda xp, to: xp.gcd(to(FIB), to(np.array([514229, 832040, 0, -8, 12, 0]))))
case("lcm", lambda xp, to: xp.lcm(to(FIB.astype(np.int32)), 6))


def _ufunc_facts(xp, to):
    """The ufunc type's attributes and methods: the same values from numpy's ufuncs."""
    return (isinstance(xp.add, xp.ufunc), xp.add.nin, xp.divmod.nout, xp.multiply.identity,
            xp.logical_and.identity, xp.maximum.identity, xp.add.reduce(to(I), axis=1),
            xp.maximum.accumulate(to(F), axis=0), xp.subtract.outer(to(I[0]), to(J[0])),
            xp.add.reduceat(to(I[0]), [0, 3, 1, 4]))


case("ufunc", _ufunc_facts)
