"""Sums, products and differences: the compiled sum, prod, nansum and nanprod; the scans cumsum,
cumprod, nancumsum, nancumprod, numpy 2's cumulative_sum and cumulative_prod, running maxima
and minima (np.maximum.accumulate and np.minimum.accumulate as cummax and cummin); diff and
ediff1d; and the ndarray methods cumsum and cumprod. Scans run at once on the device
(reduce-then-scan, 3n elements of traffic for a long axis), bit-identical from run to run;
diff and ediff1d are lazy expressions of slices."""

import operator as _operator

from . import _vkarray as _vk
from ._vkarray import cummax, cummin, ediff1d, nanprod, nansum, prod, sum  # noqa: A004

__all__ = [
    "sum", "prod", "nansum", "nanprod", "cumsum", "cumprod", "nancumsum", "nancumprod",
    "cumulative_sum", "cumulative_prod", "cummax", "cummin", "diff", "ediff1d", "product",
    "cumproduct",
]


def _into(op, result, out):
    """numpy's out= of the accumulations: out (a vkarray.ndarray of the result's shape) takes
    the result, converted to its dtype as assignment converts; returns out."""
    return _vk._finish(result, out, op=op, casting="unsafe", exact_shape=True)


def _accumulation_dtype(op, dtype, out):
    """With out= and no dtype, numpy accumulates in out's dtype."""
    if out is None or dtype is not None:
        return dtype
    if not isinstance(out, _vk.ndarray):
        raise TypeError(f"[{op}] out= must be a vkarray.ndarray, got {type(out).__name__}")
    return out.dtype


def _scan(op, fn, a, axis, dtype, out):
    return _into(op, fn(a, axis, _accumulation_dtype(op, dtype, out)), out)


def cumsum(a, axis=None, dtype=None, out=None):
    """numpy.cumsum: running sums along axis (of the flattened array when axis is None). bool
    and integers narrower than 64 bits accumulate in int64 (uint64 for unsigned), as numpy's;
    integers wrap around; floating results are bit-identical from run to run."""
    return _scan("cumsum", _vk._cumsum, a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    """numpy.cumprod: running products along axis (of the flattened array when axis is None),
    with cumsum's dtype rules."""
    return _scan("cumprod", _vk._cumprod, a, axis, dtype, out)


def nancumsum(a, axis=None, dtype=None, out=None):
    """numpy.nancumsum: cumsum with NaN counted as 0."""
    return _scan("nancumsum", _vk._nancumsum, a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """numpy.nancumprod: cumprod with NaN counted as 1."""
    return _scan("nancumprod", _vk._nancumprod, a, axis, dtype, out)


def _cumulative(op, product, x, axis, dtype, out, include_initial):
    dtype = _accumulation_dtype(op, dtype, out)
    return _into(op, _vk._cumulative(x, product, axis, dtype, include_initial), out)


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """numpy 2's cumulative_sum (the array API's): cumsum where axis may be left out only for
    1-d (or 0-d) input, and include_initial=True puts a 0 first along the axis."""
    return _cumulative("cumulative_sum", False, x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """numpy 2's cumulative_prod: as cumulative_sum, with products and an initial 1."""
    return _cumulative("cumulative_prod", True, x, axis, dtype, out, include_initial)


_NO_VALUE = object()


def diff(a, n=1, axis=-1, prepend=_NO_VALUE, append=_NO_VALUE):
    """numpy.diff: the n-th difference along axis, a[1:] - a[:-1] applied n times (not_equal
    for bool), after joining prepend and append (scalars are broadcast across the axis). A lazy
    expression: one fused kernel for n=1; n=0 returns a itself."""
    if _operator.index(n) == 0:
        return a
    return _vk._diff(a, n, axis, None if prepend is _NO_VALUE else _none_value(prepend),
                     None if append is _NO_VALUE else _none_value(append))


def _none_value(v):
    if v is None:
        raise TypeError("[diff] prepend/append of None (an object array) is not supported")
    return v


def _method_cumsum(self, axis=None, dtype=None, out=None):
    """a.cumsum(axis=None, dtype=None, out=None): vkarray.cumsum(a, ...)."""
    return cumsum(self, axis, dtype, out)


def _method_cumprod(self, axis=None, dtype=None, out=None):
    """a.cumprod(axis=None, dtype=None, out=None): vkarray.cumprod(a, ...)."""
    return cumprod(self, axis, dtype, out)


product = prod  # numpy's older spellings
cumproduct = cumprod
