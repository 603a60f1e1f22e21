"""The blocked LU's panels by tournament pivoting (kernels/lib/linalg_lu_panel.cc): leaves of a
panel's rows, merges of their candidate rows, the final factorization of the winners with the
pivots in getrf's form, the row swaps of the other columns and L21. The factorization is
checked as P A = L U against float64 numpy, and the pivots against partial pivoting by hand
where the pivot rows are unambiguous (both strategies then choose the same rows)."""

import numpy as np
import pytest

from vkarray import _vkarray as _vk
from linalg_testing import bound, mx

# float32 panels of up to 192 rows, float64 and complex64 of 96, run in one workgroup (partial
# pivoting exactly); larger ones take leaves, and from 4 (float32: 7) leaves, merges too.
# complex128 keeps the one-workgroup panel: a reference for the same check.
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def matrices(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.iscomplexobj(np.zeros(1, dtype)):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def permuted(piv, a):
    """The rows of a swapped by getrf's pivots: step k swaps rows k and piv[k]."""
    a = np.array(a)
    for k, p in enumerate(piv):
        a[[k, p]] = a[[p, k]]
    return a


def pivots_by_hand(a):
    """getrf's pivots for a, by partial pivoting in float64 (first largest |re| + |im|)."""
    a = np.array(a, np.complex128)
    n = a.shape[0]
    piv = np.zeros(n, np.int64)
    for k in range(n):
        p = k + int(np.argmax(np.abs(a[k:, k].real) + np.abs(a[k:, k].imag)))
        piv[k] = p
        a[[k, p]] = a[[p, k]]
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return piv


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [150, 290, 700])
def test_tournament_factors(n, dtype):
    real = np.float32 if dtype in (np.float32, np.complex64) else np.float64
    wide = np.complex128
    a = matrices((2, n, n), dtype, n)
    lu, piv = _vk._linalg_lu_factor(a)
    lu, piv = np.asarray(lu, wide), np.asarray(piv)
    for m in range(2):
        assert np.all(piv[m] >= np.arange(n)) and np.all(piv[m] < n)
        low = np.tril(lu[m], -1) + np.eye(n)
        up = np.triu(lu[m])
        pa = permuted(piv[m], a[m].astype(wide))
        scale = mx(np.abs(low)) * mx(np.abs(up)) * n
        assert mx(np.abs(pa - low @ up)) <= bound(real, n, scale)
        # Pivot rows are the largest of their candidates: multipliers stay small.
        assert mx(np.abs(low)) <= 8


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("n", [290, 700])
def test_tournament_pivots_match_partial_pivoting(n, dtype):
    # A row permutation of a matrix whose diagonal dominates by far: at every step the pivot
    # row is unambiguous, in the leaf, merge and final alike, and below the panel's first rows.
    rng = np.random.default_rng(n)
    base = np.diag(np.geomspace(1e3, 2e3, n)) + rng.uniform(-1, 1, (n, n))
    a = base[rng.permutation(n)].astype(dtype)
    lu, piv = _vk._linalg_lu_factor(a)
    assert np.array_equal(np.asarray(piv), pivots_by_hand(a))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pivot_search_without_subgroups(dtype):
    # A device without subgroup arithmetic reduces one candidate per row instead of one per
    # subgroup: the same pivots, the same factors, bit for bit.
    import vkarray as vk
    ctx = vk.Context(disable_features=["subgroup_arithmetic"])
    n = 420
    a = matrices((n, n), dtype, 5)
    a[:, 7] = 0.0  # a zero pivot inside a tournament panel
    lu0, piv0 = (np.asarray(x) for x in _vk._linalg_lu_factor(vk.asarray(a)))
    lu1, piv1 = (np.asarray(x) for x in _vk._linalg_lu_factor(vk.asarray(a, context=ctx)))
    assert np.array_equal(piv0, piv1)
    assert np.array_equal(lu0, lu1)
    assert lu0[7, 7] == 0
    low = np.tril(lu0, -1) + np.eye(n)
    pa = permuted(piv0, a.astype(np.float64))
    real = np.float32 if dtype == np.float32 else np.float64
    assert mx(pa - low @ np.triu(lu0)) <= bound(real, n, mx(low) * mx(np.triu(lu0)) * n)


@pytest.mark.parametrize("n,dtype", [(300, np.float32), (300, np.complex64), (700, np.float64)])
def test_permutation_determinants(n, dtype):
    # Every pivot row lies wherever the permutation put it, most of them far below the panel:
    # det must be the permutation's sign exactly, and solve must undo it.
    import vkarray.linalg as vla
    rng = np.random.default_rng(n)
    perms = np.stack([np.eye(n)[rng.permutation(n)] for _ in range(3)]).astype(dtype)
    signs = np.linalg.det(perms.real.astype(np.float64))
    assert np.array_equal(np.asarray(vla.det(perms)), signs.astype(dtype))
    b = matrices((3, n, 2), dtype, n + 1)
    x = np.asarray(vla.solve(perms, b))
    assert np.array_equal(x, np.swapaxes(perms, -1, -2) @ b)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_factorization_is_deterministic(dtype):
    # The rows launch swaps, solves U12 and L21 in many workgroups at once, reading the outer
    # panel's earlier columns that the final swapped: the same matrix factors to the same bits.
    import vkarray as vk
    a = matrices((2, 420, 420), dtype, 9)
    runs = [[np.asarray(x) for x in _vk._linalg_lu_factor(vk.asarray(a))] for _ in range(4)]
    for lu, piv in runs[1:]:
        assert np.array_equal(lu, runs[0][0]) and np.array_equal(piv, runs[0][1])
