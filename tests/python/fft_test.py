"""vkarray.fft against numpy.fft: every transform, lengths from 1 to 2**20 (primes through
Bluestein), any axis of strided views, n=/s= cropping and padding, the three norms, numpy 2's
dtypes, the frequency helpers, several replicas and numpy's errors.

Tolerance (docs/accuracy.md, "FFT"): a transform of length n in precision eps is within
C * log2(n) * eps * max|X| of the exact result X, elementwise, with C = 4 (C = 8 for lengths
with a prime factor above 13, which VkFFT computes by Bluestein's algorithm: a convolution of
about twice the length, three transforms deep). The reference is numpy's float64 transform
of the same (rounded) input, whose own error is far below the bound."""

import math

import numpy as np
import pytest

import vkarray as vk

LENGTHS = [1, 2, 3, 5, 7, 11, 13, 16, 97, 1000, 4096]
SINGLE = (np.float16, np.float32, np.complex64)


def largest_prime_factor(n):
    p, largest = 2, 1
    while p * p <= n:
        while n % p == 0:
            largest, n = p, n // p
        p += 1
    return n if n > 1 else largest


def tolerance(n, single):
    eps = np.finfo(np.float32 if single else np.float64).eps
    c = 8 if largest_prime_factor(max(n, 1)) > 13 else 4
    return c * max(1.0, math.log2(max(n, 2))) * eps


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else -20, 20, shape).astype(dtype)
    v = rng.uniform(-1, 1, shape)
    if dt.kind == "c":
        v = v + 1j * rng.uniform(-1, 1, shape)
    return v.astype(dtype)


def result_dtype(dtype, real_out=False):
    single = np.dtype(dtype).type in SINGLE
    if real_out:
        return np.dtype(np.float32 if single else np.float64)
    return np.dtype(np.complex64 if single else np.complex128)


def check(got, want, n, single):
    """got (vkarray) against numpy's float64 `want` for a transform of length n."""
    got = np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = np.max(np.abs(want)) if want.size else 0.0
    err = np.max(np.abs(got.astype(np.complex128) - want)) if want.size else 0.0
    assert err <= tolerance(n, single) * max(scale, np.finfo(np.float64).tiny), (err, scale, n)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fft_ifft_lengths(n, dtype):
    x = sample((3, n), dtype, seed=n)
    single = dtype == np.complex64
    y = vk.fft.fft(x)
    assert y.dtype == result_dtype(dtype)
    check(y, np.fft.fft(x.astype(np.complex128)), n, single)
    z = vk.fft.ifft(x)
    check(z, np.fft.ifft(x.astype(np.complex128)), n, single)
    # Round trip.
    check(vk.fft.ifft(y), x.astype(np.complex128), n, single)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rfft_irfft_lengths(n, dtype):
    x = sample((2, n), dtype, seed=n + 1)
    single = dtype == np.float32
    y = vk.fft.rfft(x)
    assert y.dtype == result_dtype(dtype)
    check(y, np.fft.rfft(x.astype(np.float64)), n, single)
    back = vk.fft.irfft(y, n)
    assert back.dtype == result_dtype(dtype, real_out=True)
    check(back, x.astype(np.float64), n, single)
    c = sample((2, n // 2 + 1), np.complex128, seed=n + 2)
    check(vk.fft.irfft(c, n), np.fft.irfft(c, n), n, False)


def test_one_million_points():
    n = 2 ** 20
    x = sample(n, np.complex64, seed=3)
    a = vk.asarray(x)
    check(vk.fft.fft(a), np.fft.fft(x.astype(np.complex128)), n, True)
    np.testing.assert_array_equal(np.asarray(a), x)  # read in place, left as it was
    r = sample(n, np.float32, seed=4)
    check(vk.fft.rfft(r), np.fft.rfft(r.astype(np.float64)), n, True)


@pytest.mark.parametrize("n", [1, 2, 7, 16, 97])
def test_hfft_ihfft(n):
    c = sample((2, n // 2 + 1), np.complex128, seed=n)
    check(vk.fft.hfft(c, n), np.fft.hfft(c, n), n, False)
    r = sample((2, n), np.float64, seed=n + 5)
    check(vk.fft.ihfft(r), np.fft.ihfft(r), n, False)
    assert vk.fft.hfft(c.astype(np.complex64), n).dtype == np.float32


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2])
def test_axes_of_views(axis):
    base = sample((10, 7, 12), np.complex128, seed=axis + 10)
    view = base[::2, :, ::-1]
    x = vk.asarray(base)[::2, :, ::-1]
    n = view.shape[axis]
    check(vk.fft.fft(x, axis=axis), np.fft.fft(view, axis=axis), n, False)
    check(vk.fft.ifft(x, axis=axis), np.fft.ifft(view, axis=axis), n, False)
    r = view.real.copy()
    check(vk.fft.rfft(vk.asarray(r), axis=axis), np.fft.rfft(r, axis=axis), n, False)
    h = np.fft.rfft(r, axis=axis)
    check(vk.fft.irfft(vk.asarray(h), n, axis=axis), np.fft.irfft(h, n, axis=axis), n, False)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_norms(norm):
    n = 12
    x = sample((2, n), np.complex128, seed=7)
    r = x.real.copy()
    h = x[:, : n // 2 + 1].copy()
    for f, a in [("fft", x), ("ifft", x), ("rfft", r), ("irfft", h), ("hfft", h),
                 ("ihfft", r)]:
        nn = n if f in ("irfft", "hfft") else None
        check(getattr(vk.fft, f)(a, nn, norm=norm), getattr(np.fft, f)(a, nn, norm=norm), n,
              False)
    check(vk.fft.fftn(x, norm=norm), np.fft.fftn(x, norm=norm), n, False)
    check(vk.fft.irfftn(h, (2, n), norm=norm), np.fft.irfftn(h, (2, n), norm=norm), n, False)


def test_inverse_transforms_divide_by_n_in_place():
    # numpy's backward norm divides an inverse transform by n: VkFFT does it in its last pass,
    # so no scaling kernel follows; "ortho" (1 / sqrt(n)) stays a lazy multiply.
    x = vk.asarray(sample((8, 64), np.complex64, seed=8))
    counts = {}
    for norm in ("backward", "ortho"):
        vk.eval(vk.fft.ifft(x, norm=norm))
        before = vk.kernel_count()
        y = vk.fft.ifft(x, norm=norm)
        vk.eval(y)
        counts[norm] = vk.kernel_count() - before
        check(y, np.fft.ifft(np.asarray(x), norm=norm), 64, True)
    assert counts["ortho"] == counts["backward"] + 1


@pytest.mark.parametrize("n", [1, 4, 9, 20, 33])
def test_crop_and_pad(n):
    x = sample((3, 10), np.complex128, seed=n)
    r = x.real.copy()
    check(vk.fft.fft(x, n), np.fft.fft(x, n), n, False)
    check(vk.fft.ifft(x, n, axis=0), np.fft.ifft(x, n, axis=0), n, False)
    check(vk.fft.rfft(r, n), np.fft.rfft(r, n), n, False)
    check(vk.fft.irfft(x, n), np.fft.irfft(x, n), n, False)
    check(vk.fft.hfft(x, n), np.fft.hfft(x, n), n, False)
    check(vk.fft.ihfft(r, n), np.fft.ihfft(r, n), n, False)


def test_nd_transforms():
    a2 = sample((6, 10), np.complex128, seed=1)
    a3 = sample((4, 6, 5), np.complex128, seed=2)
    r3 = a3.real.copy()
    check(vk.fft.fft2(a2), np.fft.fft2(a2), 60, False)
    check(vk.fft.ifft2(a2, s=(8, 7)), np.fft.ifft2(a2, s=(8, 7)), 56, False)
    check(vk.fft.fftn(a3), np.fft.fftn(a3), 120, False)
    check(vk.fft.fftn(a3, s=(3, 8), axes=(0, 2)), np.fft.fftn(a3, s=(3, 8), axes=(0, 2)), 24,
          False)
    check(vk.fft.ifftn(a3, s=(5, 4, 6)), np.fft.ifftn(a3, s=(5, 4, 6)), 120, False)
    check(vk.fft.fftn(a3, axes=(1,)), np.fft.fftn(a3, axes=(1,)), 6, False)
    check(vk.fft.rfft2(r3), np.fft.rfft2(r3), 30, False)
    check(vk.fft.rfftn(r3, s=(4, 6, 8)), np.fft.rfftn(r3, s=(4, 6, 8)), 192, False)
    h = np.fft.rfftn(r3)
    check(vk.fft.irfftn(h, r3.shape), np.fft.irfftn(h, r3.shape), 120, False)
    check(vk.fft.irfft2(h), np.fft.irfft2(h), 30, False)
    check(vk.fft.irfftn(h, s=(6, 9), axes=(0, 2)), np.fft.irfftn(h, s=(6, 9), axes=(0, 2)), 54,
          False)


def test_none_lengths_are_the_default_lengths():
    """numpy 1.24 passes each entry of s on to the 1-d transform as n: None is its default."""
    a3 = sample((4, 6, 5), np.complex128, seed=3)
    r3 = a3.real.copy()
    check(vk.fft.fftn(a3, s=(2, None)), np.fft.fftn(a3, s=(2, None)), 60, False)
    check(vk.fft.ifft2(a3, s=(None, 7)), np.fft.ifft2(a3, s=(None, 7)), 42, False)
    check(vk.fft.rfftn(r3, s=(None, 8), axes=(0, 2)), np.fft.rfftn(r3, s=(None, 8), axes=(0, 2)),
          32, False)
    h = np.fft.rfftn(r3)
    check(vk.fft.irfftn(h, s=(3, None, None)), np.fft.irfftn(h, s=(3, None, None)), 72, False)
    check(vk.fft.irfft2(h, s=(None, None)), np.fft.irfft2(h, s=(None, None)), 48, False)


def test_no_axes_is_the_input_itself():
    a = vk.asarray(np.ones((3, 4), bool))
    for f in (vk.fft.fftn, vk.fft.ifftn, vk.fft.fft2, vk.fft.ifft2):
        assert f(a, axes=()) is a and np.fft.fftn(np.ones(2), axes=()).dtype == np.float64


DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype(dtype):
    x = sample((2, 12), dtype, seed=3)
    single = np.dtype(dtype).type in SINGLE
    ref = x.astype(np.complex64 if single else np.complex128).astype(np.complex128)
    y = vk.fft.fft(x)
    assert y.dtype == result_dtype(dtype)
    check(y, np.fft.fft(ref), 12, single)
    check(vk.fft.ifft(x), np.fft.ifft(ref), 12, single)
    if np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError, match="rfft"):
            vk.fft.rfft(x)
        with pytest.raises(TypeError, match="ihfft"):
            vk.fft.ihfft(x)
    else:
        r = vk.fft.rfft(x)
        assert r.dtype == result_dtype(dtype)
        check(r, np.fft.rfft(ref.real), 12, single)
    z = vk.fft.irfft(x)
    assert z.dtype == result_dtype(dtype, real_out=True)
    check(z, np.fft.irfft(ref), 22, single)


def test_empty_and_one_point():
    e = np.zeros((0, 4), np.complex128)
    y = vk.fft.fft(e)
    assert y.shape == (0, 4) and y.dtype == np.complex128
    assert vk.fft.rfft(np.zeros((3, 0, 8))).shape == (3, 0, 5)
    x = sample((3, 1), np.complex128)
    np.testing.assert_array_equal(np.asarray(vk.fft.fft(x)), np.fft.fft(x))
    np.testing.assert_array_equal(np.asarray(vk.fft.fft(np.zeros((2, 0)), 3)),
                                  np.zeros((2, 3), np.complex128))


def test_errors():
    x = sample(4, np.complex128)
    for f in (vk.fft.fft, vk.fft.ifft, vk.fft.irfft, vk.fft.hfft):
        with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\) specified."):
            f(x, 0)
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(-2\)"):
        vk.fft.rfft(x.real, -2)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        vk.fft.fft(np.zeros((3, 0)))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        vk.fft.irfft(np.zeros(1, np.complex128))
    with pytest.raises(np.AxisError):
        vk.fft.fft(x, axis=1)
    with pytest.raises(np.AxisError):
        vk.fft.fftn(x, axes=(0, 3))
    with pytest.raises(IndexError):
        vk.fft.fft(np.float64(2.0))
    with pytest.raises(ValueError, match="Invalid norm value sideways"):
        vk.fft.fft(x, norm="sideways")
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        vk.fft.fftn(np.zeros((2, 2)), s=(2, 2), axes=(0,))


def test_input_unchanged_and_deterministic():
    x = sample((4, 97), np.complex64, seed=11)
    a = vk.asarray(x)
    first = np.asarray(vk.fft.ifft(a))
    second = np.asarray(vk.fft.ifft(a))
    np.testing.assert_array_equal(np.asarray(a), x)
    np.testing.assert_array_equal(first, second)
    f1, f2 = np.asarray(vk.fft.fft(a)), np.asarray(vk.fft.fft(a))
    np.testing.assert_array_equal(np.asarray(a), x)
    np.testing.assert_array_equal(f1, f2)


def test_lazy_input_and_consumer():
    x = sample((5, 16), np.float64, seed=12)
    a = vk.asarray(x)
    y = vk.abs(vk.fft.fft(a * 2 + 1, norm="ortho")) ** 2
    check(y, np.abs(np.fft.fft(x * 2 + 1, norm="ortho")) ** 2, 16, False)


def test_out():
    x = sample((2, 8), np.complex128, seed=13)
    out = vk.zeros((2, 8), np.complex128)
    r = vk.fft.fft(x, out=out)
    assert r is out
    check(out, np.fft.fft(x), 8, False)
    with pytest.raises(ValueError, match="shape"):
        vk.fft.fft(x, 4, out=out)


def test_every_replica(ctx3):
    x = vk.asarray(np.zeros((2, 13), np.complex128), context=ctx3)
    data = [sample((2, 13), np.complex128, seed=30 + r) for r in range(3)]
    for r in range(3):
        x.write(data[r], r)
    got = vk.fft.fft(x).read()
    for r in range(3):
        check(got[r], np.fft.fft(data[r]), 13, False)
    got = vk.fft.irfft(x, 24, axis=1).read()
    for r in range(3):
        check(got[r], np.fft.irfft(data[r], 24, axis=1), 24, False)


@pytest.mark.parametrize("n", [1, 2, 7, 8, 1000])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_frequencies(n, d):
    np.testing.assert_array_equal(np.asarray(vk.fft.fftfreq(n, d)), np.fft.fftfreq(n, d))
    np.testing.assert_array_equal(np.asarray(vk.fft.rfftfreq(n, d)), np.fft.rfftfreq(n, d))
    assert vk.fft.fftfreq(n, d).dtype == np.float64


def test_shifts():
    x = np.arange(60).reshape(4, 15)
    for axes in (None, 0, 1, (0, 1), [1]):
        np.testing.assert_array_equal(np.asarray(vk.fft.fftshift(x, axes)),
                                      np.fft.fftshift(x, axes))
        np.testing.assert_array_equal(np.asarray(vk.fft.ifftshift(x, axes)),
                                      np.fft.ifftshift(x, axes))
    f = np.fft.fftfreq(9)
    np.testing.assert_array_equal(np.asarray(vk.fft.ifftshift(vk.fft.fftshift(f))), f)
