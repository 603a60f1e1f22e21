"""Split-K matrix products (kernels/gen/gemm.h, runtime/gemm_split.h): under vk.set_gemm_split(S)
every GEMM computes S ranges of K as partial products and sums them in order in a second
kernel, which also runs the epilogue. Against numpy, with the kernel counts: K = 1, K < S,
K not a multiple of S times the K slice, batches, transposed and sliced operands, every
dtype, integers that wrap, with and without an epilogue, and the same bits on every run."""

import contextlib

import numpy as np
import pytest

import vkarray as vk

COOP_F16 = any(d["cooperative_matrix_float16"] for d in vk.context().devices)


def ints(shape, dtype, seed, lo=-3, hi=3):
    return np.random.default_rng(seed).integers(lo, hi + 1, size=shape).astype(dtype)


def evaluated(*arrays):
    out = [vk.asarray(a) for a in arrays]
    for a in out:
        a.eval()
    return out


@contextlib.contextmanager
def split(s, tiling=None):
    vk.set_gemm_split(s)
    vk.set_gemm_config(tiling)
    try:
        yield
    finally:
        vk.set_gemm_split(None)
        vk.set_gemm_config(None)


def kernels_of(*ys):
    before = vk.kernel_count()
    vk.eval(*ys)
    return vk.kernel_count() - before


@pytest.mark.parametrize("s", [1, 2, 3, 7])
@pytest.mark.parametrize("mkn", [(5, 1, 6), (33, 2, 45), (70, 61, 37), (9, 200, 4)])
def test_splits_against_numpy(s, mkn):
    m, k, n = mkn
    a, b = ints((m, k), np.float32, 1), ints((k, n), np.float32, 2)
    va, vb = evaluated(a, b)
    with split(s):
        y = va @ vb
        assert kernels_of(y) == (1 if s == 1 else 2)
    np.testing.assert_array_equal(np.asarray(y), a @ b)


@pytest.mark.parametrize("s", [2, 5])
def test_epilogue_runs_in_the_combining_kernel(s):
    a, b = ints((37, 50), np.float32, 3), ints((50, 29), np.float32, 4)
    bias = ints((29,), np.float32, 5, -20, 20)
    va, vb, vbias = evaluated(a, b, bias)
    with split(s):
        y = vk.maximum(va @ vb + vbias, 0)
        assert kernels_of(y) == 2  # partial products, then sums and epilogue
    np.testing.assert_array_equal(np.asarray(y), np.maximum(a @ b + bias, 0))
    # Several outputs, a transposed epilogue operand.
    c = ints((29, 37), np.float32, 6)
    (vc,) = evaluated(c)
    with split(s):
        p = va @ vb
        y, z = p * 2 - vc.T, p > 0
        assert kernels_of(y, z) == 2
    np.testing.assert_array_equal(np.asarray(y), (a @ b) * 2 - c.T)
    np.testing.assert_array_equal(np.asarray(z), (a @ b) > 0)


def test_batched_transposed_and_sliced_operands():
    a = ints((3, 40, 19), np.float64, 7)  # read transposed: (3, 19, 40)
    b = ints((80, 13), np.float64, 8)  # every other row: (40, 13), broadcast over the batch
    bias = ints((3, 1, 13), np.float64, 9)
    va, vb, vbias = evaluated(a, b, bias)
    for tiling in (None, "16x24x4x2x3"):
        with split(4, tiling):
            p = vk.matmul(vk.swapaxes(va, -1, -2), vb[::2])
            y = p - vbias
            assert kernels_of(y) == 2
            q = vk.matmul(vk.swapaxes(va, -1, -2), vb[::2])
            assert kernels_of(q) == 2
        want = np.matmul(np.swapaxes(a, -1, -2), b[::2])
        np.testing.assert_array_equal(np.asarray(y), want - bias)
        np.testing.assert_array_equal(np.asarray(q), want)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32,
                                   np.uint32, np.int64, np.uint64, np.float16, np.float32,
                                   np.float64, np.complex64, np.complex128])
def test_every_dtype(dtype):
    lo = 0 if np.dtype(dtype).kind in "bu" else -3
    a, b = ints((2, 11, 45), dtype, 10, lo), ints((2, 45, 21), dtype, 11, lo)
    c = ints((21,), dtype, 12, lo)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * ints((2, 11, 45), np.float32, 13)
    va, vb, vc = evaluated(a, b, c)
    coop = COOP_F16 and np.dtype(dtype) == np.float16  # cooperative matrices do not split
    with split(3):
        p = va @ vb
        assert kernels_of(p) == (1 if coop else 2)
        y = (va @ vb) * vc if dtype != np.bool_ else (va @ vb) ^ vc
        assert kernels_of(y) == 2  # split, or (cooperative) the product then the epilogue
    assert p.dtype == (a @ b).dtype
    np.testing.assert_array_equal(np.asarray(p), a @ b)
    want = (a @ b) * c if dtype != np.bool_ else (a @ b) ^ c
    np.testing.assert_array_equal(np.asarray(y), want)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64])
def test_integers_wrap_as_numpy(dtype):
    info = np.iinfo(dtype)
    lo, hi = max(info.min, -(2**40)), min(info.max, 2**40)
    a = np.random.default_rng(14).integers(lo, hi, size=(6, 77), endpoint=True).astype(dtype)
    b = np.random.default_rng(15).integers(lo, hi, size=(77, 5), endpoint=True).astype(dtype)
    va, vb = evaluated(a, b)
    with split(6):
        y = va @ vb
        assert kernels_of(y) == 2
        z = (va @ vb) + dtype(1)
        assert kernels_of(z) == 2
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(np.asarray(y), a @ b)
        np.testing.assert_array_equal(np.asarray(z), a @ b + dtype(1))


def test_float32_is_deterministic_and_within_the_bound():
    rng = np.random.default_rng(16)
    m, k, n, s = 19, 3001, 23, 5
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    va, vb = evaluated(a, b)
    with split(s):
        first = np.asarray(va @ vb)
        again = np.asarray(va @ vb)
    np.testing.assert_array_equal(first, again)  # fixed order: the same bits
    exact = a.astype(np.float64) @ b.astype(np.float64)
    mag = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)
    # docs/accuracy.md: ranges of r = ceil(K / S) rounded up to whole K slices, then the sum
    # of the S partials: gamma_(r + S - 1).
    bk = int(vk.gemm_config(np.float32).split("x")[2])
    r = -(-(-(-k // s)) // bk) * bk
    u = 2.0**-24
    terms = r + s - 1
    bound = terms * u / (1 - terms * u) * mag
    assert np.all(np.abs(first - exact) <= bound)


def test_errors():
    for bad in (0, -1, 65537):
        with pytest.raises(ValueError, match="split-K"):
            vk.set_gemm_split(bad)
    vk.set_gemm_split(None)
