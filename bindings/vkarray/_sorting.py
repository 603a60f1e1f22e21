"""Sorting, searching, counting and set routines: sort and argsort (with the array API's
descending=), lexsort, sort_complex, the compiled partition, argpartition, searchsorted,
argmax/argmin and nonzero family, argwhere and count_nonzero; unique and the array API's
unique_* functions (on the device's sort, vkarray._vkarray._unique), isin, in1d and the set
operations. where is the op table's (_math.py)."""

from collections import namedtuple as _namedtuple

import numpy as _np

from . import _vkarray
from ._creation import asarray, ones
from ._cumulative import cumsum, diff
from ._dtypes import astype
from ._joining import concatenate, stack
from ._shaping import _asarray, _asarrays, _normalize_axis
from ._vkarray import (argmax, argmin, argpartition, extract, flatnonzero, in1d, isin,
                       nanargmax, nanargmin, nonzero, partition, searchsorted)

__all__ = [
    "sort", "argsort", "lexsort", "sort_complex", "partition", "argpartition", "searchsorted",
    "argmax", "argmin", "nanargmax", "nanargmin", "nonzero", "flatnonzero", "argwhere",
    "count_nonzero", "extract", "unique", "unique_values", "unique_counts", "unique_inverse",
    "unique_all", "isin", "in1d", "union1d", "intersect1d", "setdiff1d", "setxor1d", "msort",
]


def _descending(op, fn, a, axis, kind, order, stable):
    """fn (sort or argsort) in descending order, stable: reversing, sorting ascending stably
    and reversing back keeps equal elements in their original order."""
    a = asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), -1
    if a.ndim == 0:
        raise _np.AxisError(f"[{op}] axis {axis} is out of bounds for array of dimension 0")
    r = _vkarray.flip(fn(_vkarray.flip(a, axis), axis, kind, order, stable=True), axis)
    if fn is _vkarray._argsort:
        r = (a.shape[axis] - 1) - r
    return r


def sort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """numpy.sort, with the array API's descending= (stable, as ascending sorts are)."""
    if descending:
        return _descending("sort", _vkarray._sort, a, axis, kind, order, stable)
    return _vkarray._sort(a, axis, kind, order, stable=stable)


def argsort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """numpy.argsort, with the array API's descending= (equal elements keep their order)."""
    if descending:
        return _descending("argsort", _vkarray._argsort, a, axis, kind, order, stable)
    return _vkarray._argsort(a, axis, kind, order, stable=stable)


def lexsort(keys, axis=-1):
    """numpy.lexsort: indices sorting by the last key, then the one before, ... (stable
    sorts from the first key to the last)."""
    keys = _asarrays("lexsort", list(keys) if not isinstance(keys, _vkarray.ndarray) else
                     [keys[i] for i in range(keys.shape[0])])
    if not keys:
        raise TypeError("[lexsort] need sequence of keys with len > 0 in lexsort")
    if axis not in (-1, keys[0].ndim - 1) or keys[0].ndim != 1:
        raise NotImplementedError("[lexsort] only 1-d keys are supported yet")
    order = argsort(keys[0], stable=True)
    for k in keys[1:]:
        order = _vkarray.take(order, argsort(_vkarray.take(k, order), stable=True))
    return order


def sort_complex(a):
    """numpy.sort_complex: sorted by real part, then imaginary, as complex."""
    a = _asarray(a)
    r = sort(a)
    if a.dtype.kind == "c":
        return r
    to = _np.complex64 if a.dtype.char in "bhBH" else _np.complex128  # numpy's choice
    return astype(r, to)


def argwhere(a):
    """numpy.argwhere: the indices of the nonzero elements, shape (count, a.ndim)."""
    a = asarray(a)
    if a.ndim == 0:
        a = a.reshape(1)
        return stack(_vkarray.nonzero(a), axis=1)[:, :0]
    return stack(_vkarray.nonzero(a), axis=1)


def count_nonzero(a, axis=None, *, keepdims=False):
    """numpy.count_nonzero: a Python int over the whole array, else int64 counts per result."""
    r = _vkarray._count_nonzero(a, axis, keepdims=keepdims)
    return int(r) if axis is None and not keepdims else r


UniqueAllResult = _namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices",
                                                  "counts"])


UniqueCountsResult = _namedtuple("UniqueCountsResult", ["values", "counts"])


UniqueInverseResult = _namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True):
    """numpy.unique of the flattened array: sorted unique values, and on request the index of
    each value's first occurrence, the flat inverse (numpy 1.24's shape) and the counts. NaNs
    collapse into one value (equal_nan=True, numpy's default), or stay apart (equal_nan=False).
    With axis, the unique
    sub-arrays along it (_unique_along)."""
    if axis is not None:
        return _unique_along(ar, axis, return_index, return_inverse, return_counts)
    x = _asarray(ar)
    if not equal_nan and x.dtype.kind in "fc":  # every NaN its own value: rows of one column
        out = _unique_along(_vkarray.reshape(x, (-1, 1)), 0, return_index, return_inverse,
                            return_counts)
        if isinstance(out, tuple):
            return (_vkarray.reshape(out[0], (-1,)),) + out[1:]
        return _vkarray.reshape(out, (-1,))
    values, index, inverse, counts = _vkarray._unique(ar, bool(return_index),
                                                      bool(return_inverse), bool(return_counts))
    out = (values,) + tuple(x for x, want in ((index, return_index), (inverse, return_inverse),
                                              (counts, return_counts)) if want)
    return out[0] if len(out) == 1 else out


def _unique_along(ar, axis, return_index, return_inverse, return_counts):
    """numpy.unique(axis=): the slices along axis as rows (the other axes flattened), sorted
    lexicographically (lexsort: one stable sort per column), equal neighbours merged as
    numpy's field-wise comparison does (NaN equals nothing, -0.0 equals 0.0)."""
    ar = _asarray(ar)
    axis = _normalize_axis("unique", axis, ar.ndim)
    moved = _vkarray.moveaxis(ar, axis, 0)
    n, rest = moved.shape[0], moved.shape[1:]
    m = int(_np.prod(rest))
    rows = _vkarray.reshape(_vkarray.ascontiguousarray(moved), (n, m))
    if n > 0 and m > 0:
        order = lexsort([rows[:, j] for j in range(m - 1, -1, -1)])  # column 0 sorts first
    else:
        order = _vkarray._arange(n, None, 1, _np.int64)
    srt = _vkarray.take(rows, order, axis=0)
    if n > 0:
        changed = _vkarray.any(srt[1:] != srt[:-1], axis=1)
        mask = concatenate([ones(1, dtype=bool), changed])
    else:
        mask = ones(0, dtype=bool)
    k = int(_vkarray.sum(mask))
    values = _vkarray.reshape(srt[mask], (k,) + rest)
    out = [_vkarray.moveaxis(values, 0, axis)]
    if return_index:
        out.append(order[mask])
    if return_inverse:
        inverse = _vkarray._zeros(n, _np.int64)
        inverse[order] = cumsum(astype(mask, _np.int64)) - 1
        out.append(inverse)
    if return_counts:
        starts = flatnonzero(mask)
        out.append(diff(concatenate([starts, asarray([n])])) if k else starts)
    return out[0] if len(out) == 1 else tuple(out)


def unique_values(x):
    """The array API's unique_values: the sorted unique values of x, flattened."""
    return _vkarray._unique(x, False, False, False)[0]


def unique_counts(x):
    """The array API's unique_counts: (values, counts)."""
    values, _, _, counts = _vkarray._unique(x, False, False, True)
    return UniqueCountsResult(values, counts)


def unique_inverse(x):
    """The array API's unique_inverse: (values, inverse_indices of x's shape)."""
    x = asarray(x)
    values, _, inverse, _ = _vkarray._unique(x, False, True, False)
    return UniqueInverseResult(values, inverse.reshape(x.shape))


def unique_all(x):
    """The array API's unique_all: (values, indices, inverse_indices of x's shape, counts)."""
    x = asarray(x)
    values, index, inverse, counts = _vkarray._unique(x, True, True, True)
    return UniqueAllResult(values, index, inverse.reshape(x.shape), counts)


def union1d(ar1, ar2):
    """numpy.union1d: the sorted unique values of either array."""
    a, b = _asarrays("union1d", [ar1, ar2])
    return unique(concatenate([_vkarray.ravel(a), _vkarray.ravel(b)]))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """numpy.intersect1d: the sorted values in both arrays; with return_indices also the
    index of each in the flattened ar1 and ar2 (the first occurrence unless assume_unique),
    by numpy's algorithm (a stable argsort of both arrays' values together)."""
    a, b = _asarrays("intersect1d", [ar1, ar2])
    ind1 = ind2 = None
    if assume_unique:
        a, b = _vkarray.ravel(a), _vkarray.ravel(b)
    elif return_indices:
        (a, ind1), (b, ind2) = unique(a, return_index=True), unique(b, return_index=True)
    else:
        a, b = unique(a), unique(b)
    aux = concatenate([a, b])
    if not return_indices:
        aux = sort(aux)
        return _vkarray.compress(aux[1:] == aux[:-1], aux[:-1])
    order = argsort(aux, stable=True)
    aux = _vkarray.take(aux, order)
    same = aux[1:] == aux[:-1]
    i1 = _vkarray.compress(same, order[:-1])
    i2 = _vkarray.compress(same, order[1:]) - a.shape[0]
    if ind1 is not None:
        i1, i2 = _vkarray.take(ind1, i1), _vkarray.take(ind2, i2)
    return _vkarray.compress(same, aux[:-1]), i1, i2


def setdiff1d(ar1, ar2, assume_unique=False):
    """numpy.setdiff1d: the sorted unique values of ar1 not in ar2."""
    a, b = _asarrays("setdiff1d", [ar1, ar2])
    a = _vkarray.ravel(a) if assume_unique else unique(a)
    return _vkarray.compress(_vkarray.isin(a, b, invert=True), a)


def setxor1d(ar1, ar2, assume_unique=False):
    """numpy.setxor1d: the sorted unique values in exactly one of the arrays."""
    a, b = _asarrays("setxor1d", [ar1, ar2])
    if not assume_unique:
        a, b = unique(a), unique(b)
    aux = sort(concatenate([_vkarray.ravel(a), _vkarray.ravel(b)]))
    if aux.shape[0] == 0:
        return aux
    true = ones((1,), dtype=_np.bool_)
    flag = concatenate([true, aux[1:] != aux[:-1], true])
    return _vkarray.compress(flag[1:] & flag[:-1], aux)


def msort(a):
    """numpy.msort: a sorted along its first axis, sort(a, axis=0)."""
    return sort(a, axis=0)
