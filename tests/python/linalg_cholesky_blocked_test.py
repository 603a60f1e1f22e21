"""vkarray.linalg.cholesky on matrices large enough for the blocked factorization (n >= 128:
panels of 32 columns whose diagonal block is factored and inverted by the panel kernel, the
GEMM forming L21 = A21 L11^-H and updating A22) and around the threshold, against float64
numpy with the bounds of docs/accuracy.md ("Linear algebra"): real, complex, batched,
ill-conditioned, and not positive definite past the first panels."""

import numpy as np
import pytest

import vkarray.linalg as vla
from linalg_testing import bound, mx, random, spd


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
@pytest.mark.parametrize("n", [127, 128, 129, 200])
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
