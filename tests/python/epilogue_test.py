"""Elementwise epilogues fused into the GEMM kernel (schedule/schedule.cc, kernels/gen/gemm.h):
relu(a @ b + bias) and alpha * a @ b + beta * c are one kernel, against numpy. Operands are
small integers, so every dtype's products are exact and compare equal to numpy's."""

import numpy as np
import pytest

import vkarray as vk


def ints(shape, dtype, seed, lo=-3, hi=3):
    return np.random.default_rng(seed).integers(lo, hi + 1, size=shape).astype(dtype)


def evaluated(*arrays):
    out = [vk.asarray(a) for a in arrays]
    for a in out:
        a.eval()
    return out


# float16 products on cooperative matrices are not fused: the product, then its epilogue.
COOP_F16 = any(d["cooperative_matrix_float16"] for d in vk.context().devices)


def fused(dtype):
    """The kernels an expression over one product takes: 1, or 2 where it is not fused."""
    return 2 if COOP_F16 and np.dtype(dtype) == np.float16 else 1


def kernels_of(x):
    before = vk.kernel_count()
    x.eval()
    return vk.kernel_count() - before


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int64])
@pytest.mark.parametrize("mkn", [(1, 7, 1), (33, 17, 45), (70, 9, 129)])
def test_relu_of_product_plus_bias_is_one_kernel(dtype, mkn):
    m, k, n = mkn
    a, b, bias = ints((m, k), dtype, 1), ints((k, n), dtype, 2), ints((n,), dtype, 3, -20, 20)
    va, vb, vbias = evaluated(a, b, bias)
    y = vk.maximum(va @ vb + vbias, 0)
    assert kernels_of(y) == fused(dtype)
    want = np.maximum(a @ b + bias, 0)
    assert y.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(y), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_alpha_product_plus_beta_c_is_one_kernel(dtype):
    a, b, c = ints((40, 11), dtype, 4), ints((11, 37), dtype, 5), ints((40, 37), dtype, 6)
    va, vb, vc = evaluated(a, b, c)
    alpha, beta = dtype(2.5), dtype(-0.5)
    y = alpha * (va @ vb) + beta * vc
    assert kernels_of(y) == 1
    np.testing.assert_array_equal(np.asarray(y), alpha * (a @ b) + beta * c)
    # c read through a transposed view
    ct = np.ascontiguousarray(c.T)
    (vct,) = evaluated(ct)
    y = alpha * (va @ vb) + beta * vct.T
    assert kernels_of(y) == 1
    np.testing.assert_array_equal(np.asarray(y), alpha * (a @ b) + beta * c)


def test_batched_and_transposed_operands():
    a = ints((3, 5, 9), np.float32, 7)  # read as (3, 9, 5)
    b = ints((5, 11), np.float32, 8)
    bias = ints((3, 1, 11), np.float32, 9)
    va, vb, vbias = evaluated(a, b, bias)
    y = vk.maximum(vk.matmul(va.transpose(0, 2, 1), vb[:, ::-1]) - vbias, 0)
    assert kernels_of(y) == 1
    want = np.maximum(np.matmul(a.transpose(0, 2, 1), b[:, ::-1]) - bias, 0)
    np.testing.assert_array_equal(np.asarray(y), want)


def test_small_integers_and_bool_outputs():
    a, b = ints((7, 30), np.int8, 10, -100, 100), ints((30, 6), np.int8, 11, -100, 100)
    bias = ints((6,), np.int8, 12, -100, 100)
    va, vb, vbias = evaluated(a, b, bias)
    y = va @ vb + vbias  # the product wraps to int8 first, as numpy's
    assert kernels_of(y) == 1
    np.testing.assert_array_equal(np.asarray(y), a @ b + bias)
    p = (va @ vb) > 0
    assert kernels_of(p) == 1
    np.testing.assert_array_equal(np.asarray(p), (a @ b) > 0)
    x, w = ints((9, 4), np.uint16, 13, 0, 9), ints((4, 1000), np.uint16, 14, 0, 9)
    vx, vw = evaluated(x, w)
    y = (vx @ vw) * 3 + 1
    assert kernels_of(y) == 1
    np.testing.assert_array_equal(np.asarray(y), (x @ w) * 3 + 1)


def test_product_used_twice():
    a, b = ints((12, 8), np.float64, 15), ints((8, 10), np.float64, 16)
    va, vb = evaluated(a, b)
    p = va @ vb
    y = p + p.sum()
    np.testing.assert_array_equal(np.asarray(y), (a @ b) + (a @ b).sum())
    p = va @ vb
    q = vk.exp(p / 16)
    r = p - 1
    for x in (p, q, r):
        x.eval()
    np.testing.assert_array_equal(np.asarray(p), a @ b)
    np.testing.assert_allclose(np.asarray(q), np.exp((a @ b) / 16), rtol=1e-15)
    np.testing.assert_array_equal(np.asarray(r), a @ b - 1)


def test_readers_that_do_not_fuse():
    a, b = ints((6, 4), np.float32, 17), ints((4, 5), np.float32, 18)
    va, vb = evaluated(a, b)
    wide = (va @ vb) + vk.ones((2, 6, 5), dtype=np.float32)  # a broadcast reader
    assert kernels_of(wide) == 2
    np.testing.assert_array_equal(np.asarray(wide), (a @ b) + np.ones((2, 6, 5), np.float32))
    s = (va @ vb).sum(axis=0)  # a reduction reads the written product
    np.testing.assert_array_equal(np.asarray(s), (a @ b).sum(axis=0))


def test_vectors_and_zero_d_results():
    a, b = ints((13,), np.float64, 19), ints((13, 7), np.float64, 20)
    va, vb = evaluated(a, b)
    # Vector operands make the product a fused reduction sum(a * b) (bandwidth-bound, not a
    # GEMM): the reduction is one kernel and its elementwise consumer one more.
    y = (va @ vb) - 1
    assert kernels_of(y) == 2
    np.testing.assert_array_equal(np.asarray(y), (a @ b) - 1)
    d = (va @ va) * 2
    assert kernels_of(d) == 2
    assert d.shape == ()
    assert float(np.asarray(d)) == (a @ a) * 2


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.uint32, np.uint64,
                                   np.float16, np.complex64, np.complex128])
def test_every_dtype(dtype):
    lo = 0 if np.dtype(dtype).kind in "bu" else -3
    a, b = ints((9, 33), dtype, 21, lo), ints((33, 31), dtype, 22, lo)
    c = ints((31,), dtype, 23, lo)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * ints((9, 33), np.float32, 24)
    va, vb, vc = evaluated(a, b, c)
    y = (va @ vb) * vc
    assert kernels_of(y) == fused(dtype)
    np.testing.assert_array_equal(np.asarray(y), (a @ b) * c)


def test_scalar_register_layout():
    # A tiling whose register tiles are not 4-vectors stores through the scalar layout.
    a, b = ints((37, 10), np.float32, 25), ints((10, 29), np.float32, 26)
    bias = ints((29,), np.float32, 27)
    va, vb, vbias = evaluated(a, b, bias)
    vk.set_gemm_config("16x16x4x2x2")
    try:
        y = vk.maximum(va @ vb + vbias, 0)
        assert kernels_of(y) == 1
    finally:
        vk.set_gemm_config(None)
    np.testing.assert_array_equal(np.asarray(y), np.maximum(a @ b + bias, 0))


def test_lazy_products_see_operands_as_they_were_and_write_into_views():
    a, b = ints((3, 4), np.float64, 28), ints((4, 5), np.float64, 29)
    va, vb = evaluated(a, b)
    p = va @ vb
    y = vk.maximum(p - 1, 0)
    va[0, 0] = 1000.0  # a write after the product was built does not change it
    np.testing.assert_array_equal(np.asarray(p), a @ b)
    np.testing.assert_array_equal(np.asarray(y), np.maximum(a @ b - 1, 0))
    a[0, 0] = 1000.0
    out = vk.zeros((5, 3))
    out.eval()
    vk.synchronize()  # runs the write into va, recorded until then (write.h)
    before = vk.kernel_count()
    out.T[...] = va @ vb  # the product stored through a transposed view by its own kernel
    out.get()  # a write may be recorded until the buffer is read (write.h); it still counts here
    assert vk.kernel_count() - before == 1
    np.testing.assert_array_equal(np.asarray(out), (a @ b).T)
