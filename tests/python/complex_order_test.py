"""Complex maximum/minimum/fmax/fmin and their reductions (max, min, ptp, nanmax, nanmin,
argmax, argmin, nanargmax, nanargmin) against numpy: lexicographic order, NaN rules, ties."""

import numpy as np
import pytest

import vkarray as vk

RNG = np.random.default_rng(22)
NAN = float("nan")
INF = float("inf")


def with_nans(shape, dtype, share=0.1):
    """Small integer parts (many ties of the real part), NaN in either part of some elements."""
    re = RNG.integers(-3, 4, shape).astype(float)
    im = RNG.integers(-3, 4, shape).astype(float)
    re[RNG.random(shape) < share / 2] = NAN
    im[RNG.random(shape) < share / 2] = NAN
    return (re + 1j * im).astype(dtype)


def same(got, want):
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin"])
def test_binary_ops_follow_numpys_loops(name, dtype):
    a = with_nans((40, 30), dtype, 0.2)
    b = with_nans((40, 30), dtype, 0.2)
    want = getattr(np, name)(a, b)
    got = getattr(vk, name)(vk.asarray(a), vk.asarray(b))
    same(got, want)
    # the NaN numpy keeps is the operand's own: compare the bits of both parts
    np.testing.assert_array_equal(np.isnan(np.asarray(got).real), np.isnan(want.real))
    np.testing.assert_array_equal(np.isnan(np.asarray(got).imag), np.isnan(want.imag))


def test_infinities_and_signed_parts():
    a = np.array([complex(-INF, -INF), complex(-INF, 1), complex(INF, -INF), complex(1, NAN),
                  complex(2, 0), complex(0, -0.0)])
    b = np.array([complex(-INF, 0), complex(-INF, -INF), complex(INF, INF), complex(3, 0),
                  complex(NAN, 0), complex(0, 0.0)])
    for name in ("maximum", "minimum", "fmax", "fmin"):
        same(getattr(vk, name)(vk.asarray(a), vk.asarray(b)), getattr(np, name)(a, b))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["max", "min", "ptp", "argmax", "argmin"])
def test_reductions_without_nans(name, dtype):
    x = with_nans((6, 7, 5), dtype, 0)
    for axis in (None, 0, 1, -1, (0, 2)):
        if name.startswith("arg") and isinstance(axis, tuple):
            continue
        same(getattr(vk, name)(vk.asarray(x), axis=axis), getattr(np, name)(x, axis=axis))


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin", "nanmax", "nanmin",
                                  "nanargmax", "nanargmin"])
def test_reductions_with_nans(name):
    x = with_nans((9, 11), np.complex128, 0.15)
    x[2] = complex(NAN, NAN)  # an all-NaN row
    for axis in (None, 0):
        want = getattr(np, name)(x, axis=axis)
        got = getattr(vk, name)(vk.asarray(x), axis=axis)
        if name.startswith("nanarg") and axis is None:
            same(got, want)
            continue
        # numpy's NaN results: the first NaN (max, min) or an all-NaN slice (nanmax, nanmin)
        np.testing.assert_array_equal(np.isnan(np.asarray(got)), np.isnan(want))
        keep = ~np.isnan(want)
        same(np.asarray(got)[keep], np.asarray(want)[keep])
    if name.startswith("nanarg"):
        with pytest.raises(ValueError, match="All-NaN slice"):
            getattr(vk, name)(vk.asarray(x), axis=1)


@pytest.mark.parametrize("n", [1000, 100003])
def test_long_reductions_combine_partial_results(n):
    x = with_nans(n, np.complex64, 0)
    x[n // 3] = complex(3, 5)  # the one largest element
    x[n // 2] = complex(-3, -5)
    xv = vk.asarray(x)
    same(vk.max(xv), np.max(x))
    same(vk.min(xv), np.min(x))
    same(vk.argmax(xv), np.argmax(x))
    same(vk.argmin(xv), np.argmin(x))
    x[n - 5] = complex(1, NAN)
    assert np.isnan(vk.max(vk.asarray(x)).item())
    same(vk.argmax(vk.asarray(x)), np.argmax(x))
    same(vk.nanmax(vk.asarray(x)), np.nanmax(x))


def test_empty_reductions_raise_as_numpy():
    x = vk.zeros((0, 3), np.complex64)
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        vk.max(x, axis=0)
    with pytest.raises(ValueError, match="argmax of an empty sequence"):
        vk.argmax(x)
    same(vk.max(x, axis=1), np.max(np.zeros((0, 3), np.complex64), axis=1))
