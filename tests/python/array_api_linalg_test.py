"""vkarray.linalg and vkarray.fft against numpy where the array API test suite found gaps:
named results, 0x0 matrices, entries near the dtype's limits (the Jacobi solvers' power-of-two
scaling), and fftfreq/rfftfreq's dtype= and device=."""

import numpy as np
import pytest

import vkarray as vk


def test_named_results():
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    x = vk.asarray(a)
    w, v = np.linalg.eigh(a)
    r = vk.linalg.eigh(x)
    assert type(r).__name__ == "EighResult" and isinstance(r, tuple)
    np.testing.assert_allclose(r.eigenvalues.get(), w, rtol=1e-14)
    np.testing.assert_allclose(np.abs(r.eigenvectors.get()), np.abs(v), rtol=1e-12)
    q = vk.linalg.qr(x)
    assert type(q).__name__ == "QRResult"
    np.testing.assert_allclose((q.Q @ q.R).get(), a, rtol=1e-14)
    sl = vk.linalg.slogdet(x)
    assert type(sl).__name__ == "SlogdetResult"
    assert float(sl.sign) == 1.0 and abs(float(sl.logabsdet) - np.log(11.0)) < 1e-14
    u, s, vh = vk.linalg.svd(x)
    r = vk.linalg.svd(x)
    assert type(r).__name__ == "SVDResult"
    np.testing.assert_allclose(r.S.get(), np.linalg.svd(a, compute_uv=False), rtol=1e-14)


@pytest.mark.parametrize("batch", [(), (3,)])
def test_empty_matrices(batch):
    a = np.zeros(batch + (0, 0), np.float32)
    assert vk.linalg.inv(vk.asarray(a)).shape == np.linalg.inv(a).shape
    assert vk.linalg.inv(vk.asarray(a)).dtype == np.float32
    b = np.zeros(batch + (0, 2), np.float32)
    got = vk.linalg.solve(vk.asarray(a), vk.asarray(b))
    want = np.linalg.solve(a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    for _ in range(3):  # every call, not just the first
        assert vk.linalg.solve(vk.asarray(a), vk.asarray(b)).shape == want.shape
    assert vk.linalg.inv(vk.zeros((0, 0), vk.int32)).dtype == np.float64


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("magnitude", ["huge", "tiny"])
def test_extreme_entries(dtype, magnitude):
    """Entries whose squares overflow (or underflow) the dtype: numpy's LAPACK scales them,
    so do vkarray's Jacobi solvers."""
    real = np.finfo(dtype).dtype
    big = float(np.finfo(real).max) / 4 if magnitude == "huge" else \
        float(np.finfo(real).tiny) * 2 ** 20
    rng = np.random.default_rng(0)
    a = (rng.uniform(-1, 1, (2, 4, 4)) * big).astype(dtype)
    h = (a + np.conj(np.swapaxes(a, -1, -2))) / 2  # Hermitian, still near the limits
    tol = 1e-4 if real == np.float32 else 1e-10
    np.testing.assert_allclose(vk.linalg.svdvals(vk.asarray(a)).get() / big,
                               np.linalg.svd(a, compute_uv=False) / big, rtol=tol, atol=tol)
    np.testing.assert_allclose(vk.linalg.svd(vk.asarray(a)).S.get() / big,
                               np.linalg.svd(a, compute_uv=False) / big, rtol=tol, atol=tol)
    np.testing.assert_allclose(vk.linalg.eigvalsh(vk.asarray(h)).get() / big,
                               np.linalg.eigvalsh(h) / big, rtol=tol, atol=tol)
    np.testing.assert_allclose(vk.linalg.eigh(vk.asarray(h)).eigenvalues.get() / big,
                               np.linalg.eigvalsh(h) / big, rtol=tol, atol=tol)


def test_zero_and_nonfinite_matrices_keep_their_values():
    z = np.zeros((3, 3), np.float32)
    np.testing.assert_array_equal(vk.linalg.svdvals(vk.asarray(z)).get(), np.zeros(3))
    np.testing.assert_array_equal(vk.linalg.eigvalsh(vk.asarray(z)).get(), np.zeros(3))
    i = np.eye(3)
    np.testing.assert_array_equal(vk.linalg.svdvals(vk.asarray(i)).get(), np.ones(3))


@pytest.mark.parametrize("fn", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n", [1, 7, 1000])
def test_freq_dtype_and_device(fn, n):
    want = getattr(np.fft, fn)(n, 0.3)
    for dtype in (None, vk.float32, vk.float64):
        got = getattr(vk.fft, fn)(n, 0.3, dtype=dtype)
        assert got.dtype == (want.dtype if dtype is None else dtype)
        np.testing.assert_allclose(got.get(), want.astype(got.dtype), rtol=1e-7)
    dev = vk.ones(1).device
    assert getattr(vk.fft, fn)(n, device=dev).device == dev
    with pytest.raises(TypeError, match=r"\[fftfreq\] dtype must be a real floating dtype"):
        getattr(vk.fft, fn)(n, dtype=vk.int32)


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_repeated_columns_converge(dtype):
    """A rank-2 matrix of repeated columns (found by the array API tests): a column reduced to
    rounding noise kept the Jacobi sweeps turning until they gave up ("SVD did not
    converge"); pairs below (eps ||A||_F)^2 are now left alone."""
    c = 1.1334306724047154
    a = np.full((6, 5), c)
    a[0, 2], a[2, 2] = -0.12471107899799247, -1.2342762861236334
    a = a.astype(dtype)
    eps = np.finfo(a.real.dtype).eps
    want = np.linalg.svd(a, compute_uv=False)
    got = vk.linalg.svdvals(vk.asarray(a)).get()
    np.testing.assert_allclose(got, want, rtol=0, atol=16 * eps * want[0])
    u, s, vh = vk.linalg.svd(vk.asarray(a), full_matrices=False)
    np.testing.assert_allclose(((u * s[..., None, :]) @ vh).get(), a, rtol=0, atol=16 * eps * c)
    assert int(vk.linalg.matrix_rank(vk.asarray(a))) == np.linalg.matrix_rank(a) == 2
    if dtype == "float64":  # float32's noise-level singular values sit above pinv's 1e-15
        np.testing.assert_allclose(vk.linalg.pinv(vk.asarray(a)).get(), np.linalg.pinv(a),
                                   rtol=0, atol=1e3 * eps)


def test_svd_norms_of_entries_far_apart():
    """The 2, -2 and nuclear norms of complex matrices with entries from 5e16 to 2.6e137 (the
    SVD's entries are scaled by a power of two first, as linalg.svd's)."""
    rng = np.random.default_rng(137)
    for trial in range(40):
        shape = tuple(int(d) for d in rng.integers(1, 5, 2))
        a = 10 ** rng.uniform(16.7, 137.4, shape) * np.exp(1j * rng.uniform(0, 6.3, shape))
        a[rng.random(shape) < 0.3] = 0
        for ord in (2, "nuc"):
            want = np.linalg.norm(a, ord)
            np.testing.assert_allclose(float(vk.linalg.matrix_norm(vk.asarray(a), ord=ord)), want,
                                       rtol=1e-12)
            np.testing.assert_allclose(float(vk.linalg.norm(vk.asarray(a), ord)), want,
                                       rtol=1e-12)
        # the smallest singular value: exact only to a few eps ||A|| (a backward-stable SVD's
        # bound; here it is often 100 orders of magnitude below ||A||)
        bound = 4 * np.finfo(np.float64).eps * np.linalg.norm(a, 2)
        assert abs(float(vk.linalg.matrix_norm(vk.asarray(a), ord=-2)) -
                   np.linalg.norm(a, -2)) <= bound
