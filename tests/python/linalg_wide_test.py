"""The wide mode of vkarray.linalg's Jacobi svd and eigh (array/linalg/wide.h), forced with
VKA_JACOBI=wide on small matrices, against numpy (docs/accuracy.md's bounds) and against the
per-matrix mode (VKA_JACOBI=single)."""

import numpy as np
import pytest

import vkarray.linalg as vla
from linalg_testing import bound, random


def mx(x):
    x = np.asarray(x)
    return float(np.abs(x).max()) if x.size else 0.0


@pytest.fixture
def wide(monkeypatch):
    monkeypatch.setenv("VKA_JACOBI", "wide")


def single(fn, monkeypatch):
    monkeypatch.setenv("VKA_JACOBI", "single")
    try:
        return [np.asarray(t) for t in fn()]
    finally:
        monkeypatch.setenv("VKA_JACOBI", "wide")


def matrices(shape, dtype, seed):
    a = random(shape, np.float64, seed)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * random(shape, np.float64, seed + 100)
    return a.astype(dtype)


def real_of(dtype):
    return np.finfo(dtype).dtype


def orthonormal(q, dtype):
    q = np.asarray(q, np.complex128)
    k = q.shape[-1]
    return mx(np.conj(np.swapaxes(q, -1, -2)) @ q - np.eye(k)) <= bound(real_of(dtype), q.shape[-2])


def check_svd(a, dtype, fulls=(True, False)):
    m, n = a.shape[-2:]
    k = min(m, n)
    sn = np.linalg.svd(a.astype(np.complex128), compute_uv=False)
    scale = max(mx(sn), 1.0)
    for full in fulls:
        u, s, vh = vla.svd(a, full_matrices=full)
        un, _, vhn = np.linalg.svd(a, full_matrices=full)
        assert u.shape == un.shape and vh.shape == vhn.shape
        assert s.dtype == real_of(dtype) and u.dtype == dtype
        u, s, vh = (np.asarray(t) for t in (u, s, vh))
        assert mx(s - sn) <= bound(real_of(dtype), max(m, n), scale)
        assert np.all(np.diff(s, axis=-1) <= 0)
        rec = (u[..., :k] * s[..., None, :]) @ vh[..., :k, :]
        assert mx(rec - a) <= bound(real_of(dtype), max(m, n), scale) * 5
        assert orthonormal(u, dtype) and orthonormal(np.conj(np.swapaxes(vh, -1, -2)), dtype)
    np.testing.assert_array_equal(np.asarray(vla.svd(a, compute_uv=False)), s)


@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (17, 17), (20, 7), (7, 20), (3, 9, 5),
                                   (2, 4, 6)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_svd_real(wide, shape, dtype):
    check_svd(matrices(shape, dtype, sum(shape)), dtype)


@pytest.mark.parametrize("shape", [(2, 2), (17, 9), (9, 17), (2, 5, 5)])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_svd_complex(wide, shape, dtype):
    check_svd(matrices(shape, dtype, sum(shape) + 1), dtype)


def test_svd_64_and_130(wide):
    # (Each round of the wide mode is a launch: lavapipe takes seconds for these.)
    check_svd(matrices((64, 64), np.float64, 5), np.float64, fulls=(True,))
    check_svd(matrices((130, 131), np.float32, 6), np.float32, fulls=(False,))


def test_svd_rank_deficient_and_repeated(wide):
    # Rank 3 of order 17: 14 zero singular values, U completed to an orthonormal basis.
    b, c = random((17, 3), np.float64, 1), random((3, 17), np.float64, 2)
    check_svd(b @ c, np.float64)
    # Repeated singular values: an orthogonal matrix times diag(2, 2, 2, 1, ..., 1).
    q, _ = np.linalg.qr(random((12, 12), np.float64, 3))
    d = np.ones(12)
    d[:3] = 2.0
    check_svd(q * d, np.float64)
    s = np.asarray(vla.svdvals(q * d))
    assert mx(s - np.sort(d)[::-1]) <= bound(np.float64, 12, 2.0)
    z = vla.svd(np.zeros((5, 3)))
    np.testing.assert_array_equal(np.asarray(z[1]), np.zeros(3))
    assert orthonormal(z[0], np.float64)


def test_svd_matches_the_single_mode(wide, monkeypatch):
    # Distinct singular values: the same vectors, signs included (the same rotations).
    a = random((2, 40, 33), np.float64, 7)
    u, s, vh = (np.asarray(t) for t in vla.svd(a, full_matrices=False))
    u1, s1, vh1 = single(lambda: vla.svd(a, full_matrices=False), monkeypatch)
    assert mx(s - s1) <= bound(np.float64, 40, mx(s1))
    assert mx(u - u1) <= 1e-9 and mx(vh - vh1) <= 1e-9
    # Bit-identical across runs.
    u2, s2, vh2 = (np.asarray(t) for t in vla.svd(a, full_matrices=False))
    for x, y in ((u, u2), (s, s2), (vh, vh2)):
        np.testing.assert_array_equal(x, y)


def check_eigh(h, dtype):
    n = h.shape[-1]
    wn = np.linalg.eigvalsh(h.astype(np.complex128))
    scale = max(mx(wn), 1.0)
    w, v = vla.eigh(h)
    assert w.dtype == real_of(dtype) and v.dtype == dtype and v.shape == h.shape
    w, v = np.asarray(w), np.asarray(v)
    assert mx(w - wn) <= bound(real_of(dtype), n, scale)
    assert np.all(np.diff(w, axis=-1) >= 0)
    hv = h.astype(np.complex128) @ v
    assert mx(hv - v * w[..., None, :]) <= 10 * bound(real_of(dtype), n, scale)
    assert orthonormal(v, dtype)
    np.testing.assert_array_equal(np.asarray(vla.eigvalsh(h)), w)


def hermitian(shape, dtype, seed):
    a = matrices(shape, dtype, seed)
    return (a + np.conj(np.swapaxes(a, -1, -2))).astype(dtype)


@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (17, 17), (64, 64), (3, 9, 9),
                                   (2, 6, 6)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_eigh(wide, shape, dtype):
    check_eigh(hermitian(shape, dtype, shape[-1]), dtype)


def test_eigh_130_and_degenerate(wide):
    check_eigh(hermitian((131, 131), np.float32, 3), np.float32)
    # Repeated eigenvalues, and the lower triangle only is read.
    q, _ = np.linalg.qr(random((10, 10), np.float64, 4))
    h = (q * np.array([3.0] * 4 + [-1.0] * 6)) @ q.T
    check_eigh(h, np.float64)
    junk = np.tril(h) + np.triu(np.full((10, 10), 7.0), 1)
    np.testing.assert_array_equal(np.asarray(vla.eigvalsh(junk)), np.asarray(vla.eigvalsh(h)))
    w, v = (np.asarray(t) for t in vla.eigh(np.eye(6)))
    np.testing.assert_array_equal(w, np.ones(6))
    np.testing.assert_array_equal(v, np.eye(6))


def test_eigh_matches_the_single_mode(wide, monkeypatch):
    # The same rotations in the same order, element by element.
    h = hermitian((2, 21, 21), np.complex128, 9)
    w, v = (np.asarray(t) for t in vla.eigh(h))
    w1, v1 = single(lambda: vla.eigh(h), monkeypatch)
    assert mx(w - w1) <= bound(np.float64, 21, mx(w1))
    assert mx(v - v1) <= 1e-9
    w2, v2 = (np.asarray(t) for t in vla.eigh(h))
    np.testing.assert_array_equal(w, w2)
    np.testing.assert_array_equal(v, v2)


def test_errors_and_edge_cases(wide):
    with pytest.raises(vla.LinAlgError):
        vla.svd(np.ones(3))
    with pytest.raises(vla.LinAlgError):
        vla.eigh(np.ones((2, 3)))
    u, s, vh = vla.svd(np.zeros((2, 3, 0)))
    assert u.shape == (2, 3, 3) and s.shape == (2, 0) and vh.shape == (2, 0, 0)
    assert vla.eigh(np.zeros((0, 0)))[0].shape == (0,)
    # Integers compute in float64.
    a = np.arange(12).reshape(4, 3)
    s = vla.svdvals(a)
    assert s.dtype == np.float64
    assert mx(np.asarray(s) - np.linalg.svd(a, compute_uv=False)) <= bound(np.float64, 4, 30)
    # NaN input gives NaN in every result (as the single mode), not an error.
    assert np.isnan(np.asarray(vla.svdvals(np.full((3, 3), np.nan)))).all()
    assert np.isnan(np.asarray(vla.eigvalsh(np.full((3, 3), np.nan)))).all()


@pytest.mark.parametrize("mode", ["single", "wide"])
def test_nan_sorts_first_and_fills_every_result(monkeypatch, mode):
    # One NaN column among unit ones: the NaN sorts first and every other value is written.
    monkeypatch.setenv("VKA_JACOBI", mode)
    a = np.eye(4)
    a[1, 2] = np.nan
    s = np.asarray(vla.svdvals(a))
    assert np.isnan(s[0])
    assert mx(s[1:] - 1.0) <= bound(np.float64, 4)
