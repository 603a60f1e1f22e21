"""numpy's mathematical functions that are rows of the op table: one vkarray.ufunc per
elementwise row (its kernel, nin and loops come from ir/ops.def through the extension), under
numpy's name and vkarray's, with the array API's aliases; and round, clip, real and imag, which
numpy has as plain functions. The composed ufuncs (fmod, logaddexp, ...) are in
_math_composed.py."""

from . import _vkarray
from ._ufunc import ufunc
from ._vkarray import around, round  # noqa: A004 — numpy.round: decimals= makes it no ufunc

__all__ = [
    "negative", "positive", "abs", "absolute", "sign", "square", "reciprocal", "conj",
    "conjugate", "sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
    "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
    "arctanh", "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite", "signbit",
    "logical_not", "bitwise_not", "invert", "add", "subtract", "multiply", "divide",
    "true_divide", "floor_divide", "remainder", "mod", "power", "pow", "arctan2", "hypot",
    "copysign", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
    "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
    "nextafter",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "acos", "acosh",
    "asin", "asinh", "atan", "atan2", "atanh", "bitwise_invert", "bitwise_left_shift",
    "bitwise_right_shift", "round", "around", "round_", "clip", "real", "imag", "where",
]

round_ = round  # numpy's older spelling

_ROWS = {row["name"]: row for row in _vkarray._elementwise}
# numpy's identities (the value reduce starts from, and gives for empty input): algebra the op
# table does not carry. numpy may regroup a reduction of these ufuncs, and of max/min-like ones.
_IDENTITY = {"add": 0, "multiply": 1, "logical_and": True, "logical_or": False,
             "logical_xor": False, "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0,
             "hypot": 0}
_REORDERABLE = set(_IDENTITY) | {"maximum", "minimum", "fmax", "fmin"}


def _doc(row):
    numpy = row["numpy"]
    args = "x" if row["nin"] == 1 else ", ".join(f"x{i + 1}" for i in range(row["nin"]))
    return (f"{numpy}({args}, /, out=None, *, where=True, casting='same_kind', dtype=None)\n\n"
            f"numpy.{numpy} on vkarray arrays, elementwise and lazy (fused with its neighbours "
            f"when evaluated). Operands: ndarrays, numpy arrays and scalars (strong), "
            f"array-likes, Python scalars (weak, NEP 50). Accepted dtypes: {row['accepts']}. "
            f"dtype= casts the array inputs (under casting=) and the result to that dtype; out= "
            f"(positional too) takes an ndarray the result broadcasts to, whose dtype accepts it "
            f"under casting=, and where= stores only where it is true. The methods reduce, "
            f"accumulate, outer, at and reduceat run on the device.")


def _table_ufuncs(names):
    """The ufuncs of the op table's rows `names` (vkarray's names, space-separated), each
    under numpy's name."""
    made = []
    for name in names.split():
        row = _ROWS[name]
        numpy = row["numpy"]
        made.append(ufunc(numpy, row["kernel"], row["nin"], identity=_IDENTITY.get(numpy),
                          reorderable=numpy in _REORDERABLE, types=row["types"],
                          predicate=row["predicate"], doc=_doc(row)))
    return tuple(made)


# One ufunc per elementwise row of the op table, by group, with numpy's other spellings.
negative, positive, abs, sign, square, reciprocal, conj = _table_ufuncs(  # noqa: A001
    "negative positive abs sign square reciprocal conj")
absolute = abs
conjugate = conj
sqrt, exp, exp2, expm1, log, log2, log10, log1p = _table_ufuncs(
    "sqrt exp exp2 expm1 log log2 log10 log1p")
sin, cos, tan, arcsin, arccos, arctan = _table_ufuncs("sin cos tan arcsin arccos arctan")
sinh, cosh, tanh, arcsinh, arccosh, arctanh = _table_ufuncs(
    "sinh cosh tanh arcsinh arccosh arctanh")
floor, ceil, trunc, rint = _table_ufuncs("floor ceil trunc rint")
isnan, isinf, isfinite, signbit, logical_not = _table_ufuncs(
    "isnan isinf isfinite signbit logical_not")
bitwise_not, = _table_ufuncs("bitwise_not")
invert = bitwise_not
add, subtract, multiply, divide, floor_divide, remainder, power = _table_ufuncs(
    "add subtract multiply divide floor_divide remainder power")
true_divide = divide
mod = remainder
pow = power  # noqa: A001 — the array API's name
arctan2, hypot, copysign = _table_ufuncs("arctan2 hypot copysign")
maximum, minimum, fmax, fmin = _table_ufuncs("maximum minimum fmax fmin")
nextafter, = _table_ufuncs("nextafter")  # ldexp and frexp's rows: _math_composed.py
logical_and, logical_or, logical_xor = _table_ufuncs("logical_and logical_or logical_xor")
bitwise_and, bitwise_or, bitwise_xor, left_shift, right_shift = _table_ufuncs(
    "bitwise_and bitwise_or bitwise_xor left_shift right_shift")
equal, not_equal, less, less_equal, greater, greater_equal = _table_ufuncs(
    "equal not_equal less less_equal greater greater_equal")

# The array API standard's names for the same ufuncs.
acos = arccos
acosh = arccosh
asin = arcsin
asinh = arcsinh
atan = arctan
atan2 = arctan2
atanh = arctanh
bitwise_invert = bitwise_not
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift

_NOT_GIVEN = object()


def where(condition, x=None, y=None, /):
    """numpy.where: elements of x where condition is true, else of y (the op table's where:
    one fused kernel, x and y promoted together); with the condition alone,
    nonzero(condition)."""
    if x is None and y is None:
        return _vkarray.nonzero(condition)
    if x is None or y is None:
        raise ValueError("[where] either both or neither of x and y should be given")
    return _ROWS["where"]["kernel"](condition, x, y)


def clip(a, min=None, max=None, out=None, *, a_min=_NOT_GIVEN,  # noqa: A002
         a_max=_NOT_GIVEN):
    """numpy.clip: minimum(maximum(a, min), max) with NaNs propagated; a bound of None is not
    applied. numpy 1.24's keyword names a_min= and a_max= are accepted too."""
    if a_min is not _NOT_GIVEN:
        if min is not None:
            raise TypeError("[clip] min and a_min cannot both be given")
        min = a_min  # noqa: A001
    if a_max is not _NOT_GIVEN:
        if max is not None:
            raise TypeError("[clip] max and a_max cannot both be given")
        max = a_max  # noqa: A001
    return _vkarray._clip(a, min, max, out)


def real(val):
    """numpy.real: the real part (float32 of complex64, float64 of complex128), lazy; a real
    vkarray array is returned itself, as numpy returns a real array."""
    if isinstance(val, _vkarray.ndarray) and val.dtype.kind != "c":
        return val
    return _ROWS["real"]["kernel"](val)


def imag(val):
    """numpy.imag: the imaginary part (zeros of the array's dtype for real dtypes), lazy."""
    return _ROWS["imag"]["kernel"](val)
