"""vkarray.linalg against numpy.linalg: every function on well- and ill-conditioned random
matrices (sizes 1, 2, 3, 7, 33, 100, a 5x4x4 batch, empty batches and 0x0 matrices), float32
and float64 (integers and bool promote to float64), strided views, numpy's exception classes
and messages.

The bounds are those of docs/accuracy.md ("Linear algebra"), with eps the computation dtype's
machine epsilon and n the matrix size: backward errors ||A x - b|| <= 20 n eps ||A|| ||x||
(solve, inv, lstsq), ||A - factors|| <= 20 n eps ||A|| (LU, Cholesky, QR, SVD, eigh
reconstructions), orthogonality ||QᵀQ - I|| <= 20 n eps, singular values and eigenvalues within
20 n eps ||A|| of float64 numpy. Norms are the max-abs norm over all elements."""

import numpy as np
import pytest

import vkarray as vk
import vkarray.linalg as vla
from linalg_testing import (FLOATS, SIZES, assert_orthonormal_columns, bound, mm, mx, random,
                            spd)

# --- solve, inv, det, slogdet ----------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("cond", [None, 1e3])
def test_solve_backward_error_and_numpy(n, dtype, cond):
    a = random((n, n), dtype, n, cond)
    b = random((n, 3), dtype, n + 1)
    x = vla.solve(a, b)
    assert x.dtype == dtype and x.shape == (n, 3)
    x = np.asarray(x, np.float64)
    assert mx(mm(a, x) - b) <= bound(dtype, n, mx(a) * mx(x) * n)
    ref = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
    kappa = np.linalg.cond(a.astype(np.float64))
    assert mx(x - ref) <= bound(dtype, n, kappa * mx(ref) * n)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
def test_inv_det_slogdet(n, dtype):
    a = (random((n, n), np.float64, 2 * n) * 2 / np.sqrt(n)).astype(dtype)  # det in range
    a64 = a.astype(np.float64)
    ai = vla.inv(a)
    assert ai.dtype == dtype
    assert mx(mm(a, ai) - np.eye(n)) <= bound(dtype, n, mx(a) * mx(ai) * n)
    d = vla.det(a)
    assert d.dtype == dtype and d.shape == ()
    ref = np.linalg.det(a64)
    np.testing.assert_allclose(float(d), ref, rtol=bound(dtype, n, np.linalg.cond(a64)))
    sign, logdet = vla.slogdet(a)
    rs, rl = np.linalg.slogdet(a64)
    assert float(sign) == rs
    assert abs(float(logdet) - rl) <= bound(dtype, n, np.linalg.cond(a64))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", [1, 2, 7, 33, 150])
def test_complex_solve_inv_det_cholesky(n, dtype):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal((2, n, n)) + 1j * rng.standard_normal((2, n, n))) / np.sqrt(n)
    a = a.astype(dtype)
    a128 = a.astype(np.complex128)
    b = (rng.standard_normal((2, n, 3)) + 1j * rng.standard_normal((2, n, 3))).astype(dtype)
    real = np.float32 if dtype == np.complex64 else np.float64
    x = vla.solve(a, b)
    assert x.dtype == dtype
    x = np.asarray(x, np.complex128)
    assert mx(np.abs(a128 @ x - b)) <= bound(real, n, mx(np.abs(a)) * mx(np.abs(x)) * n) * 2
    ai = np.asarray(vla.inv(a), np.complex128)
    assert mx(np.abs(a128 @ ai - np.eye(n))) <= bound(real, n, mx(np.abs(a)) * mx(np.abs(ai)) * n) * 2
    kappa = np.linalg.cond(a128).max()
    np.testing.assert_allclose(np.asarray(vla.det(a)), np.linalg.det(a128),
                               rtol=bound(real, n, kappa) * 2)
    sign, logdet = vla.slogdet(a)
    rs, rl = np.linalg.slogdet(a128)
    assert sign.dtype == dtype and logdet.dtype == real
    np.testing.assert_allclose(np.asarray(sign), rs, atol=bound(real, n, kappa) * 2)
    np.testing.assert_allclose(np.asarray(logdet), rl, atol=bound(real, n, kappa) * 2)
    h = (a128 @ np.conj(np.swapaxes(a128, -1, -2)) + np.eye(n)).astype(dtype)
    l = np.asarray(vla.cholesky(h), np.complex128)
    assert mx(np.abs(np.triu(l, 1))) == 0
    assert mx(np.abs(l @ np.conj(np.swapaxes(l, -1, -2)) - h)) <= bound(real, n, mx(np.abs(h))) * 2
    u = np.asarray(vla.cholesky(h, upper=True), np.complex128)
    np.testing.assert_allclose(u, np.conj(np.swapaxes(l, -1, -2)), rtol=0, atol=0)
    # Mixed real and complex operands promote as numpy does.
    assert vla.solve(a.real.astype(real), b).dtype == dtype
    assert vla.solve(np.eye(2), np.array([1 + 1j, 2], dtype=np.complex64)).dtype == np.complex128


def test_ill_conditioned_solve_float64():
    a = random((33, 33), np.float64, 5, cond=1e10)
    b = random((33,), np.float64, 6)
    x = np.asarray(vla.solve(a, b))
    assert mx(a @ x - b) <= bound(np.float64, 33, mx(a) * mx(x) * 33)


def test_large_matrices_split_into_several_launches():
    # On llvmpipe each invocation runs at most 65535 loop iterations: these sizes need several
    # launches per call (array/linalg/linalg.cc's run_steps).
    n = 300
    a = random((n, n), np.float64, 90)
    b = random((n,), np.float64, 91)
    x = np.asarray(vla.solve(a, b))
    assert mx(a @ x - b) <= bound(np.float64, n, mx(a) * mx(x) * n)
    c = spd(n, np.float64, 92)
    l = np.asarray(vla.cholesky(c))
    assert mx(l @ l.T - c) <= bound(np.float64, n, mx(c))
    # Blocked (panels and GEMM trailing updates) on a batch, float32 and float64.
    for dtype in FLOATS:
        st = random((3, 150, 150), dtype, 93)
        si = np.asarray(vla.inv(st), np.float64)
        assert mx(mm(st, si) - np.eye(150)) <= bound(dtype, 150, mx(st) * mx(si) * 150)
        sd = (st / 2).astype(dtype)
        np.testing.assert_allclose(np.asarray(vla.det(sd.astype(np.float64))),
                                   np.linalg.det(sd.astype(np.float64)), rtol=1e-10)
        sc = spd(150, dtype, 94, batch=(2,))
        sl = np.asarray(vla.cholesky(sc), np.float64)
        assert mx(sl @ np.swapaxes(sl, -1, -2) - sc) <= bound(dtype, 150, mx(sc))
    q, r = vla.qr(a[:, :40], mode="complete")
    assert mx(mm(q, r) - a[:, :40]) <= bound(np.float64, n, mx(a) * 40)
    assert_orthonormal_columns(q, np.float64)


def test_batched_and_broadcast_solve():
    a = random((5, 4, 4), np.float64, 1)
    bv = random((5, 4), np.float64, 2)
    np.testing.assert_allclose(np.asarray(vla.solve(a, bv)), np.linalg.solve(a, bv), atol=1e-10)
    bm = random((1, 4, 2), np.float64, 3)  # broadcast over the batch
    np.testing.assert_allclose(np.asarray(vla.solve(a, bm)), np.linalg.solve(a, bm), atol=1e-10)
    np.testing.assert_allclose(np.asarray(vla.inv(a)), np.linalg.inv(a), atol=1e-10)
    np.testing.assert_allclose(np.asarray(vla.det(a)), np.linalg.det(a), rtol=1e-12)


def test_integer_and_bool_promote_to_float64():
    a = np.array([[2, 1], [1, 3]], dtype=np.int32)
    x = vla.solve(a, np.array([3, 5], dtype=np.int8))
    assert x.dtype == np.float64
    np.testing.assert_allclose(np.asarray(x), [0.8, 1.4], rtol=1e-15)
    assert vla.inv(np.eye(3, dtype=bool)).dtype == np.float64
    assert vla.det(a).dtype == np.float64
    # A float32 matrix with float64 right-hand sides solves in float64, as numpy does.
    assert vla.solve(a.astype(np.float32), np.ones(2)).dtype == np.float64


def test_strided_views():
    base = random((12, 12), np.float64, 9)
    view = vk.asarray(base)[::2, 1::2]
    np.testing.assert_allclose(np.asarray(vla.inv(view)), np.linalg.inv(base[::2, 1::2]),
                               atol=1e-10)
    t = vk.asarray(base).T
    np.testing.assert_allclose(np.asarray(vla.det(t)), np.linalg.det(base.T), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(vla.eigvalsh(view + view.T)),
                               np.linalg.eigvalsh(base[::2, 1::2] + base[::2, 1::2].T), atol=1e-12)


def test_singular_matrices():
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        vla.solve(s, np.ones(2))
    with pytest.raises(vla.LinAlgError, match="Singular matrix"):
        vla.inv(np.zeros((3, 3), np.float32))
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        vla.inv(np.stack([np.eye(2), s]))
    assert float(vla.det(s)) == 0.0
    sign, logdet = vla.slogdet(s)
    assert float(sign) == 0.0 and float(logdet) == -np.inf
    assert vla.LinAlgError is np.linalg.LinAlgError


def test_empty_stacks():
    assert vla.inv(np.zeros((0, 3, 3))).shape == (0, 3, 3)
    assert vla.solve(np.zeros((0, 3, 3)), np.zeros((0, 3, 2))).shape == (0, 3, 2)
    assert vla.det(np.zeros((0, 3, 3))).shape == (0,)
    np.testing.assert_array_equal(np.asarray(vla.det(np.zeros((2, 0, 0)))), [1.0, 1.0])
    assert vla.inv(np.zeros((0, 0))).shape == (0, 0)
    assert vla.cholesky(np.zeros((4, 0, 0))).shape == (4, 0, 0)
    assert vla.eigvalsh(np.zeros((0, 2, 2))).shape == (0, 2)
    u, s, vh = vla.svd(np.zeros((3, 0)))
    assert (u.shape, s.shape, vh.shape) == ((3, 3), (0,), (0, 0))
    np.testing.assert_array_equal(np.asarray(u), np.eye(3))
    q, r = vla.qr(np.zeros((0, 3, 2)))
    assert q.shape == (0, 3, 2) and r.shape == (0, 2, 2)


def test_bad_input_errors():
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        vla.inv(np.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="must be at least two-dimensional"):
        vla.det(np.ones(3))
    with pytest.raises(TypeError, match="array type float16 is unsupported in linalg"):
        vla.inv(np.eye(2, dtype=np.float16))
    with pytest.raises(ValueError):
        vla.solve(np.eye(3), np.ones(4))
    with pytest.raises(ValueError, match="UPLO"):
        vla.eigh(np.eye(2), UPLO="X")
    with pytest.raises(ValueError):
        vla.qr(np.eye(2), mode="bogus")
    with pytest.raises(TypeError, match="exponent must be an integer"):
        vla.matrix_power(np.eye(2), 1.5)
    with pytest.raises(np.linalg.LinAlgError):
        vla.matrix_power(np.ones((2, 3)), 2)


# --- cholesky, qr ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
def test_cholesky(n, dtype):
    a = spd(n, dtype, n)
    l = np.asarray(vla.cholesky(a), np.float64)
    assert mx(np.triu(l, 1)) == 0
    assert mx(l @ l.T - a) <= bound(dtype, n, mx(a))
    np.testing.assert_allclose(l, np.linalg.cholesky(a.astype(np.float64)),
                               atol=bound(dtype, n, np.sqrt(mx(a))) * n)
    u = np.asarray(vla.cholesky(a, upper=True))
    np.testing.assert_array_equal(u, l.T.astype(dtype))


def test_cholesky_batched_and_not_positive_definite():
    a = spd(4, np.float64, 3, batch=(5,))
    np.testing.assert_allclose(np.asarray(vla.cholesky(a)), np.linalg.cholesky(a), atol=1e-12)
    bad = a.copy()
    bad[3] = -np.eye(4)
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        vla.cholesky(bad)
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        vla.cholesky(np.array([[1.0, np.nan], [np.nan, 1.0]]))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (7, 3), (3, 7), (33, 33), (100, 40), (5, 4, 4),
                                   (2, 6, 3)])
def test_qr_modes(shape, dtype):
    a = random(shape, dtype, sum(shape))
    m, n = shape[-2:]
    k = min(m, n)
    scale = mx(a)
    for mode in ("reduced", "complete"):
        q, r = vla.qr(a, mode=mode)
        qn, rn = np.linalg.qr(a.astype(np.float64), mode=mode)
        assert q.shape == qn.shape and r.shape == rn.shape and q.dtype == dtype
        assert mx(mm(q, r) - a) <= bound(dtype, m, scale * k)
        assert_orthonormal_columns(q, dtype)
        r = np.asarray(r, np.float64)
        assert mx(np.tril(r, -1)) == 0
        # geqrf's signs: R agrees with numpy's, not just up to signs.
        assert mx(r - rn) <= bound(dtype, m, scale * k) * 10
    r_only = vla.qr(a, mode="r")
    assert r_only.shape == np.linalg.qr(a, mode="r").shape


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (3, 7), (33, 33), (2, 9, 4)])
def test_complex_qr(shape, dtype):
    rng = np.random.default_rng(sum(shape))
    a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    real = np.float32 if dtype == np.complex64 else np.float64
    m, n = shape[-2:]
    scale = mx(np.abs(a)) * min(m, n)
    for mode in ("reduced", "complete"):
        q, r = vla.qr(a, mode=mode)
        qn, rn = np.linalg.qr(a.astype(np.complex128), mode=mode)
        assert q.shape == qn.shape and r.shape == rn.shape and q.dtype == dtype
        q, r = np.asarray(q, np.complex128), np.asarray(r, np.complex128)
        assert mx(np.abs(q @ r - a)) <= bound(real, m, scale) * 2
        k = q.shape[-1]
        assert mx(np.abs(np.conj(np.swapaxes(q, -1, -2)) @ q - np.eye(k))) <= bound(real, m) * 2
        assert mx(np.abs(r - rn)) <= bound(real, m, scale) * 20  # zgeqrf's phases


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", [1, 2, 7, 33, 100])
def test_complex_eigh(n, dtype):
    rng = np.random.default_rng(n + 7)
    a = (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))).astype(dtype)
    h = (a + np.conj(a.T)) / 2
    real = np.float32 if dtype == np.complex64 else np.float64
    w, v = vla.eigh(h)
    assert w.dtype == real and v.dtype == dtype
    w, v = np.asarray(w, np.float64), np.asarray(v, np.complex128)
    wn = np.linalg.eigvalsh(h.astype(np.complex128))
    scale = np.abs(wn).max()
    assert mx(w - wn) <= bound(real, n, scale)
    assert mx(np.abs(h @ v - v * w)) <= bound(real, n, scale) * 10
    assert mx(np.abs(np.conj(v.T) @ v - np.eye(n))) <= bound(real, n)
    np.testing.assert_allclose(np.asarray(vla.eigvalsh(np.triu(h), UPLO="U")), w,
                               atol=bound(real, n, scale))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (3, 7), (33, 33), (2, 9, 4)])
def test_complex_svd(shape, dtype):
    rng = np.random.default_rng(sum(shape) + 3)
    a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    real = np.float32 if dtype == np.complex64 else np.float64
    m, n = shape[-2:]
    k = min(m, n)
    sn = np.linalg.svd(a.astype(np.complex128), compute_uv=False)
    for full in (True, False):
        u, s, vh = vla.svd(a, full_matrices=full)
        un, _, vhn = np.linalg.svd(a, full_matrices=full)
        assert u.shape == un.shape and vh.shape == vhn.shape
        assert s.dtype == real and u.dtype == dtype
        u, s, vh = np.asarray(u, np.complex128), np.asarray(s, np.float64), np.asarray(vh, np.complex128)
        assert mx(s - sn) <= bound(real, max(m, n), sn.max())
        rebuilt = (u[..., :k] * s[..., None, :]) @ vh[..., :k, :]
        assert mx(np.abs(rebuilt - a)) <= bound(real, max(m, n), sn.max()) * 5
        for q in (u, np.conj(np.swapaxes(vh, -1, -2))):
            eye = np.eye(q.shape[-1])
            assert mx(np.abs(np.conj(np.swapaxes(q, -1, -2)) @ q - eye)) <= bound(real, q.shape[-2])
    if len(shape) == 2 and m != n:
        np.testing.assert_allclose(np.asarray(vla.pinv(a)), np.linalg.pinv(a.astype(np.complex128)),
                                   atol=bound(real, max(m, n), 1e3))


def test_qr_rank_deficient():
    a = np.zeros((5, 3))
    a[:, 0] = 1.0
    q, r = vla.qr(a)
    assert mx(mm(q, r) - a) <= 1e-14
    assert_orthonormal_columns(q, np.float64)


# --- eigh, svd -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
def test_eigh(n, dtype):
    b = random((n, n), dtype, 3 * n)
    a = (b + b.T) / 2
    w, v = vla.eigh(a)
    assert w.dtype == dtype and v.shape == (n, n)
    w, v = np.asarray(w, np.float64), np.asarray(v, np.float64)
    wn = np.linalg.eigvalsh(a.astype(np.float64))
    scale = np.abs(wn).max()
    assert np.all(np.diff(w) >= 0)
    assert mx(w - wn) <= bound(dtype, n, scale)
    assert mx(a @ v - v * w) <= bound(dtype, n, scale) * 10
    assert_orthonormal_columns(v, dtype)
    np.testing.assert_array_equal(np.asarray(vla.eigvalsh(a)), w.astype(dtype))


def test_eigh_uplo_batched_and_degenerate():
    b = random((5, 4, 4), np.float64, 8)
    a = b + np.swapaxes(b, -1, -2)
    junk = a.copy()
    junk[..., np.triu_indices(4, 1)[0], np.triu_indices(4, 1)[1]] = 99.0  # not read
    np.testing.assert_allclose(np.asarray(vla.eigvalsh(junk)), np.linalg.eigvalsh(a), atol=1e-12)
    lowjunk = np.swapaxes(junk, -1, -2)
    np.testing.assert_allclose(np.asarray(vla.eigvalsh(lowjunk, UPLO="U")),
                               np.linalg.eigvalsh(a), atol=1e-12)
    # Repeated eigenvalues: the identity and a projector.
    w, v = vla.eigh(np.eye(6))
    np.testing.assert_array_equal(np.asarray(w), np.ones(6))
    p = np.ones((4, 4)) / 4
    w, v = vla.eigh(p)
    np.testing.assert_allclose(np.asarray(w), [0, 0, 0, 1], atol=1e-15)
    assert_orthonormal_columns(v, np.float64)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (7, 7), (33, 33), (100, 100), (7, 3),
                                   (3, 7), (40, 9), (5, 4, 4)])
def test_svd(shape, dtype):
    a = random(shape, dtype, sum(shape) + 1)
    m, n = shape[-2:]
    k = min(m, n)
    sn = np.linalg.svd(a.astype(np.float64), compute_uv=False)
    scale = sn.max()
    for full in (True, False):
        u, s, vh = vla.svd(a, full_matrices=full)
        un, _, vhn = np.linalg.svd(a, full_matrices=full)
        assert u.shape == un.shape and vh.shape == vhn.shape and s.dtype == dtype
        u, s, vh = (np.asarray(t, np.float64) for t in (u, s, vh))
        assert mx(s - sn) <= bound(dtype, max(m, n), scale)
        assert mx((u[..., :k] * s[..., None, :]) @ vh[..., :k, :] - a) <= bound(dtype, max(m, n),
                                                                              scale) * 5
        assert_orthonormal_columns(u, dtype)
        assert_orthonormal_columns(np.swapaxes(vh, -1, -2), dtype)
    s_only = vla.svd(a, compute_uv=False)
    np.testing.assert_array_equal(np.asarray(s_only), np.asarray(vla.svdvals(a)))


def test_svd_ill_conditioned_and_rank_deficient():
    a = random((33, 33), np.float64, 4, cond=1e12)
    s = np.asarray(vla.svdvals(a))
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), atol=bound(np.float64, 33))
    r = np.zeros((6, 4))
    r[:, 0] = 1.0
    r[:, 2] = 2.0
    u, s, vh = (np.asarray(t) for t in vla.svd(r))
    np.testing.assert_allclose(s, np.linalg.svd(r, compute_uv=False), atol=1e-14)
    assert mx((u[:, :4] * s) @ vh - r) <= 1e-14
    assert_orthonormal_columns(u, np.float64)
    z = np.asarray(vla.svd(np.zeros((3, 2)))[0])
    assert_orthonormal_columns(z, np.float64)


def test_deterministic():
    a = random((33, 33), np.float32, 81)
    one = [np.asarray(t) for t in vla.svd(a)] + [np.asarray(t) for t in vla.eigh(a + a.T)]
    two = [np.asarray(t) for t in vla.svd(a)] + [np.asarray(t) for t in vla.eigh(a + a.T)]
    for x, y in zip(one, two):
        np.testing.assert_array_equal(x, y)


def test_replicated_context(ctx2):
    a = random((5, 4, 4), np.float64, 101)
    spd_a = spd(4, np.float64, 102, batch=(5,))
    x = vk.asarray(a, context=ctx2)
    np.testing.assert_allclose(np.asarray(vla.inv(x)), np.linalg.inv(a), atol=1e-10)
    np.testing.assert_allclose(np.asarray(vla.det(x)), np.linalg.det(a), rtol=1e-10)
    np.testing.assert_allclose(np.asarray(vla.cholesky(vk.asarray(spd_a, context=ctx2))),
                               np.linalg.cholesky(spd_a), atol=1e-12)
    np.testing.assert_allclose(np.asarray(vla.svdvals(x)), np.linalg.svd(a, compute_uv=False),
                               atol=1e-12)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        vla.inv(vk.asarray(np.zeros((2, 2)), context=ctx2))
