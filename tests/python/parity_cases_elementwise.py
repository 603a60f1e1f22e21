"""Parity cases of the elementwise functions (the op table's ufuncs, their aliases and the
composed ones): each on inputs inside its domain, float64 and an integer or float32 variant."""

import numpy as np

import vkarray as vk
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

# The op table's public rows (ir/ops.def through the extension), each under every spelling:
# vkarray's name, numpy's and the row's aliases. where, round and ldexp have cases of their own
# (their public functions take other arguments than the row).
ROWS = [r for r in vk._vkarray._elementwise
        if r["public"] and r["name"] not in ("where", "round", "ldexp")]


def _spellings(row):
    return sorted({row["name"], row["numpy"], *row["aliases"]})


def _table(arity, accepts):
    """Every spelling of the rows of `arity` whose dtypes include the kind `accepts` names."""
    return [n for r in ROWS if r["nin"] == arity and accepts in r["accepts"]
            for n in _spellings(r)]


# Domains: rows defined only above 1 take P; power takes P and U. Every other float row takes U
# (unary) or F, G (binary); integer rows, and the arithmetic below, take I (and J).
ABOVE_ONE = {"sqrt", "log", "log2", "log10", "arccosh", "acosh", "reciprocal"}
POWER_ROWS = {"power", "pow"}
INTEGER_TOO = {"negative", "abs", "absolute", "square", "sign", "add", "subtract", "multiply",
               "floor_divide", "remainder", "mod", "maximum", "minimum"}
FLOAT_UNARY = _table(1, "float")
FLOAT_BINARY = [n for n in _table(2, "float") if n not in POWER_ROWS]
INTEGER_ONLY = [n for n in _table(1, "integer") + _table(2, "integer")
                if n not in FLOAT_UNARY + FLOAT_BINARY + sorted(POWER_ROWS)]

UNARY_U = [n for n in FLOAT_UNARY if n not in ABOVE_ONE] + [
    "cbrt", "fabs", "deg2rad", "rad2deg", "degrees", "radians", "modf"]
UNARY_P = [n for n in FLOAT_UNARY if n in ABOVE_ONE]
UNARY_I = [n for n in _table(1, "integer") if n in INTEGER_ONLY or n in INTEGER_TOO]
BINARY_F = FLOAT_BINARY + ["fmod", "logaddexp", "logaddexp2", "heaviside", "divmod"]
BINARY_I = [n for n in _table(2, "integer") if n in INTEGER_ONLY or n in INTEGER_TOO] + [
    "fmod", "divmod", "gcd", "lcm"]
POWER = sorted(POWER_ROWS) + ["float_power"]


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
