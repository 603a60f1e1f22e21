"""matmul and the @ operator (array/matmul.h, vkarray/_products.py) against numpy: every
dtype, shapes off the tile multiples (single rows and columns, empty and K = 0), transposed,
sliced and reversed operands read in place, batch broadcasting, numpy's 1-d rules, out= and
dtype=, @= and numpy's exception types.

Integers and bool are exact (numpy's products wrap the same way); floating results are checked
against a float64 / complex128 reference under the bound of products_testing.py."""

import numpy as np
import pytest

import vkarray as vk
from products_testing import DTYPES, check, sample

# (m, k, n): 1 x N, N x 1, sizes around the tiles (32 on lavapipe, 64/128 on GPUs).
SHAPES = [(1, 1, 1), (1, 7, 65), (65, 7, 1), (33, 17, 45), (130, 67, 129), (5, 0, 3)]


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_and_shape(dtype):
    for i, (m, k, n) in enumerate(SHAPES):
        a, b = sample((m, k), dtype, i), sample((k, n), dtype, 100 + i)
        check(vk.asarray(a) @ vk.asarray(b), a, b)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.complex128])
def test_transposed_sliced_and_reversed_operands(dtype):
    a = sample((70, 90), dtype, 1)
    b = sample((48, 100), dtype, 2)
    va, vb = vk.asarray(a), vk.asarray(b)
    # (45, 24) @ (24, 50), both strided, one reversed along each axis
    check(va.T[::2, ::-3] @ vb[::-2, 1::2], a.T[::2, ::-3], b[::-2, 1::2])
    check(va.T @ va, a.T, a)
    check(va @ va.T, a, a.T)
    va.eval()
    vb.eval()
    before = vk.kernel_count()
    r = vk.matmul(va.T, va[:, ::-1])
    r.eval()
    assert vk.kernel_count() - before == 1  # views are read through their strides: no copies
    check(r, a.T, a[:, ::-1])


def test_batch_broadcasting_and_one_dimensional_operands():
    rng = [((2, 1, 3, 4), (3, 4, 5)), ((4, 5), (7, 5, 2)), ((1, 6, 2), (2, 2)), ((3,), (2, 3, 4)),
           ((2, 3, 4), (4,)), ((5,), (5,)), ((2, 1, 1, 4), (1, 3, 4, 1)), ((0, 3, 4), (4, 2)),
           ((3, 0), (0,)), ((2, 3, 4), (1, 4, 0))]
    for i, (sa, sb) in enumerate(rng):
        a, b = sample(sa, np.float64, i), sample(sb, np.float64, 50 + i)
        check(vk.matmul(vk.asarray(a), vk.asarray(b)), a, b)
        ia, ib = sample(sa, np.int64, i), sample(sb, np.int16, i)
        check(vk.asarray(ia) @ vk.asarray(ib), ia, ib)
    # a batch operand broadcast from a view (stride 0 along the batch)
    a = sample((3, 4), np.float32, 7)
    b = sample((6, 4, 5), np.float32, 8)
    check(vk.broadcast_to(vk.asarray(a), (6, 3, 4)) @ vk.asarray(b),
          np.broadcast_to(a, (6, 3, 4)), b)


def test_mixed_dtypes_promote_as_numpy():
    for ta, tb in [(np.int8, np.uint8), (np.float16, np.int8), (np.int64, np.float32),
                   (np.bool_, np.int32), (np.float32, np.complex64), (np.uint64, np.int64)]:
        a, b = sample((5, 6), ta, 1), sample((6, 7), tb, 2)
        check(vk.asarray(a) @ vk.asarray(b), a, b)


def test_operators_functions_out_and_dtype():
    a, b = sample((4, 5), np.float32, 1), sample((5, 5), np.float32, 2)
    va, vb = vk.asarray(a), vk.asarray(b)
    check(a @ vb, a, b)  # numpy on the left: __array_ufunc__ keeps it on the device
    check(vk.matmul(a, b), a, b)
    check(va.__rmatmul__(a[:, :4]), a[:, :4], a)
    out = vk.zeros((4, 5), dtype=np.float64)
    assert vk.matmul(va, vb, out=out) is out
    check(out.astype(np.float32), a, b)
    r = vk.matmul(va, vb, dtype=np.float64)
    check(r, a.astype(np.float64), b.astype(np.float64))
    with pytest.raises(TypeError):
        vk.matmul(va, vb, dtype=np.int32)
    with pytest.raises(ValueError):
        vk.matmul(va, vb, out=vk.zeros((5, 4), dtype=np.float32))
    with pytest.raises(TypeError):
        vk.matmul(va, vb, out=vk.zeros((4, 5), dtype=np.int32))
    # a @= b: numpy 2's in-place product (numpy 1.24 has none: compare with a = a @ b)
    c = vk.asarray(a)
    alias = c
    c @= vb
    assert alias is c
    check(c, a, b)
    with pytest.raises(ValueError):
        c @= vk.asarray(sample((5, 3), np.float32, 3))
    check(c, a, b)  # unchanged
    ic = vk.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    with pytest.raises(TypeError):
        ic @= vk.asarray(np.eye(3))
    np.testing.assert_array_equal(np.asarray(ic), np.arange(6).reshape(2, 3))


def test_errors_match_numpy():
    a, b = vk.zeros((3, 4)), vk.zeros((3, 5))
    with pytest.raises(ValueError, match=r"\(size 3 is different from 4\)"):
        a @ b
    with pytest.raises(ValueError):
        a @ 2.0
    with pytest.raises(ValueError):
        vk.matmul(vk.asarray(np.float32(1)), a)
    with pytest.raises(ValueError):
        vk.zeros((2, 3, 4)) @ vk.zeros((3, 4, 5))
    for x, y in [((3, 4), (3, 5)), ((), (3,)), ((2, 3, 4), (3, 4, 5)), ((4,), (3,))]:
        with pytest.raises(ValueError):
            np.matmul(np.zeros(x), np.zeros(y))
        with pytest.raises(ValueError):
            vk.matmul(vk.zeros(x), vk.zeros(y))


def test_gemm_config_override_and_determinism():
    a, b = sample((70, 50), np.float32, 5), sample((50, 90), np.float32, 6)
    va, vb = vk.asarray(a), vk.asarray(b)
    first = np.asarray(va @ vb)
    np.testing.assert_array_equal(np.asarray(va @ vb), first)  # bit-identical re-runs
    default = vk.gemm_config(np.float32)
    try:
        for cfg in ["16x16x4x2x2", "32x64x8x4x8", "8x8x4x1x1"]:
            vk.set_gemm_config(cfg)
            assert vk.gemm_config(np.float32) == cfg
            check(va @ vb, a, b)
        vk.set_gemm_config("16x16x8x3x4")
        with pytest.raises(ValueError):
            va @ vb
        with pytest.raises(ValueError):
            vk.set_gemm_config("16x16")
    finally:
        vk.set_gemm_config(None)
    assert vk.gemm_config(np.float32) == default


def test_every_replica(ctx3):
    # Each replica holds its own operands; the product runs on each.
    a = vk.asarray(np.zeros((2, 33, 17), np.int64), context=ctx3)
    b = vk.asarray(np.zeros((17, 40), np.int64), context=ctx3)
    da = [sample((2, 33, 17), np.int64, 60 + r) for r in range(3)]
    db = [sample((17, 40), np.int64, 70 + r) for r in range(3)]
    for r in range(3):
        a.write(da[r], r)
        b.write(db[r], r)
    got = (a.T[:, ::-1].T @ b).read()  # a strided view of each replica's a
    for r in range(3):
        np.testing.assert_array_equal(got[r], da[r][:, ::-1] @ db[r])


def test_float16_layouts_and_edges_exact():
    """float16 on the cooperative-matrix kernel where the device has one (VKA_GEMM_COOP picks
    which): small integers, so float32 sums and their float16 results are exact and must
    equal numpy's bit for bit, for row-major (16-byte aligned rows or not), transposed,
    strided, offset and reversed operands, batches, and sizes around the 128 x 128 tiles."""
    rng = np.random.default_rng(5)
    for m, k, n in [(130, 72, 136), (1, 1, 1), (7, 9, 300), (129, 40, 17), (64, 64, 64)]:
        a = rng.integers(-2, 3, (2, m + 1, 2 * k)).astype(np.float16)
        b = rng.integers(-2, 3, (2, k, n)).astype(np.float16)
        at = np.ascontiguousarray(a[:, 1:, :k].transpose(0, 2, 1))  # stored (k, m)
        bt = np.ascontiguousarray(b.transpose(0, 2, 1))  # stored (n, k)
        va, vb, vat, vbt = vk.asarray(a), vk.asarray(b), vk.asarray(at), vk.asarray(bt)
        views = [(va[:, 1:, :k], a[:, 1:, :k]), (va[:, :m, ::2], a[:, :m, ::2]),
                 (vk.swapaxes(vat, 1, 2), at.transpose(0, 2, 1)),
                 (va[0, :m, k - 1::-1], a[0, :m, k - 1::-1])]
        for x, hx in views:
            for y, hy in [(vb, b), (vb[:, ::-1, :], b[:, ::-1, :]), (vk.swapaxes(vbt, 1, 2), b)]:
                r = x @ y
                assert r.dtype == np.float16
                np.testing.assert_array_equal(np.asarray(r), np.matmul(hx, hy))
