"""vkarray.linalg's composites against numpy.linalg: pinv, matrix_rank, lstsq, matrix_power,
the norms, trace/diagonal/outer/cross, the products and solve_triangular (bounds as in
linalg_test.py)."""

import numpy as np
import pytest

import vkarray.linalg as vla
from linalg_testing import random

# --- composites ------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(7, 7), (9, 4), (4, 9), (5, 4, 3)])
def test_pinv_and_matrix_rank(shape):
    a = random(shape, np.float64, 11)
    np.testing.assert_allclose(np.asarray(vla.pinv(a)), np.linalg.pinv(a), atol=1e-10)
    np.testing.assert_array_equal(np.asarray(vla.matrix_rank(a)), np.linalg.matrix_rank(a))
    low = random(shape[:-1] + (2,), np.float64, 12) @ random(shape[:-2] + (2, shape[-1]),
                                                             np.float64, 13)
    np.testing.assert_array_equal(np.asarray(vla.matrix_rank(low)), np.linalg.matrix_rank(low))
    np.testing.assert_allclose(np.asarray(vla.pinv(low)), np.linalg.pinv(low), atol=1e-10)
    assert int(vla.matrix_rank(np.zeros(3))) == 0 and int(vla.matrix_rank(np.ones(3))) == 1
    assert int(vla.matrix_rank(a, tol=1e9)) == 0 if a.ndim == 2 else True


@pytest.mark.parametrize("shape", [(9, 4), (4, 9), (7, 7)])
@pytest.mark.parametrize("bdim", [1, 2])
def test_lstsq(shape, bdim):
    a = random(shape, np.float64, 21)
    b = random((shape[0],) if bdim == 1 else (shape[0], 3), np.float64, 22)
    x, res, rank, s = vla.lstsq(a, b, rcond=None)
    xn, resn, rankn, sn = np.linalg.lstsq(a, b, rcond=None)
    np.testing.assert_allclose(np.asarray(x), xn, atol=1e-10)
    assert np.asarray(res).shape == resn.shape
    np.testing.assert_allclose(np.asarray(res), resn, rtol=1e-9)
    assert rank == rankn and type(rank) is type(rankn)  # a numpy int32 scalar
    np.testing.assert_allclose(np.asarray(s), sn, atol=1e-12)
    low = a.copy()
    low[:, -1] = low[:, 0]
    x, res, rank, s = vla.lstsq(low, b, rcond=1e-10)
    xn, resn, rankn, sn = np.linalg.lstsq(low, b, rcond=1e-10)
    assert rank == rankn and np.asarray(res).shape == resn.shape
    np.testing.assert_allclose(np.asarray(x), xn, atol=1e-9)


@pytest.mark.parametrize("p", [0, 1, 2, 3, 5, -1, -3])
def test_matrix_power(p):
    a = random((5, 4, 4), np.float64, 31) / 2
    np.testing.assert_allclose(np.asarray(vla.matrix_power(a, p)), np.linalg.matrix_power(a, p),
                               rtol=1e-9, atol=1e-9)
    i = np.arange(9, dtype=np.int64).reshape(3, 3) - 4
    if p >= 0:
        r = vla.matrix_power(i, p)
        assert r.dtype == np.int64
        np.testing.assert_array_equal(np.asarray(r), np.linalg.matrix_power(i, p))


VECTOR_ORDS = [None, 0, 1, 2, 3, 0.5, -1, -2, np.inf, -np.inf]
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.bool_])
def test_norm(dtype):
    x = (random((4, 5, 6), np.float64, 41) * 3).astype(dtype)
    x64 = x.astype(np.float64)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for ord in VECTOR_ORDS:
        for axis in (0, 1, -1):
            got = vla.norm(x, ord, axis)
            np.testing.assert_allclose(np.asarray(got), np.linalg.norm(x64, ord, axis), rtol=tol)
        v = x[0, 0]
        np.testing.assert_allclose(float(vla.norm(v, ord)), np.linalg.norm(v.astype(np.float64),
                                                                           ord), rtol=tol)
    for ord in MATRIX_ORDS:
        for axis in ((1, 2), (2, 0), (-1, -3)):
            got = vla.norm(x, ord, axis, keepdims=True)
            ref = np.linalg.norm(x64, ord, axis, keepdims=True)
            assert got.shape == ref.shape
            np.testing.assert_allclose(np.asarray(got), ref, rtol=tol * 10,
                                       atol=tol * 10 * np.linalg.norm(x64))
        np.testing.assert_allclose(float(vla.norm(x[1], ord)), np.linalg.norm(x64[1], ord),
                                   rtol=tol * 10, atol=tol * 10 * np.linalg.norm(x64[1]))
    assert float(vla.norm(x)) == pytest.approx(np.linalg.norm(x64), rel=tol)
    assert vla.norm(x, keepdims=True).shape == (1, 1, 1)
    assert vla.norm(x.astype(np.float32)).dtype == np.float32
    assert vla.norm(np.arange(3)).dtype == np.float64


def test_complex_norms():
    rng = np.random.default_rng(42)
    for dtype in (np.complex64, np.complex128):
        x = (rng.standard_normal((3, 4, 5)) + 1j * rng.standard_normal((3, 4, 5))).astype(dtype)
        x128 = x.astype(np.complex128)
        tol = 1e-5 if dtype == np.complex64 else 1e-12
        for ord in VECTOR_ORDS:
            got = vla.norm(x, ord, 1)
            assert got.dtype.kind == "f"
            np.testing.assert_allclose(np.asarray(got), np.linalg.norm(x128, ord, 1), rtol=tol)
        for ord in (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
            np.testing.assert_allclose(np.asarray(vla.norm(x, ord, (1, 2))),
                                       np.linalg.norm(x128, ord, (1, 2)), rtol=tol)
        np.testing.assert_allclose(float(vla.norm(x)), np.linalg.norm(x128), rtol=tol)
    a = (rng.standard_normal((9, 4)) + 1j * rng.standard_normal((9, 4)))
    b = (rng.standard_normal((9, 2)) + 1j * rng.standard_normal((9, 2)))
    x, res, rank, s = vla.lstsq(a, b)
    xn, resn, rankn, sn = np.linalg.lstsq(a, b, rcond=None)
    np.testing.assert_allclose(np.asarray(x), xn, atol=1e-12)
    np.testing.assert_allclose(np.asarray(res), resn, rtol=1e-10)
    assert rank == rankn and np.asarray(res).dtype == np.float64
    assert int(vla.matrix_rank(a)) == np.linalg.matrix_rank(a)


def test_norm_errors():
    x = np.ones((3, 3))
    with pytest.raises(ValueError, match="Invalid norm order 'fro' for vectors"):
        vla.norm(np.ones(3), "fro")
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        vla.norm(x, 3)
    with pytest.raises(ValueError, match="Duplicate axes given"):
        vla.norm(x, axis=(0, 0))
    with pytest.raises(ValueError, match="Improper number of dimensions to norm"):
        vla.norm(np.ones((2, 2, 2)), axis=(0, 1, 2))


def test_vector_and_matrix_norm():
    x = random((3, 4, 5), np.float64, 51)
    np.testing.assert_allclose(float(vla.vector_norm(x)), np.linalg.norm(x.ravel()))
    np.testing.assert_allclose(np.asarray(vla.vector_norm(x, axis=(0, 2), ord=1)),
                               np.abs(x).sum(axis=(0, 2)))
    np.testing.assert_allclose(np.asarray(vla.vector_norm(x, axis=1, ord=np.inf, keepdims=True)),
                               np.abs(x).max(axis=1, keepdims=True))
    assert vla.vector_norm(x, keepdims=True).shape == (1, 1, 1)
    np.testing.assert_allclose(np.asarray(vla.matrix_norm(x)), np.linalg.norm(x, axis=(-2, -1)))
    np.testing.assert_allclose(np.asarray(vla.matrix_norm(x, ord=2)),
                               np.linalg.norm(x, 2, axis=(-2, -1)))


def test_trace_diagonal_outer_cross_products():
    x = random((3, 4, 4), np.float64, 61)
    np.testing.assert_allclose(np.asarray(vla.trace(x)), np.trace(x, axis1=-2, axis2=-1))
    np.testing.assert_allclose(np.asarray(vla.trace(x, offset=1)),
                               np.trace(x, 1, axis1=-2, axis2=-1))
    np.testing.assert_array_equal(np.asarray(vla.diagonal(x, offset=-1)),
                                  np.diagonal(x, -1, -2, -1))
    a, b = np.arange(4.0), np.arange(3.0) - 1
    np.testing.assert_array_equal(np.asarray(vla.outer(a, b)), np.outer(a, b))
    with pytest.raises(ValueError):
        vla.outer(x, b)
    u, v = random((5, 3), np.float64, 62), random((3,), np.float64, 63)
    np.testing.assert_allclose(np.asarray(vla.cross(u, v)), np.cross(u, v))
    w = random((3, 2), np.float64, 64)
    np.testing.assert_allclose(np.asarray(vla.cross(w, w[:, ::-1], axis=0)),
                               np.cross(w, w[:, ::-1], axis=0))
    with pytest.raises(ValueError):
        vla.cross(np.ones(2), np.ones(2))
    p, q = random((2, 3, 4), np.float64, 65), random((4, 5), np.float64, 66)
    np.testing.assert_allclose(np.asarray(vla.matmul(p, q)), p @ q, atol=1e-12)
    np.testing.assert_allclose(np.asarray(vla.tensordot(p, q, axes=1)), np.tensordot(p, q, 1),
                               atol=1e-12)
    np.testing.assert_allclose(np.asarray(vla.tensordot(p, p, axes=([0, 2], [0, 2]))),
                               np.tensordot(p, p, axes=([0, 2], [0, 2])), atol=1e-12)
    np.testing.assert_allclose(np.asarray(vla.vecdot(p, p)), (p * p).sum(-1), atol=1e-12)
    np.testing.assert_array_equal(np.asarray(vla.matrix_transpose(p)), np.swapaxes(p, -1, -2))


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("unit", [False, True])
@pytest.mark.parametrize("n", [33, 150])
def test_solve_triangular(lower, unit, n):
    a = random((n, n), np.float64, 71) / np.sqrt(n) + 4 * np.eye(n)  # well conditioned
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        np.fill_diagonal(t, 1.0)
    b = random((n, 2), np.float64, 72)
    x = vla.solve_triangular(a if not unit else t, b, lower=lower, unit_diagonal=unit)
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(t, b), atol=1e-10)
    xv = vla.solve_triangular(t, b[:, 0], lower=lower, unit_diagonal=unit)
    np.testing.assert_allclose(np.asarray(xv), np.linalg.solve(t, b[:, 0]), atol=1e-10)
    if not unit:
        z = t.copy()
        z[3, 3] = 0
        with pytest.raises(np.linalg.LinAlgError):
            vla.solve_triangular(z, b, lower=lower)


@pytest.mark.parametrize("m,n,k", [(0, 0, None), (0, 0, 4), (3, 0, None), (3, 0, 2), (0, 3, 2)])
def test_lstsq_of_empty_matrices(m, n, k):
    """Residuals only where rank == n < m (all of b when n == 0), as numpy's."""
    a, b = np.ones((m, n)), np.arange(float(m * (k or 1))).reshape((m,) if k is None else (m, k))
    for got, want in zip(vla.lstsq(a, b, rcond=None), np.linalg.lstsq(a, b, rcond=None)):
        np.testing.assert_array_equal(np.asarray(got), want)
        assert np.asarray(got).shape == np.shape(want)
