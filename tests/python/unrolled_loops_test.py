"""Flat kernels that compute several elements per invocation (runtime/launch.cc: unroll; on CPU
devices such as lavapipe, every flat kernel with a tape up to 1024 entries): results at sizes
around the unrolled grid's edges, contiguous, offset and strided, bit-identical to numpy."""
import numpy
import pytest

import vkarray as vk

# Around multiples of 4 elements per invocation times 256 invocations a workgroup.
SIZES = [1, 3, 4, 5, 1023, 1024, 1025, 4095, 4097, 100003]


def _horner(np, x, terms):
    # 2 * terms tape entries: past the 256 of 4-vectors, so one element per step, unrolled.
    r = x * 0.0 + 1.0
    for k in range(terms):
        r = r * x + (k % 7 - 3) * 0.125
    return r


@pytest.mark.parametrize("n", SIZES)
def test_long_contiguous_tapes(n):
    a = numpy.random.default_rng(n).uniform(-1.1, 1.1, n)
    got = numpy.asarray(_horner(vk, vk.asarray(a), 150))
    numpy.testing.assert_array_equal(got, _horner(numpy, a, 150))


@pytest.mark.parametrize("n", [5, 1025, 4097])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int32])
def test_short_tapes_over_offset_views(n, dtype):
    # An offset of 1 is no 4-vector: one element per step, unrolled.
    a = (numpy.random.default_rng(3).uniform(-50, 50, n + 1)).astype(dtype)
    b = (numpy.random.default_rng(4).uniform(-50, 50, n + 1)).astype(dtype)
    x, y = vk.asarray(a)[1:], vk.asarray(b)[:-1]
    got = numpy.asarray(x * y - x + dtype(3))
    numpy.testing.assert_array_equal(got, a[1:] * b[:-1] - a[1:] + dtype(3))


@pytest.mark.parametrize("n", [7, 2049])
def test_long_strided_tapes(n):
    a = numpy.random.default_rng(5).uniform(-1.1, 1.1, 2 * n)
    got = numpy.asarray(_horner(vk, vk.asarray(a)[::2], 150))
    numpy.testing.assert_array_equal(got, _horner(numpy, a[::2], 150))
