"""matmul and the @ operator (array/matmul.h, vkarray/_products.py) against numpy: every
dtype, shapes off the tile multiples (single rows and columns, empty and K = 0), transposed,
sliced and reversed operands read in place, batch broadcasting, numpy's 1-d rules, out= and
dtype=, @= and numpy's exception types.

Integers and bool are exact (numpy's products wrap the same way). Floating results are
checked against a float64 / complex128 reference with the bound of docs/accuracy.md ("Matrix
products"): |got - exact| <= gamma_k * (|A| @ |B|) per element, gamma_k = k u / (1 - k u),
u the accumulator's unit roundoff (float32 for float16 inputs), plus one rounding of the result
to float16; complex products use gamma_2k on |re| + |im| magnitudes, per component."""

import numpy as np
import pytest

import vkarray as vk

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]

# (m, k, n): 1 x N, N x 1, sizes around the tiles (32 on lavapipe, 64/128 on GPUs).
SHAPES = [(1, 1, 1), (1, 7, 65), (65, 7, 1), (33, 17, 45), (130, 67, 129), (5, 0, 3)]

UNIT = {np.dtype(np.float16): 2.0 ** -24, np.dtype(np.float32): 2.0 ** -24,
        np.dtype(np.float64): 2.0 ** -53, np.dtype(np.complex64): 2.0 ** -24,
        np.dtype(np.complex128): 2.0 ** -53}


def sample(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if dt.kind == "u":
        return rng.integers(0, 200, shape).astype(dtype)
    if dt.kind == "i":
        return rng.integers(-100, 100, shape).astype(dtype)
    v = rng.uniform(-1, 1, shape)
    if dt.kind == "c":
        v = v + 1j * rng.uniform(-1, 1, shape)
    return v.astype(dtype)


def check(got, a, b):
    """got (a vkarray result) against numpy's matmul of the host operands a, b."""
    want = np.matmul(a, b)
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    dt = want.dtype
    if dt.kind in "biu":
        np.testing.assert_array_equal(got, want)
        return
    k = a.shape[-1]
    u = UNIT[dt]
    if dt.kind == "c":
        a1 = np.abs(a.real) + np.abs(a.imag)
        b1 = np.abs(b.real) + np.abs(b.imag)
        exact = np.matmul(a.astype(np.complex128), b.astype(np.complex128))
        g = 2 * k * u / (1 - 2 * k * u)
        bound = g * np.matmul(a1.astype(np.float64), b1.astype(np.float64))
        assert np.all(np.abs(got.real - exact.real) <= bound)
        assert np.all(np.abs(got.imag - exact.imag) <= bound)
        return
    exact = np.matmul(a.astype(np.float64), b.astype(np.float64))
    g = k * u / (1 - k * u)
    bound = g * np.matmul(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    if dt == np.float16:
        bound = bound * (1 + 2.0 ** -11) + 2.0 ** -11 * np.abs(exact) + 2.0 ** -25  # subnormals
    err = np.abs(got.astype(np.float64) - exact)
    assert np.all(err <= bound), (err - bound).max()


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
