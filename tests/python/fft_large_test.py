"""vkarray.fft on operands larger than a binding (maxStorageBufferRange, 128 MiB on lavapipe):
batches run in chunks of rows through staging buffers, and rows longer than a binding by the
four-step decomposition (Bluestein's convolution for a prime length). A context that binds at
most 4 KiB (Context(max_storage_buffer_range=)) takes these paths with small arrays; two cases
run past lavapipe's own range. Same bound as tests/python/fft_test.py (docs/accuracy.md,
"FFT")."""

import math

import numpy as np
import pytest

import vkarray as vk

LIMIT = 4096  # bytes: 512 complex64 numbers


def largest_prime_factor(n):
    p, largest = 2, 1
    while p * p <= n:
        while n % p == 0:
            largest, n = p, n // p
        p += 1
    return n if n > 1 else largest


def check(got, want, n, single):
    """got (vkarray) against numpy's float64 `want` for a transform of length n."""
    got = np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    eps = np.finfo(np.float32 if single else np.float64).eps
    c = 8 if largest_prime_factor(max(n, 1)) > 13 else 4
    bound = c * max(1.0, math.log2(max(n, 2))) * eps * np.max(np.abs(want))
    err = np.max(np.abs(got.astype(np.complex128) - want))
    assert err <= bound, (err, bound, n)


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    v = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.uniform(-1, 1, shape)
    return v.astype(dtype)


@pytest.fixture(scope="module")
def small():
    """A context whose kernels bind at most LIMIT bytes of a buffer."""
    ctx = vk.Context(max_storage_buffer_range=LIMIT)
    assert ctx.devices[0]["max_storage_buffer_range"] == LIMIT
    return ctx


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_batches_in_chunks(small, dtype):
    """64-point rows (520 bytes a row for VkFFT): 100 rows are 13 chunks of 8 (complex64)."""
    x = sample((100, 64), dtype, seed=1)
    single = dtype == np.complex64
    want = x.astype(np.complex128)
    a = vk.asarray(x, context=small)
    check(vk.fft.fft(a), np.fft.fft(want), 64, single)
    check(vk.fft.ifft(a), np.fft.ifft(want), 64, single)
    check(vk.fft.fft(a, n=50), np.fft.fft(want, n=50), 50, single)  # cropped
    check(vk.fft.fft(a.T, axis=0), np.fft.fft(want.T, axis=0), 64, single)  # strided
    r = x.real.copy()
    check(vk.fft.rfft(vk.asarray(r, context=small)), np.fft.rfft(r.astype(np.float64)), 64,
          single)
    h = np.fft.rfft(r.astype(np.float64)).astype(dtype)
    check(vk.fft.irfft(vk.asarray(h, context=small)), np.fft.irfft(h.astype(np.complex128)), 64,
          single)
    check(vk.fft.hfft(vk.asarray(h, context=small)), np.fft.hfft(h.astype(np.complex128)), 64,
          single)


@pytest.mark.parametrize("n", [1000, 1024, 6000])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_rows_longer_than_a_binding(small, n, dtype):
    """n = n1 * n2 in four steps: 1000 = 25 * 40, 1024 = 32 * 32, 6000 = 75 * 80."""
    x = sample((2, n), dtype, seed=n)
    single = dtype == np.complex64
    want = x.astype(np.complex128)
    a = vk.asarray(x, context=small)
    check(vk.fft.fft(a), np.fft.fft(want), n, single)
    check(vk.fft.ifft(a), np.fft.ifft(want), n, single)
    check(vk.fft.fft(a, n=n + 8), np.fft.fft(want, n=n + 8), n + 8, single)  # zero-padded
    check(vk.fft.ifft(vk.fft.fft(a)), want, n, single)


def test_a_matrix_of_columns_within_a_binding(small):
    """272 = 16 * 17 has a factor over 13: VkFFT would pad a row to about 4 * 272 numbers, more
    than a binding, so four steps; the (16, 17) matrix itself fits, and its columns go whole."""
    x = sample(272, np.complex64, seed=272)
    want = x.astype(np.complex128)
    a = vk.asarray(x, context=small)
    check(vk.fft.fft(a), np.fft.fft(want), 272, True)
    check(vk.fft.ifft(a), np.fft.ifft(want), 272, True)
    np.testing.assert_array_equal(np.asarray(a), x)  # the inverse works in a copy


@pytest.mark.parametrize("n", [2000, 2001])
def test_real_rows_longer_than_a_binding(small, n):
    x = sample((2, n), np.float32, seed=n)
    want = np.fft.rfft(x.astype(np.float64))
    a = vk.asarray(x, context=small)
    y = vk.fft.rfft(a)
    assert y.dtype == np.complex64
    check(y, want, n, True)
    check(vk.fft.irfft(y, n), x.astype(np.float64), n, True)
    h = want.astype(np.complex64)
    # irfft reads only the real parts of the zero and Nyquist frequencies.
    h[:, 0] += 0.5j
    check(vk.fft.irfft(vk.asarray(h, context=small), n), np.fft.irfft(h.astype(np.complex128), n),
          n, True)
    check(vk.fft.irfft(vk.asarray(h, context=small), 2 * n + 3),
          np.fft.irfft(h.astype(np.complex128), 2 * n + 3), 2 * n + 3, True)  # padded
    check(vk.fft.ihfft(a), np.fft.ihfft(x.astype(np.float64)), n, True)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_a_prime_length_longer_than_a_binding(small, dtype):
    """997 has no factors: Bluestein's convolution of length 2048 = 32 * 64."""
    x = sample((2, 997), dtype, seed=997)
    single = dtype == np.complex64
    want = x.astype(np.complex128)
    a = vk.asarray(x, context=small)
    check(vk.fft.fft(a), np.fft.fft(want), 997, single)
    check(vk.fft.ifft(a), np.fft.ifft(want), 997, single)


def test_n_dimensional(small):
    x = sample((48, 40, 30), np.complex128, seed=3)
    a = vk.asarray(x, context=small)
    check(vk.fft.fftn(a), np.fft.fftn(x), x.size, False)
    check(vk.fft.ifft2(a, s=(50, 20)), np.fft.ifft2(x, s=(50, 20)), 1000, False)
    r = x.real.copy()
    y = vk.fft.rfftn(vk.asarray(r, context=small))
    check(y, np.fft.rfftn(r), r.size, False)
    check(vk.fft.irfftn(y, r.shape), r, r.size, False)


def test_a_batch_past_lavapipes_binding():
    """rfft and irfft of 4100 rows of 8192 float32 (134 MB each way): chunks of rows."""
    x = sample((4100, 8192), np.float32, seed=5)
    assert x.nbytes > 1 << 27
    a = vk.asarray(x)
    y = vk.fft.rfft(a)
    want = np.fft.rfft(x.astype(np.float64))
    check(y, want, 8192, True)
    del want
    check(vk.fft.irfft(y, 8192), x.astype(np.float64), 8192, True)


def test_a_row_past_lavapipes_binding():
    """One transform of 2**21 * 9 complex64 numbers (144 MiB): 4096 * 4608 in four steps."""
    n = 9 << 21
    x = sample(n, np.complex64, seed=6)
    check(vk.fft.fft(vk.asarray(x)), np.fft.fft(x.astype(np.complex128)), n, True)
