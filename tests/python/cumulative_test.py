"""Scans (cumsum, cumprod, nan- and cumulative_ variants, cummax, cummin), diff and ediff1d
(vkarray/_cumulative.py) against numpy: every dtype, sizes across the scan block boundaries,
every axis of 2-d and 3-d arrays and of strided views, dtype= and out=, NaN, int64
wrap-around, numpy's exception types and run-to-run determinism.

Floating scans are checked against a float64 (complex128) reference with the error bound of a
sequential sum or product in the dtype's precision: |got - exact| <= (k + 1) eps sum_j<=k |x_j|
for sums, <= (k + 1) eps |exact| for products, k the position along the axis."""

import numpy as np
import pytest

import vkarray as vk

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]
# 4096 float32, 2048 8-byte and 1024 complex128 elements make one block.
SIZES = [0, 1, 7, 1000, 1025, 4097]
BIG = 1000003


def sample(n, dtype, seed=0, product=False):
    """n values of dtype: small integers (products: mostly 1, some 2 and -1, so that they wrap
    only where meant to), floats in [-1, 1] (products: near 1)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(dtype)
    if dt.kind in "iu":
        if product:
            v = rng.choice([1, 1, 1, 1, 2, 3] + ([-1] if dt.kind == "i" else []), n)
        else:
            v = rng.integers(0 if dt.kind == "u" else -50, 50, n)
        return v.astype(dtype)
    lo, hi = (0.98, 1.02) if product else (-1.0, 1.0)
    v = rng.uniform(lo, hi, n)
    if dt.kind == "c":
        v = v + 1j * rng.uniform(-0.01 if product else -1.0, 0.01 if product else 1.0, n)
    return v.astype(dtype)


def position(shape, axis):
    """k, each element's index along axis, broadcast to shape."""
    axis %= len(shape)
    k = np.arange(shape[axis]).reshape([-1 if d == axis else 1 for d in range(len(shape))])
    return np.broadcast_to(k, shape)


def check_scan(got, x, axis, product, dtype):
    """got (a vkarray result) against numpy's scan of x along axis in dtype."""
    want = (np.cumprod if product else np.cumsum)(x, axis=axis, dtype=dtype)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    g = np.asarray(got)
    if want.dtype.kind not in "fc":
        np.testing.assert_array_equal(g, want)
        return
    wide = np.complex128 if want.dtype.kind == "c" else np.float64
    xs = x.astype(wide)
    if axis is None:
        xs, axis = xs.reshape(-1), 0
    exact = np.cumprod(xs, axis=axis) if product else np.cumsum(xs, axis=axis)
    eps = np.finfo(want.dtype).eps
    k = position(exact.shape, axis) + 1
    scale = np.abs(exact) if product else np.cumsum(np.abs(xs), axis=axis)
    err = np.abs(g.astype(wide) - exact)
    # Past the dtype's range (and after NaN) numpy's own result is the reference.
    finite = np.isfinite(want)
    same = (g == want) | (np.isnan(g) & np.isnan(want))
    bad = np.where(finite, ~(err <= k * eps * scale), ~same)
    assert not bad.any(), (np.argwhere(bad)[:5], g[bad][:5], exact[bad][:5])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("product", [False, True])
def test_every_dtype_and_size(dtype, product):
    fn = vk.cumprod if product else vk.cumsum
    sizes = SIZES + ([BIG] if dtype in (np.float32, np.int64, np.uint8) else [])
    for n in sizes:
        x = sample(n, dtype, seed=n, product=product)
        check_scan(fn(vk.asarray(x)), x, None, product, None)


@pytest.mark.parametrize("shape", [(3, 5000), (5000, 3), (30, 5000), (100, 7), (4, 300, 5),
                                   (7, 1, 9), (2, 0, 3), (6, 4097, 2)])
def test_every_axis(shape):
    for dtype in (np.int32, np.float32):
        x = sample(int(np.prod(shape)), dtype, seed=3).reshape(shape)
        d = vk.asarray(x)
        for axis in range(-len(shape), len(shape)):
            check_scan(vk.cumsum(d, axis=axis), x, axis, False, None)
            check_scan(d.cumprod(axis), x, axis, True, None) if dtype == np.int32 else None


def test_strided_views():
    x = sample(40 * 60 * 3, np.float64, seed=4).reshape(40, 60, 3)
    d = vk.asarray(x)
    for view in [(slice(None, None, 3), slice(5, None, 2), 1), (slice(None, None, -1),),
                 (Ellipsis, slice(None, None, -2)), (slice(1, 30), slice(None, None, 7))]:
        for axis in [None] + list(range(x[view].ndim)):
            check_scan(vk.cumsum(d[view], axis=axis), x[view], axis, False, None)
    flat = sample(9000, np.float32, seed=12)
    check_scan(vk.cumsum(vk.asarray(flat)[3:]), flat[3:], None, False, None)  # offset, contiguous
    check_scan(vk.cumsum(vk.asarray(flat)[4997:]), flat[4997:], None, False, None)
    t = x[:, :, 0].T
    check_scan(vk.cumsum(vk.asarray(x)[:, :, 0].T, axis=1), t, 1, False, None)


def test_multi_level():
    # 1024 complex128 per block: a row of 1025 blocks. Small integers: exact.
    n = 1024 * 1024 + 3
    x = (np.arange(n) % 7 - 1j * (np.arange(n) % 3)).astype(np.complex128)
    np.testing.assert_array_equal(np.asarray(vk.cumsum(vk.asarray(x))), np.cumsum(x))


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.float32])
def test_whole_blocks_move_as_vectors_from_any_start(dtype):
    # 4-byte dtypes move whole 4096-element blocks as 4-vectors where a block starts a 16-byte
    # vector (kernels/lib/cumulative.cc): slices starting at 1 and 2 take the scalar path, 0
    # and 4 the vector one; rows of whole blocks too. Small integers: exact in float32.
    x = (np.arange(3 * 4096 * 5 + 7) % 97).astype(dtype)
    for start in (0, 1, 2, 4):
        np.testing.assert_array_equal(np.asarray(vk.cumsum(vk.asarray(x)[start:])),
                                      np.cumsum(x[start:], dtype=dtype))
    m = x[:6 * 4096].reshape(6, 4096)
    np.testing.assert_array_equal(np.asarray(vk.cumsum(vk.asarray(m), axis=1)),
                                  np.cumsum(m, axis=1, dtype=dtype))


def test_dtype_overrides_and_wrap():
    x = np.array([100, 100, 100, -128, 7], np.int8)
    for dtype in [np.int8, np.uint8, np.int16, np.float32, np.float16, np.bool_, np.complex64]:
        check_scan(vk.cumsum(x, dtype=dtype), x, None, False, dtype)
        check_scan(vk.cumprod(x, dtype=dtype), x, None, True, dtype)
    big = np.array([2**62, 2**62, 2**62, -(2**63), 3], np.int64)
    np.testing.assert_array_equal(np.asarray(vk.cumsum(big)), np.cumsum(big))
    np.testing.assert_array_equal(np.asarray(vk.cumprod(big)), np.cumprod(big))
    u = np.array([2**63, 2**63, 5], np.uint64)
    np.testing.assert_array_equal(np.asarray(vk.cumsum(u)), np.cumsum(u))
    f = np.array([1.5, 2.7, -3.2])
    check_scan(vk.cumsum(f, dtype=np.int32), f, None, False, np.int32)


def test_out():
    x = np.array([[100, 100, 100], [1, 2, 3]], np.int8)
    d = vk.asarray(x)
    for out_dtype, dtype in [(np.int8, None), (np.float64, None), (np.int64, np.float64),
                             (np.float32, np.int8)]:
        o = vk.zeros((2, 3), out_dtype)
        want = np.zeros((2, 3), out_dtype)
        r = vk.cumsum(d, axis=1, dtype=dtype, out=o)
        assert r is o
        np.testing.assert_array_equal(np.asarray(o), np.cumsum(x, axis=1, dtype=dtype, out=want))
    o = vk.zeros(6, np.int64)
    assert d.cumprod(out=o) is o
    np.testing.assert_array_equal(np.asarray(o), np.cumprod(x))
    with pytest.raises(ValueError):
        vk.cumsum(d, out=vk.zeros(5, np.int64))
    o = vk.zeros((2, 4), np.int64)
    assert vk.cumulative_sum(d, axis=1, include_initial=True, out=o) is o
    np.testing.assert_array_equal(np.asarray(o), np.concatenate(
        [np.zeros((2, 1), np.int64), np.cumsum(x, axis=1)], axis=1))
    # numpy's cumsum and cumprod call the methods: the work stays on the device.
    assert isinstance(np.cumsum(d, axis=0), vk.ndarray)
    np.testing.assert_array_equal(np.asarray(np.cumprod(d, axis=0)), np.cumprod(x, axis=0))


def test_nan():
    x = np.array([1.0, np.nan, 2.0, -np.inf, np.nan, 3.0], np.float32)
    np.testing.assert_array_equal(np.asarray(vk.cumsum(x)), np.cumsum(x))
    np.testing.assert_array_equal(np.asarray(vk.nancumsum(x)), np.nancumsum(x))
    np.testing.assert_array_equal(np.asarray(vk.nancumprod(x)), np.nancumprod(x))
    c = np.array([1 + 1j, complex(np.nan, 1), 2, complex(0, np.nan)], np.complex128)
    np.testing.assert_array_equal(np.asarray(vk.nancumsum(c)), np.nancumsum(c))
    i = np.arange(5, dtype=np.int16)
    np.testing.assert_array_equal(np.asarray(vk.nancumsum(i)), np.nancumsum(i))
    m = sample(3000, np.float64, seed=8).reshape(3, 1000)
    m[1, 500] = np.nan
    m[2, 0] = np.nan
    for axis in (0, 1):
        np.testing.assert_array_equal(np.asarray(vk.nancumsum(m, axis=axis)).round(9),
                                      np.nancumsum(m, axis=axis).round(9))
        got = np.asarray(vk.cummax(m, axis=axis))
        np.testing.assert_array_equal(got, np.maximum.accumulate(m, axis=axis))
        got = np.asarray(vk.cummin(m, axis=axis))
        np.testing.assert_array_equal(got, np.minimum.accumulate(m, axis=axis))


@pytest.mark.parametrize("dtype", [d for d in DTYPES if np.dtype(d).kind != "c"])
def test_cummax_cummin(dtype):
    for shape in [(0,), (1,), (7,), (4097,), (20, 30), (3, 4, 1100)]:
        x = sample(int(np.prod(shape)), dtype, seed=5).reshape(shape)
        for axis in range(-len(shape), len(shape)):
            for fn, ref in [(vk.cummax, np.maximum), (vk.cummin, np.minimum)]:
                got = fn(vk.asarray(x), axis=axis)
                assert got.dtype == x.dtype
                np.testing.assert_array_equal(np.asarray(got), ref.accumulate(x, axis=axis))


def test_cumulative_sum_and_prod():
    x = sample(24, np.int16, seed=6).reshape(2, 3, 4)
    for axis in (0, 1, -1):
        for include_initial in (False, True):
            got = vk.cumulative_sum(x, axis=axis, include_initial=include_initial)
            want = np.cumsum(x, axis=axis)
            if include_initial:
                shape = list(x.shape)
                shape[axis] = 1
                want = np.concatenate([np.zeros(shape, want.dtype), want], axis=axis)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)
    got = vk.cumulative_prod(np.array([2.0, 3.0]), include_initial=True, dtype=np.float32)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(got), [1, 2, 6])
    np.testing.assert_array_equal(np.asarray(vk.cumulative_sum(np.array(5))), [5])
    with pytest.raises(ValueError):
        vk.cumulative_sum(x)


def test_zero_d_and_empty():
    np.testing.assert_array_equal(np.asarray(vk.cumsum(np.array(5))), np.cumsum(np.array(5)))
    np.testing.assert_array_equal(np.asarray(vk.cumsum(np.array(5.0), axis=0)), [5.0])
    for shape, axis in [((0,), 0), ((0, 3), 1), ((3, 0), 0), ((3, 0), None)]:
        x = np.zeros(shape, np.float32)
        got = vk.cumsum(x, axis=axis)
        assert got.shape == np.cumsum(x, axis=axis).shape and got.dtype == np.float32


def test_errors():
    d = vk.asarray(np.ones((2, 3)))
    for fn in (vk.cumsum, vk.cumprod, vk.nancumsum, vk.cummax):
        with pytest.raises(np.AxisError):
            fn(d, axis=2)
        with pytest.raises(np.AxisError):
            fn(d, axis=-3)
    with pytest.raises(TypeError):
        vk.cummax(np.array(3.0))
    with pytest.raises(TypeError):
        vk.cummin(np.ones(3, np.complex64))
    with pytest.raises(TypeError):
        vk.cumsum(d, dtype="U3")
    with pytest.raises(ValueError, match="order must be non-negative"):
        vk.diff(d, n=-1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        vk.diff(np.array(3))
    with pytest.raises(np.AxisError):
        vk.diff(d, axis=2)
    with pytest.raises(ValueError):
        vk.diff(d, prepend=np.zeros((3, 1)))
    with pytest.raises(TypeError):
        vk.ediff1d(np.arange(3), to_end=1.5)


def test_determinism():
    x = vk.asarray(sample(BIG, np.float32, seed=9))
    first = np.asarray(vk.cumsum(x))
    for _ in range(2):
        assert np.asarray(vk.cumsum(x)).tobytes() == first.tobytes()
    y = vk.asarray(sample(300 * 3000, np.float64, seed=10).reshape(300, 3000))
    first = np.asarray(vk.cumprod(y, axis=0))
    assert np.asarray(vk.cumprod(y, axis=0)).tobytes() == first.tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
def test_diff(dtype):
    x = sample(60, dtype, seed=11).reshape(3, 4, 5)
    d = vk.asarray(x)
    for n in (0, 1, 2, 6):
        for axis in (0, 1, -1):
            got, want = vk.diff(d, n=n, axis=axis), np.diff(x, n=n, axis=axis)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(np.asarray(got), want)
    assert vk.diff(d, n=0) is d
    pre, app = np.ones((3, 4, 1), dtype), np.zeros((3, 4, 2), dtype)
    for kw in [dict(prepend=0), dict(append=x[..., :1]), dict(prepend=pre, append=app),
               dict(prepend=np.float32(1.5))]:
        kw_dev = {k: vk.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        want = np.diff(x, **kw)
        got = vk.diff(d, **kw_dev)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)
    view = d[::2, ::-1]
    np.testing.assert_array_equal(np.asarray(vk.diff(view, axis=1)), np.diff(x[::2, ::-1], axis=1))


def test_ediff1d():
    x = np.array([[1, 2, 4], [7, 11, 16]], np.int32)
    np.testing.assert_array_equal(np.asarray(vk.ediff1d(x)), np.ediff1d(x))
    got = vk.ediff1d(x, to_end=[100, 200], to_begin=np.int8(-5))
    want = np.ediff1d(x, to_end=[100, 200], to_begin=np.int8(-5))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)
    f = np.array([1.0, 0.5])
    np.testing.assert_array_equal(np.asarray(vk.ediff1d(f, to_begin=3)), np.ediff1d(f, to_begin=3))
    for e in (np.zeros(0), np.ones(1)):
        np.testing.assert_array_equal(np.asarray(vk.ediff1d(e, to_end=[1.0])),
                                      np.ediff1d(e, to_end=[1.0]))


def test_every_replica(ctx3):
    # Each replica holds its own data; the scan runs on each.
    x = vk.asarray(np.zeros((3, 5000), np.float64), context=ctx3)
    data = [sample(15000, np.float64, seed=20 + r).reshape(3, 5000) for r in range(3)]
    for r in range(3):
        x.write(data[r], r)
    for axis in (None, 0, 1):
        got = vk.cumsum(x, axis=axis).read()
        for r in range(3):
            check_scan(vk.asarray(got[r]), data[r], axis, False, None)
    got = vk.diff(x, axis=0).read()
    for r in range(3):
        np.testing.assert_array_equal(got[r], np.diff(data[r], axis=0))
