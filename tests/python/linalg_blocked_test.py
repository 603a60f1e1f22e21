"""vkarray.linalg's LU family (solve, inv, det) and cholesky on matrices large enough for the
blocked factorizations (n >= 128: panels of 32 columns in groups of four; the panel kernel
factors the panel (LU: with its pivots over every row; Cholesky: its diagonal block alone) and
inverts its diagonal block, the GEMM forming U12 = L11^-1 A12 (LU) or L21 = A21 L11^-H
(Cholesky), updating the group's columns, and the trailing matrix once per group; n = 290 has
three groups, its pivots crossing them) and around the threshold, against float64 numpy with
the bounds of docs/accuracy.md ("Linear algebra"): real, complex, batched, ill-conditioned,
singular or not positive definite past the first panels."""

import os
import subprocess
import sys

import numpy as np
import pytest

import vkarray.linalg as vla
from linalg_testing import bound, mm, mx, random, spd

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def real_of(dtype):
    return np.float32 if dtype in (np.float32, np.complex64) else np.float64


def general(shape, dtype, seed, cond=None):
    a = random(shape, np.float64, seed, cond)
    if np.iscomplexobj(np.zeros(1, dtype)):
        a = a + 1j * random(shape, np.float64, seed + 1000, cond)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [127, 128, 129, 200, 290])
def test_blocked_solve_inv(n, dtype):
    real = real_of(dtype)
    wide = np.complex128 if np.iscomplexobj(np.zeros(1, dtype)) else np.float64
    a = general((n, n), dtype, n)
    b = general((n, 3), dtype, n + 1)
    x = vla.solve(a, b)
    assert x.dtype == dtype
    x = np.asarray(x, wide)
    scale = mx(np.abs(a)) * mx(np.abs(x)) * n
    assert mx(np.abs(a.astype(wide) @ x - b)) <= bound(real, n, scale) * 2
    ref = np.linalg.solve(a.astype(wide), b.astype(wide))
    kappa = np.linalg.cond(a.astype(wide))
    assert mx(np.abs(x - ref)) <= bound(real, n, kappa * mx(np.abs(ref)) * n) * 2
    ai = np.asarray(vla.inv(a), wide)
    assert mx(np.abs(a.astype(wide) @ ai - np.eye(n))) <= bound(
        real, n, mx(np.abs(a)) * mx(np.abs(ai)) * n) * 2


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blocked_solve_ill_conditioned_and_det(dtype):
    n = 160
    cond = 1e4 if dtype == np.float32 else 1e10
    a = random((n, n), dtype, 21, cond)
    b = random((n, 2), dtype, 22)
    x = np.asarray(vla.solve(a, b), np.float64)
    assert mx(mm(a, x) - b) <= bound(dtype, n, mx(a) * mx(x) * n)
    d = (random((n, n), np.float64, 23) * 2 / np.sqrt(n)).astype(dtype)
    np.testing.assert_allclose(float(vla.det(d)), np.linalg.det(d.astype(np.float64)),
                               rtol=bound(dtype, n, np.linalg.cond(d.astype(np.float64))))


def test_blocked_solve_batch_and_pivoting():
    # Leading zeros force a row swap at every step of the first panels.
    a = random((3, 150, 150), np.float64, 31)
    a[:, np.arange(64), np.arange(64)] = 0.0
    b = random((3, 150, 4), np.float64, 32)
    x = np.asarray(vla.solve(a, b))
    assert mx(a @ x - b) <= bound(np.float64, 150, mx(a) * mx(x) * 150)
    x1 = np.asarray(vla.solve(a[1], b[1]))
    assert mx(x[1] - x1) == 0


@pytest.mark.parametrize("n", [67, 200])
@pytest.mark.parametrize("k", [1, 5, 8, 9])
def test_substitution_modes(n, k):
    # Up to 8 right-hand sides (256 invocations / 32 rows): unblocked (67), the workgroup walks
    # the triangular solves together, 32 rows at a time, the row swaps 32 pivots at a time;
    # blocked (200), a launch per chunk of 32 rows (lu_chunks_spec). More take one invocation
    # per column between the GEMM's updates. All against float64 numpy, a batch whose matrices
    # pivot differently, and solve_triangular (identity pivots).
    a = random((2, n, n), np.float64, n + k)
    a[0, np.arange(n), np.arange(n)] = 0.0  # a swap at every step of the first matrix
    b = random((2, n, k), np.float64, n - k)
    x = np.asarray(vla.solve(a, b))
    assert mx(a @ x - b) <= bound(np.float64, n, mx(a) * mx(x) * n)
    assert mx(x - np.linalg.solve(a, b)) <= bound(np.float64, n,
                                                  np.linalg.cond(a).max() * mx(x) * n)
    u = np.triu(a[1]) + n * np.eye(n)
    y = np.asarray(vla.solve_triangular(u, b[1], lower=False))
    assert mx(y - np.linalg.solve(u, b[1])) <= bound(np.float64, n, mx(y) * n)


@pytest.mark.parametrize("col", [3, 40, 140])
def test_blocked_singular(col):
    a = random((150, 150), np.float64, col)
    a[:, col] = 0.0  # an exactly zero pivot in that column's step
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        vla.solve(a, np.ones((150, 1)))
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        vla.inv(a)
    assert float(vla.det(a)) == 0.0


def hermitian_pd(n, dtype, seed, cond=None):
    """A Hermitian positive definite matrix; with cond, eigenvalues from 1 down to 1/cond."""
    rng = np.random.default_rng(seed)
    g = rng.standard_normal((n, n))
    if np.iscomplexobj(np.zeros(1, dtype)):
        g = g + 1j * rng.standard_normal((n, n))
    if cond is None:
        return (g @ np.conj(g.T) / n + np.eye(n)).astype(dtype)
    u, _ = np.linalg.qr(g)
    return ((u * np.geomspace(1.0, 1.0 / cond, n)) @ np.conj(u.T)).astype(dtype)


def check(a, dtype, rtol_l=1.0):
    n = a.shape[-1]
    real = np.float32 if dtype in (np.float32, np.complex64) else np.float64
    wide = np.complex128 if np.iscomplexobj(a) else np.float64
    l = vla.cholesky(a)
    assert l.dtype == dtype and l.shape == a.shape
    l = np.asarray(l, wide)
    assert mx(np.abs(np.triu(l, 1))) == 0
    assert mx(np.abs(l @ np.conj(np.swapaxes(l, -1, -2)) - a)) <= bound(real, n, mx(np.abs(a))) * 2
    ln = np.linalg.cholesky(a.astype(wide))
    assert mx(np.abs(l - ln)) <= bound(real, n, np.sqrt(mx(np.abs(a)))) * n * rtol_l


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("n", [127, 128, 129, 200, 290])
def test_blocked_cholesky(n, dtype):
    check(hermitian_pd(n, dtype, n), dtype)


def test_blocked_cholesky_batch():
    a = spd(140, np.float32, 3, batch=(3,))
    check(a, np.float32)
    l1 = np.asarray(vla.cholesky(a[1]))
    assert mx(np.asarray(vla.cholesky(a))[1] - l1) == 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blocked_cholesky_ill_conditioned(dtype):
    # cond 1e5 in float32 (1e6 comes within float32's rounding of indefinite); 1e10 in float64.
    cond = 1e5 if dtype == np.float32 else 1e10
    a = hermitian_pd(160, np.float64, 7, cond)
    a = ((a + a.T) / 2).astype(dtype)
    l = np.asarray(vla.cholesky(a), np.float64)
    assert mx(l @ l.T - a) <= bound(dtype, 160, mx(a)) * 2


@pytest.mark.parametrize("bad", [5, 70, 150])
def test_blocked_cholesky_not_positive_definite(bad):
    a = random((160, 160), np.float64, bad)
    a = a @ a.T + 160 * np.eye(160)
    a[bad, bad] = -1.0  # the leading minor of order bad + 1 is not positive
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        vla.cholesky(a)
    a[bad, bad] = np.nan
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        vla.cholesky(a)


def test_narrow_panel_workgroups():
    # Devices without 1024-invocation workgroups run the panel kernels on 256 invocations
    # (VKA_LINALG_PANEL_THREADS=256 forces it): the same results within the same bounds.
    code = """
import numpy as np, vkarray.linalg as vla
rng = np.random.default_rng(5)
a = rng.standard_normal((150, 140))
q, r = (np.asarray(x) for x in vla.qr(a))
eps = np.finfo(np.float64).eps
assert np.abs(q @ r - a).max() <= 20 * 150 * eps * np.abs(a).max() * 140
assert np.abs(q.T @ q - np.eye(140)).max() <= 20 * 150 * eps
assert np.abs(np.tril(r, -1)).max() == 0
assert np.array_equal(np.sign(np.diag(r)), np.sign(np.diag(np.linalg.qr(a, mode="r"))))
s = a[:140]
x = np.asarray(vla.solve(s, np.ones((140, 1))))
assert np.abs(s @ x - 1).max() <= 20 * 140 * eps * np.abs(s).max() * np.abs(x).max() * 140
print("ok")
"""
    env = dict(os.environ, VKA_LINALG_PANEL_THREADS="256")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.parametrize("n", [67, 200])
@pytest.mark.parametrize("k", [1, 8, 9])
def test_row_swaps_with_repeated_pivot_rows(n, k):
    # getrs' swaps planned 32 pivots at a time: rows below the group named by several of its
    # pivots (each swap moves the row's current content on), rows inside it, and no-ops. With
    # LU = I the solve is the permutation alone, so x must equal the swaps applied by hand.
    from vkarray import _vkarray as _vk
    piv = np.arange(n, dtype=np.int32)
    piv[0:5] = [n - 1, n - 1, 40, n - 1, 4]
    piv[32:40] = [50, 50, 35, 50, 45, 45, 45, 39]
    piv[40:44] = [n - 2, 41, n - 2, n - 2]
    b = random((n, k), np.float64, n + k)
    x = np.asarray(_vk._linalg_lu_solve(np.eye(n), piv, b))
    want = b.copy()
    for i, p in enumerate(piv):
        want[[i, p]] = want[[p, i]]
    assert np.array_equal(x, want)
