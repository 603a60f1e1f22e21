"""Keys of exact Python ints, slices, None and Ellipsis take the binding's basic-index path
(bindings/index_py.h: basic_index); every other key the general one. Both against numpy, reads
and writes, including the keys at the border between them."""
import numpy
import pytest

import vkarray as vk

KEYS = [
    (2, -1), 1, -3, (slice(1, 3), None, Ellipsis), (), (Ellipsis, 0), (slice(None, None, -2), 1),
    (None,), (0, slice(2, None)),
    # the general path: numpy integers, bools, arrays and lists
    (numpy.int64(1), 2), True, (numpy.int32(-1),), ([0, 2], 1), numpy.array([1, 0]),
]


def _pair():
    a = numpy.arange(4 * 5, dtype=numpy.float64).reshape(4, 5)
    return a, vk.asarray(a)


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_reads(key):
    a, x = _pair()
    numpy.testing.assert_array_equal(numpy.asarray(x[key]), a[key])


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_writes(key):
    a, x = _pair()
    a[key] = -7.5
    x[key] = -7.5
    numpy.testing.assert_array_equal(numpy.asarray(x), a)


def test_an_element_written_from_another():
    a, x = _pair()
    for i in range(1, 4):
        a[i, i] = a[i - 1, i - 1] * 0.5 + 1.0
        x[i, i] = x[i - 1, i - 1] * 0.5 + 1.0
    numpy.testing.assert_array_equal(numpy.asarray(x), a)


def test_out_of_range_ints_name_the_index():
    _, x = _pair()
    with pytest.raises(IndexError, match="out of bounds"):
        x[2**70]
    with pytest.raises(IndexError, match="out of bounds"):
        x[4]
    with pytest.raises(IndexError, match="out of bounds"):
        x[0, -6] = 1.0
