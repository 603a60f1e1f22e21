"""median, quantile, percentile and average against numpy: axes, keepdims, q arrays, NaN,
integer inputs, weights, and numpy's errors."""

import warnings

import numpy as np
import pytest

import vkarray as vk

RNG = np.random.default_rng(11)


def check(got, want, rtol=1e-12, dtype=None):
    got = got.get() if isinstance(got, vk.ndarray) else np.asarray(got)
    want = np.asarray(want) if dtype is None else np.asarray(want).astype(dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)])
def test_median_and_quantiles_match_numpy(dtype, axis):
    x = RNG.integers(0, 50, (4, 5, 6)).astype(dtype)
    xv = vk.asarray(x)
    rtol = 1e-6 if dtype == np.float32 else 1e-12
    check(vk.median(xv, axis=axis), np.median(x, axis=axis), rtol)
    # numpy 2's dtypes (numpy 1.24 promotes float32 by a Python float q to float64)
    scalar_q = np.dtype(dtype) if np.dtype(dtype).kind == "f" else np.float64
    for q in [0.0, 0.3, 0.5, 1.0, [0.1, 0.75]]:
        want_dtype = scalar_q if np.isscalar(q) else np.float64
        check(vk.quantile(xv, q, axis=axis), np.quantile(x, q, axis=axis), rtol, want_dtype)
    check(vk.percentile(xv, [25, 50, 90], axis=axis, keepdims=True),
          np.percentile(x, [25, 50, 90], axis=axis, keepdims=True), rtol)


def test_odd_and_even_lengths_and_keepdims():
    for n in [1, 2, 7, 1000, 1001]:
        x = RNG.standard_normal(n)
        check(vk.median(vk.asarray(x)), np.median(x))
        check(vk.median(vk.asarray(x), keepdims=True), np.median(x, keepdims=True))


def test_nan_slices_give_nan():
    x = RNG.standard_normal((3, 8))
    x[1, 4] = np.nan
    xv = vk.asarray(x)
    check(vk.median(xv, axis=1), np.median(x, axis=1))
    check(vk.quantile(xv, 0.25, axis=1), np.quantile(x, 0.25, axis=1))
    check(vk.nanmedian(vk.asarray(x[[0, 2]]), axis=1), np.nanmedian(x[[0, 2]], axis=1))


@pytest.mark.parametrize("method", ["lower", "higher", "nearest", "midpoint", "linear"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
def test_quantile_methods_match_numpy(method, dtype):
    """The picking methods keep the input's dtype, the interpolating ones give floats; the
    nan forms pick among each slice's non-NaN values (an all-NaN slice gives NaN)."""
    x = (RNG.random((4, 5, 7)) * 50).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[1, 2, 3] = np.nan
        x[2] = np.nan
    xv = vk.asarray(x)
    rtol = 1e-6 if dtype == np.float32 else 1e-12
    q = [0.0, 0.25, 0.5, 0.55, 0.9, 1.0]  # 0.25 and 0.5 of 7 values fall on halves
    for axis in [None, -1, (0, 2)]:
        check(vk.quantile(xv, q, axis=axis, method=method),
              np.quantile(x, q, axis=axis, method=method), rtol)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.nanquantile(x, q, axis=axis, method=method)
        check(vk.nanquantile(xv, q, axis=axis, method=method), want, rtol)
    check(vk.percentile(xv, [10, 50], axis=1, method=method, keepdims=True),
          np.percentile(x, [10, 50], axis=1, method=method, keepdims=True), rtol)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_nanmedian_skips_nan(dtype):
    x = RNG.standard_normal((4, 6, 5)).astype(dtype)
    x[0, 1, 2] = x[1, :, 3] = x[3, 2:4, 0] = np.nan
    x[2] = np.nan
    xv = vk.asarray(x)
    for axis in [None, 0, 1, -1, (0, 2)]:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.nanmedian(x, axis=axis, keepdims=True)
        check(vk.nanmedian(xv, axis=axis, keepdims=True), want, 0)


def test_quantile_errors():
    xv = vk.asarray(np.arange(5.0))
    with pytest.raises(ValueError, match="not a valid method"):
        vk.quantile(xv, 0.5, method="deadbeef")
    with pytest.raises(NotImplementedError, match="'hazen' is not supported yet"):
        vk.nanquantile(xv, 0.5, method="hazen")
    with pytest.raises(ValueError, match="range"):
        vk.quantile(xv, 1.5)
    with pytest.raises(ValueError, match="range"):
        vk.percentile(xv, -1)
    with pytest.raises(ValueError, match="empty"):
        vk.median(vk.zeros((0,)))


def test_average_with_and_without_weights():
    x = RNG.standard_normal((5, 6))
    w = RNG.random((5, 6))
    xv, wv = vk.asarray(x), vk.asarray(w)
    check(vk.average(xv), np.average(x))
    check(vk.average(xv, axis=1, weights=wv), np.average(x, axis=1, weights=w))
    w1 = RNG.random(5)
    check(vk.average(xv, axis=0, weights=vk.asarray(w1)), np.average(x, axis=0, weights=w1))
    avg, scl = vk.average(xv, axis=1, weights=wv, returned=True)
    want_avg, want_scl = np.average(x, axis=1, weights=w, returned=True)
    check(avg, want_avg)
    check(scl, want_scl)
    xi = RNG.integers(0, 9, (4, 3))
    check(vk.average(vk.asarray(xi), axis=1, weights=vk.asarray(np.ones((4, 3), np.int64))),
          np.average(xi, axis=1, weights=np.ones((4, 3), np.int64)))
    with pytest.raises(ZeroDivisionError):
        vk.average(xv, axis=1, weights=vk.zeros((5, 6)))
    with pytest.raises(TypeError, match="Axis must be specified"):
        vk.average(xv, weights=vk.asarray(w1))


def test_q_of_more_than_one_axis_is_refused():
    a = vk.asarray(np.arange(24.0).reshape(4, 6))
    q = np.full((1, 2, 3), 0.5)
    for fn, scale in (("quantile", 1), ("percentile", 100), ("nanquantile", 1),
                      ("nanpercentile", 100)):
        with pytest.raises(ValueError, match="scalar or 1d"):
            getattr(np, fn)(a.get(), q * scale, axis=-1)
        with pytest.raises(ValueError, match="scalar or 1d"):
            getattr(vk, fn)(a, q * scale, axis=-1)


@pytest.mark.parametrize("right", [False, True])
def test_digitize_bins_with_nan_at_the_large_end(right):
    """numpy's monotonicity check: NaNs (which compare false) may close increasing bins or
    open decreasing ones; all-NaN or all-equal bins pass."""
    x = np.arange(1, 15, dtype=np.float32)
    x[5] = np.nan
    for bins in ([1.0, 3, 5, 8, np.nan], [np.nan, 8, 5, 3, 1], [np.nan] * 3,
                 [1.0, 3, 5, 8, np.nan, np.nan], [np.nan, np.nan, 8, 5, 3, 1], [1.0, 1, 1],
                 [2.0]):
        b = np.array(bins, np.float32)
        check(vk.digitize(vk.asarray(x), vk.asarray(b), right), np.digitize(x, b, right))
    with pytest.raises(ValueError, match="monotonically"):
        vk.digitize(vk.asarray(x), vk.asarray(np.array([3.0, 1, 2])))


def test_quantiles_and_swapped_correlations_are_c_contiguous_as_numpys():
    a = np.random.default_rng(3).random((4, 3, 10, 2))
    for q in ([10.0, 50.0], 30.0):
        got = vk.percentile(vk.asarray(a), vk.asarray(q), axis=-1)
        want = np.percentile(a, q, axis=-1)
        assert got.flags.c_contiguous and got.strides == want.strides
        np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    for n, m in [(5, 6), (6, 21)]:
        x, v = np.arange(n, dtype=np.float64), np.arange(m, dtype=np.float64) - 3
        for mode in ("valid", "same", "full"):
            got = vk.correlate(vk.asarray(x), vk.asarray(v), mode)
            assert got.flags.c_contiguous
            np.testing.assert_array_equal(got.get(), np.correlate(x, v, mode))
