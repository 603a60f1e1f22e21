"""GEMM epilogues stage the tile's results through shared memory, one register row of the
tile per pass (kernels/gen/gemm.cc): shapes that end inside a tile and inside a pass, batches,
broadcast and transposed epilogue operands, several outputs and every dtype, against numpy,
under the default tiling and tilings with 4-vector and scalar register layouts."""

import contextlib

import numpy as np
import pytest

import vkarray as vk

# (bm x bn x bk x tm x tn): None is the device's default; 32x64x8x4x8 has 4-vector register
# tiles with two vectors per row; 16x24x4x2x3 the scalar layout with a tile width that is not
# a power of two; 128x256x8x8x8 is the H200's (512 invocations).
TILINGS = [None, "32x64x8x4x8", "16x24x4x2x3", "128x256x8x8x8"]

COOP_F16 = any(d["cooperative_matrix_float16"] for d in vk.context().devices)


def ints(shape, dtype, seed, lo=-3, hi=3):
    return np.random.default_rng(seed).integers(lo, hi + 1, size=shape).astype(dtype)


def evaluated(*arrays):
    out = [vk.asarray(a) for a in arrays]
    for a in out:
        a.eval()
    return out


@contextlib.contextmanager
def tiling_of(tiling):
    """Products built inside use `tiling` (the tiling enters a product when it is built)."""
    vk.set_gemm_config(tiling)
    try:
        yield
    finally:
        vk.set_gemm_config(None)


def kernels_of(*ys):
    before = vk.kernel_count()
    vk.eval(*ys)
    return vk.kernel_count() - before


@pytest.mark.parametrize("tiling", TILINGS)
@pytest.mark.parametrize("mkn", [(2, 3, 2), (70, 9, 129), (33, 1, 65)])
def test_relu_crossing_tiles_and_passes(tiling, mkn):
    m, k, n = mkn
    a, b = ints((m, k), np.float32, 1), ints((k, n), np.float32, 2)
    bias = ints((n,), np.float32, 3, -20, 20)
    va, vb, vbias = evaluated(a, b, bias)
    with tiling_of(tiling):
        y = vk.maximum(va @ vb + vbias, 0)
    assert kernels_of(y) == 1
    np.testing.assert_array_equal(np.asarray(y), np.maximum(a @ b + bias, 0))


# float64 tiles of 128 x 256 would need more shared memory than lavapipe has beside the
# staged row: the epilogue is then not fused (schedule.cc: over_limit).
@pytest.mark.parametrize("tiling", TILINGS[:3])
def test_batched_with_broadcast_and_transposed_operands(tiling):
    # A (2, 3) batch, B broadcast over the first batch axis, epilogue operands broadcast
    # along rows, columns and the batch, one read through a transposed view.
    a = ints((2, 3, 37, 6), np.float64, 4)
    b = ints((3, 6, 41), np.float64, 5)
    row = ints((3, 1, 41), np.float64, 6)
    col_t = ints((2, 1, 1, 37), np.float64, 7)  # read as (2, 1, 37, 1)
    va, vb, vrow, vcol = evaluated(a, b, row, col_t)
    with tiling_of(tiling):
        y = (va @ vb) * 2 - vrow + vk.swapaxes(vcol, -1, -2)
    assert kernels_of(y) == 1
    np.testing.assert_array_equal(np.asarray(y), (a @ b) * 2 - row + np.swapaxes(col_t, -1, -2))


@pytest.mark.parametrize("tiling", TILINGS[:3])
def test_iteration_space_merging_rows_and_columns(tiling):
    # A (2, 3, 1, 1) scale and a contiguous (2, 3, m, n) term merge m and n (and the batch
    # axes) into one axis of the epilogue's iteration space: its last axis is not n.
    a, b = ints((2, 3, 21, 5), np.float32, 16), ints((2, 3, 5, 35), np.float32, 17)
    scale = ints((2, 3, 1, 1), np.float32, 18)
    c = ints((2, 3, 21, 35), np.float32, 19)
    va, vb, vscale, vc = evaluated(a, b, scale, c)
    with tiling_of(tiling):
        y = (va @ vb) * vscale + vc
        z = (va @ vb) - vscale
    assert kernels_of(y) == 1
    assert kernels_of(z) == 1
    np.testing.assert_array_equal(np.asarray(y), (a @ b) * scale + c)
    np.testing.assert_array_equal(np.asarray(z), (a @ b) - scale)


@pytest.mark.parametrize("tiling", TILINGS)
def test_several_outputs(tiling):
    a, b = ints((45, 7), np.float32, 8), ints((7, 70), np.float32, 9)
    c = ints((45, 70), np.float32, 10)
    va, vb, vc = evaluated(a, b, c)
    with tiling_of(tiling):
        p = va @ vb
    y, z, w = p + vc, p > 0, vk.abs(p) * 0.5
    assert kernels_of(y, z, w) == 1
    p_ = a @ b
    np.testing.assert_array_equal(np.asarray(y), p_ + c)
    np.testing.assert_array_equal(np.asarray(z), p_ > 0)
    np.testing.assert_array_equal(np.asarray(w), np.abs(p_) * np.float32(0.5))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32,
                                   np.uint32, np.int64, np.uint64, np.float16, np.float64,
                                   np.complex64, np.complex128])
@pytest.mark.parametrize("tiling", [None, "16x24x4x2x3"])
def test_every_dtype_batched(dtype, tiling):
    lo = 0 if np.dtype(dtype).kind in "bu" else -3
    a, b = ints((2, 19, 11), dtype, 11, lo), ints((2, 11, 27), dtype, 12, lo)
    c = ints((27,), dtype, 13, lo)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * ints((2, 19, 11), np.float32, 14)
        c = c - 2j * ints((27,), np.float32, 15)
    va, vb, vc = evaluated(a, b, c)
    with tiling_of(tiling):
        y = (va @ vb) * vc if dtype != np.bool_ else (va @ vb) ^ vc
    coop = COOP_F16 and np.dtype(dtype) == np.float16 and tiling is None
    assert kernels_of(y) == (2 if coop else 1)
    want = (a @ b) * c if dtype != np.bool_ else (a @ b) ^ c
    assert y.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(y), want)
