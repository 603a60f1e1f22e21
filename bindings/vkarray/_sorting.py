"""unique and the array API's unique_* functions, on the device's sort (vkarray._vkarray._unique)."""

from collections import namedtuple as _namedtuple

from . import _vkarray

__all__ = ["unique", "unique_values", "unique_counts", "unique_inverse", "unique_all"]

UniqueAllResult = _namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices",
                                                  "counts"])
UniqueCountsResult = _namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = _namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True):
    """numpy.unique of the flattened array: sorted unique values, and on request the index of
    each value's first occurrence, the flat inverse (numpy 1.24's shape) and the counts. NaNs
    collapse into one value (equal_nan=True, numpy's default)."""
    if axis is not None:
        raise NotImplementedError("[unique] axis= is not supported yet (axis=None only)")
    if not equal_nan:
        raise NotImplementedError("[unique] equal_nan=False is not supported yet")
    values, index, inverse, counts = _vkarray._unique(ar, bool(return_index),
                                                      bool(return_inverse), bool(return_counts))
    out = (values,) + tuple(x for x, want in ((index, return_index), (inverse, return_inverse),
                                              (counts, return_counts)) if want)
    return out[0] if len(out) == 1 else out


def unique_values(x):
    """The array API's unique_values: the sorted unique values of x, flattened."""
    return _vkarray._unique(x, False, False, False)[0]


def unique_counts(x):
    """The array API's unique_counts: (values, counts)."""
    values, _, _, counts = _vkarray._unique(x, False, False, True)
    return UniqueCountsResult(values, counts)


def unique_inverse(x):
    """The array API's unique_inverse: (values, inverse_indices of x's shape)."""
    x = _vkarray.asarray(x)
    values, _, inverse, _ = _vkarray._unique(x, False, True, False)
    return UniqueInverseResult(values, inverse.reshape(x.shape))


def unique_all(x):
    """The array API's unique_all: (values, indices, inverse_indices of x's shape, counts)."""
    x = _vkarray.asarray(x)
    values, index, inverse, counts = _vkarray._unique(x, True, True, True)
    return UniqueAllResult(values, index, inverse.reshape(x.shape), counts)
