"""numpy's mathematical functions that are rows of the op table: one vkarray.ufunc per
elementwise row (its kernel, nin and loops come from ir/ops.def through the extension), under
numpy's name and vkarray's, with the array API's aliases; and round, clip, real and imag, which
numpy has as plain functions. The composed ufuncs (fmod, logaddexp, ...) are in
_math_composed.py."""

from . import _vkarray
from ._ufunc import ufunc
from ._vkarray import around, round  # noqa: A004 — numpy.round: decimals= makes it no ufunc

_ROWS = {row["name"]: row for row in _vkarray._elementwise}
# Rows whose public form is a function, not their ufunc: numpy's round takes decimals=, real and
# imag are plain functions, where takes the condition alone too (all below), and ldexp converts
# numpy's integer exponent (_math_composed.py). Rows without a numpy name are primitives of the
# composed functions.
_NOT_UFUNCS = {"round", "real", "imag", "where", "ldexp"}


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


def _table_ufuncs():
    """{Python name: ufunc}: one ufunc per elementwise row of the op table (named numpy's way;
    its identity and whether reduce may regroup it from the table), under vkarray's name,
    numpy's and the row's aliases."""
    made = {}
    for name, row in _ROWS.items():
        if name in _NOT_UFUNCS or not row["public"]:
            continue
        f = ufunc(row["numpy"], row["kernel"], row["nin"], identity=row["identity"],
                  reorderable=row["reorderable"], types=row["types"],
                  predicate=row["predicate"], doc=_doc(row))
        for spelling in (name, row["numpy"], *row["aliases"]):
            made.setdefault(spelling, f)
    return made


# Bound here from the table (tests/python/namespace_test.py counts them as this module's).
_UFUNCS = _table_ufuncs()
globals().update(_UFUNCS)

__all__ = [*_UFUNCS, "round", "around", "round_", "clip", "real", "imag", "where"]

round_ = round  # numpy's older spelling

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
