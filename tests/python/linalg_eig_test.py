"""vkarray.linalg.eig and eigvals against numpy's (LAPACK's geev): eigenvalues equal as sets
to rounding, eigenvectors that satisfy a v = v w with unit length and their largest component
real, numpy's result dtypes (real for real spectra), stacks, and numpy's errors."""

import numpy as np
import pytest

import vkarray as vk

RNG = np.random.default_rng(2024)


def sorted_values(w):
    w = np.asarray(w)
    return np.sort_complex(w.astype(np.complex128))


def assert_same_set(got, want, atol):
    """Every eigenvalue of want matched by a distinct one of got within atol (the orders
    differ: LAPACK's is not the deflation order)."""
    got = list(np.asarray(got, np.complex128).ravel())
    for w in np.asarray(want, np.complex128).ravel():
        k = int(np.argmin([abs(g - w) for g in got]))
        assert abs(got[k] - w) <= atol, (got[k], w, atol)
        got.pop(k)


def check_eig(a, rtol):
    w, v = vk.linalg.eig(vk.asarray(a))
    want_w, want_v = np.linalg.eig(a)
    assert w.dtype == want_w.dtype and v.dtype == want_v.dtype
    assert w.shape == want_w.shape and v.shape == want_v.shape
    wh, vh = w.get(), v.get()
    scale = max(np.abs(a).max(), 1e-300)
    for k in np.ndindex(a.shape[:-2]):
        assert_same_set(wh[k], want_w[k], rtol * scale * a.shape[-1])
        residual = a[k] @ vh[k] - vh[k] * wh[k]
        assert np.abs(residual).max() <= rtol * scale * a.shape[-1], k
        np.testing.assert_allclose(np.linalg.norm(vh[k], axis=0), 1.0, rtol=rtol * 10)
        top = vh[k][np.abs(vh[k]).argmax(axis=0), np.arange(a.shape[-1])]
        assert np.all(np.abs(np.imag(top)) <= rtol * 10) and np.all(np.real(top) > 0)
    assert_same_set(vk.linalg.eigvals(vk.asarray(a)).get(), np.linalg.eigvals(a),
                    rtol * scale * 20)


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_real_nonsymmetric(n):
    check_eig(RNG.standard_normal((n, n)), 1e-12)


@pytest.mark.parametrize("dtype,rtol", [(np.complex128, 1e-12), (np.complex64, 2e-5),
                                        (np.float32, 2e-5)])
def test_dtypes(dtype, rtol):
    a = RNG.standard_normal((6, 6))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * RNG.standard_normal((6, 6))
    check_eig(a.astype(dtype), rtol)


def test_real_spectra_stay_real_and_stacks():
    sym = RNG.standard_normal((3, 5, 5))
    sym = sym + np.swapaxes(sym, -1, -2)
    check_eig(sym, 1e-12)
    w, v = vk.linalg.eig(vk.asarray(sym))
    assert w.dtype == np.float64 and v.dtype == np.float64
    rotation = np.array([[0.0, -1.0], [1.0, 0.0]])  # eigenvalues +-i: complex
    w = vk.linalg.eigvals(vk.asarray(rotation))
    assert w.dtype == np.complex128
    np.testing.assert_allclose(sorted_values(w.get()), [-1j, 1j], atol=1e-14)
    triangular = np.triu(RNG.standard_normal((4, 4))) + np.diag([1.0, 2.0, 3.0, 4.0])
    check_eig(triangular, 1e-12)
    ints = np.array([[2, 1], [1, 2]])
    w = vk.linalg.eigvals(vk.asarray(ints))
    assert w.dtype == np.float64
    np.testing.assert_allclose(np.sort(w.get()), [1.0, 3.0])


def test_repeated_and_defective_eigenvalues():
    jordan = np.array([[2.0, 1.0, 0.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]])
    w, v = vk.linalg.eig(vk.asarray(jordan))
    np.testing.assert_allclose(w.get(), [2.0, 2.0, 2.0], atol=1e-5)
    assert np.all(np.isfinite(v.get()))
    np.testing.assert_allclose(np.abs(jordan @ v.get() - v.get() * w.get()).max(), 0,
                               atol=1e-5)
    check_eig(np.eye(4) * 3.0, 1e-12)
    check_eig(np.zeros((3, 3)), 1e-12)


def test_errors_and_empty():
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        vk.linalg.eig(vk.zeros((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        vk.linalg.eigvals(vk.zeros(3))
    with pytest.raises(np.linalg.LinAlgError, match="infs or NaNs"):
        vk.linalg.eig(vk.asarray(np.array([[1.0, np.nan], [0.0, 1.0]])))
    with pytest.raises(TypeError, match="float16"):
        vk.linalg.eig(vk.zeros((2, 2), vk.float16))
    w, v = vk.linalg.eig(vk.zeros((0, 0)))
    assert w.shape == (0,) and v.shape == (0, 0)


def test_numpys_functions_reach_it():
    a = RNG.standard_normal((4, 4))
    w, v = np.linalg.eig(vk.asarray(a))
    assert isinstance(w, vk.ndarray) and isinstance(v, vk.ndarray)
    assert isinstance(np.linalg.eigvals(vk.asarray(a)), vk.ndarray)
