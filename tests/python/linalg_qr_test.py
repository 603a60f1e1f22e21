"""vkarray.linalg.qr on matrices large enough for the blocked factorization (min(m, n) >= 128:
panels of 32 columns, compact WY block reflectors applied by the GEMM, Q formed backwards by
panels) and around the threshold, against float64 numpy: ||Q R - A|| and ||Q^H Q - I|| within
the bounds of docs/accuracy.md ("Linear algebra"), R upper triangular, R within the bound of
numpy's R (LAPACK's reflectors, so the same signs), every mode, tall, wide, batched, complex,
strided and ill-conditioned input."""

import numpy as np
import pytest

import vkarray as vk
import vkarray.linalg as vla
from linalg_testing import bound, mx, random

# Around the threshold (127 unblocked, 128 and 129 blocked: one column past four panels), tall
# and wide blocked, and a tall-skinny unblocked one.
SHAPES = [(127, 127), (128, 128), (129, 129), (200, 130), (130, 200), (300, 64)]


def complex_random(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def real_of(dtype):
    return np.float32 if dtype in (np.float32, np.complex64) else np.float64


def check(a, q, r, mode, rtol_r=10):
    """Q R = A, Q's columns orthonormal, R upper triangular and numpy's R (same signs)."""
    dtype = a.dtype
    real = real_of(dtype)
    m, n = a.shape[-2:]
    k = min(m, n)
    wide = np.complex128 if np.iscomplexobj(a) else np.float64
    qn, rn = np.linalg.qr(a.astype(wide), mode=mode)
    assert q.shape == qn.shape and r.shape == rn.shape
    assert q.dtype == dtype and r.dtype == dtype
    q, r = np.asarray(q, wide), np.asarray(r, wide)
    scale = mx(np.abs(a)) * k
    assert mx(np.abs(q @ r - a)) <= bound(real, max(m, n), scale)
    qh = np.conj(np.swapaxes(q, -1, -2))
    assert mx(np.abs(qh @ q - np.eye(q.shape[-1]))) <= bound(real, m)
    assert mx(np.abs(np.tril(r, -1))) == 0
    assert mx(np.abs(r - rn)) <= bound(real, max(m, n), scale) * rtol_r
    return rn


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_blocked_qr_real(shape, dtype):
    a = random(shape, dtype, sum(shape))
    for mode in ("reduced", "complete"):
        q, r = vla.qr(a, mode=mode)
        rn = check(a, q, r, mode)
        d, dn = np.diagonal(np.asarray(r, np.float64)), np.diagonal(rn)
        assert np.array_equal(np.sign(d), np.sign(dn))
    r_only = np.asarray(vla.qr(a, mode="r"), np.float64)
    q, r = vla.qr(a)
    assert np.array_equal(r_only, np.asarray(r, np.float64))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(129, 129), (150, 130), (130, 150)])
def test_blocked_qr_complex(shape, dtype):
    a = complex_random(shape, dtype, sum(shape))
    for mode in ("reduced", "complete"):
        q, r = vla.qr(a, mode=mode)
        rn = check(a, q, r, mode, rtol_r=20)  # zgeqrf's phases, as tests/python/linalg_test.py
        # zgeqrf's R has a real diagonal: beta = -sign(Re alpha) ||x||.
        d = np.diagonal(np.asarray(r))
        assert mx(d.imag) == 0
        assert np.array_equal(np.sign(d.real), np.sign(np.diagonal(rn).real))


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_blocked_qr_batch(dtype):
    shape = (3, 150, 140)
    a = (complex_random(shape, dtype, 5) if np.iscomplexobj(np.zeros(1, dtype))
         else random(shape, dtype, 5))
    for mode in ("reduced", "complete"):
        q, r = vla.qr(a, mode=mode)
        check(a, q, r, mode, rtol_r=20)
    # Each matrix of the stack as it would be alone.
    r1 = np.asarray(vla.qr(a[1], mode="r"))
    assert mx(np.abs(np.asarray(vla.qr(a, mode="r"))[1] - r1)) == 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blocked_qr_ill_conditioned(dtype):
    n = 160
    a = random((n, n), dtype, 11, cond=1e6)
    q, r = vla.qr(a)
    real = real_of(dtype)
    q64, r64 = np.asarray(q, np.float64), np.asarray(r, np.float64)
    # Householder QR is backward stable whatever the conditioning.
    assert mx(q64 @ r64 - a) <= bound(real, n, mx(a) * n)
    assert mx(q64.T @ q64 - np.eye(n)) <= bound(real, n)
    assert mx(np.tril(r64, -1)) == 0
    rn = np.linalg.qr(a.astype(np.float64), mode="r")
    assert mx(r64 - rn) <= bound(real, n, mx(a) * n) * 10
    # R's diagonal signs where numpy's |r_ii| stands clear of that bound.
    dn = np.diagonal(rn)
    clear = np.abs(dn) > bound(real, n, mx(a) * n)
    assert clear.sum() > 0
    assert np.array_equal(np.sign(np.diagonal(r64))[clear], np.sign(dn)[clear])


def test_blocked_qr_strided_and_integer_input():
    base = random((300, 280), np.float64, 3)
    view = vk.asarray(base)[::2, 1::2].T  # (140, 150), strided and transposed
    q, r = vla.qr(view)
    check(np.ascontiguousarray(base[::2, 1::2].T), q, r, "reduced")
    ints = (np.arange(130 * 130).reshape(130, 130) % 17 - 8) + 40 * np.eye(130, dtype=np.int64)
    q, r = vla.qr(ints)
    assert q.dtype == np.float64
    check(ints.astype(np.float64), q, r, "reduced")
