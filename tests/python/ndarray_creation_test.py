"""vkarray's creation functions against numpy (generated on the device, never uploaded),
asarray/array, host transfers of ndarrays, and conversions to Python values."""

import numpy as np
import pytest

import vkarray as vk
from ndarray_api_test import F32_A, I32_A, check


def test_creation_functions_match_numpy():
    check(vk.zeros((2, 3)), np.zeros((2, 3)))
    check(vk.ones(4, vk.int8), np.ones(4, np.int8))
    check(vk.full((2, 2), 7), np.full((2, 2), 7))
    check(vk.full(3, 2.5, vk.float32), np.full(3, 2.5, np.float32))
    check(vk.full(2, np.float16(1.5)), np.full(2, np.float16(1.5)))
    check(vk.full(2, True), np.full(2, True))
    assert vk.empty((3, 0)).shape == (3, 0) and vk.empty(5, vk.int32).dtype == np.int32
    proto = vk.asarray(I32_A)
    check(vk.zeros_like(proto), np.zeros_like(I32_A))
    check(vk.ones_like(F32_A, dtype=vk.float64), np.ones_like(F32_A, dtype=np.float64))
    check(vk.full_like(proto, 9), np.full_like(I32_A, 9))
    assert vk.empty_like(proto).shape == (2, 3)
    for args in [(5,), (1, 10, 3), (10, 0, -3), (5, 1), (0, 1, 0.1), (-2.5, 3)]:
        check(vk.arange(*args), np.arange(*args))
    check(vk.arange(5, dtype=vk.float32), np.arange(5, dtype=np.float32))
    check(vk.linspace(0, 1, 5), np.linspace(0, 1, 5))
    check(vk.linspace(-1, 2, 7, endpoint=False), np.linspace(-1, 2, 7, endpoint=False))
    check(vk.linspace(2, 3, 1), np.linspace(2, 3, 1))
    check(vk.linspace(0, 1, 0), np.linspace(0, 1, 0))
    check(vk.linspace(0, 10, 11, dtype=vk.float32), np.linspace(0, 10, 11, dtype=np.float32))
    check(vk.eye(3), np.eye(3))
    check(vk.eye(3, 5, k=1, dtype=vk.int32), np.eye(3, 5, k=1, dtype=np.int32))
    check(vk.eye(4, 2, k=-1), np.eye(4, 2, k=-1))
    check(vk.identity(2, vk.bool_), np.identity(2, bool))
    with pytest.raises(OverflowError, match=r"\[full\] Python integer 300 out of bounds for int8"):
        vk.full(3, 300, vk.int8)


def test_narrow_float_linspace_is_numpys_bit_for_bit():
    # numpy computes in float64 and rounds once: a float32 step would be off by ~1e-5
    # relative where start + i * step crosses zero (the Mandelbrot grid's x = -0.0192...).
    for args in [(-2.25, 0.75, 40), (-1.25, 1.25, 30), (0.0, 1.0, 7), (-1e-3, 3e4, 1001),
                 (5.0, 5.0, 3), (1.0, -1.0, 4)]:
        for dtype in (np.float32, np.float16):
            want = np.linspace(*args, dtype=dtype)
            got = vk.linspace(*args, dtype=dtype)
            assert got.is_lazy and got.dtype == dtype
            np.testing.assert_array_equal(got.get(), want, err_msg=f"{args} {dtype}")
    x = vk.linspace(-2.25, 0.75, 40, dtype=vk.float32)
    before = vk.kernel_count()
    x.eval()
    assert vk.kernel_count() - before == 1  # the float64 source and its rounding: one kernel


def test_creation_generates_on_the_device():
    before = vk.kernel_count()
    made = [vk.zeros(4), vk.ones((2, 2), vk.int32), vk.full(3, 1.5), vk.arange(10),
            vk.linspace(0, 1, 4), vk.eye(3)]
    assert all(m.is_lazy for m in made)  # constants, not uploads
    assert vk.kernel_count() == before
    vk.eval(*made)
    assert vk.kernel_count() > before and not any(m.is_lazy for m in made)


def test_asarray_and_array():
    x = vk.asarray(F32_A)
    assert vk.asarray(x) is x and vk.asarray(x, vk.float32) is x
    assert vk.array(x) is not x
    y = vk.asarray(x, dtype=vk.float64)
    check(y, F32_A.astype(np.float64))
    assert vk.asarray([[1, 2], [3, 4]]).dtype == np.int64
    assert vk.asarray([1, 2.5]).dtype == np.float64
    assert vk.asarray([True, False]).dtype == np.bool_
    assert vk.asarray([1, 2], dtype=vk.uint16).dtype == np.uint16
    s = vk.asarray(np.float16(3.5))
    assert s.shape == () and s.dtype == np.float16 and s.is_lazy and float(s) == 3.5
    host = np.asarray(vk.asarray(I32_A))
    assert isinstance(host, np.ndarray) and np.array_equal(host, I32_A)
    assert np.asarray(vk.asarray(I32_A), dtype=np.float32).dtype == np.float32
    with pytest.raises(ValueError, match="copy=False"):
        vk.asarray(I32_A).__array__(copy=False)


def test_read_and_write_replicas(ctx2):
    x = vk.asarray(np.zeros((2, 2), np.float32), context=ctx2) + 1  # lazy on both replicas
    assert x.read().shape == (2, 2, 2) and np.all(x.read() == 1)
    x.write(np.full((2, 2), 5, np.float32), 1)
    np.testing.assert_array_equal(x.read(0), np.ones((2, 2)))
    np.testing.assert_array_equal(x.read(1), np.full((2, 2), 5))
    x.write([1, 2, 3, 4])
    np.testing.assert_array_equal(x.get(), [[1, 2], [3, 4]])
    with pytest.raises(IndexError, match="out of range"):
        x.read(2)
    with pytest.raises(TypeError, match="fractions would be cut"):
        vk.zeros(2, vk.int32, context=ctx2).write([0.5, 1.0])


def test_asarray_moves_an_ndarray_to_another_context(ctx1, ctx2):
    x = vk.asarray(I32_A, context=ctx1) * 2
    y = vk.asarray(x, context=ctx2)
    assert y.context is ctx2 and x.context is ctx1
    assert y.read().shape == (2, 2, 3)
    np.testing.assert_array_equal(y.read(1), I32_A * 2)


def test_python_conversions():
    assert float(vk.asarray([2.5])) == 2.5 and int(vk.full((1, 1), 7)) == 7
    assert complex(vk.asarray(1 + 2j)) == 1 + 2j
    assert bool(vk.asarray([3])) is True and bool(vk.zeros(())) is False
    assert vk.asarray(np.float32(1.5)).item() == 1.5
    assert vk.asarray(I32_A).item(4) == 5
    assert [10, 20, 30][vk.asarray(np.int64(1))] == 20  # __index__
    with pytest.raises(ValueError, match="The truth value of an array with more than one "
                                         "element is ambiguous"):
        bool(vk.ones(2))
    with pytest.raises(ValueError, match="truth value of an empty array is ambiguous"):
        bool(vk.ones(0))
    with pytest.raises(TypeError, match="only size-1 arrays"):
        float(vk.ones(3))
    with pytest.raises(ValueError, match="can only convert an array of size 1"):
        vk.ones(3).item()
    assert len(vk.ones((5, 2))) == 5
    with pytest.raises(TypeError, match=r"len\(\) of unsized object"):
        len(vk.ones(()))
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(vk.ones(()))
    assert vk.asarray(I32_A).tolist() == I32_A.tolist()
    assert list(vk.asarray([1.5, 2.5])) == [1.5, 2.5]
    rows = list(vk.asarray(I32_A))
    assert all(isinstance(r, vk.ndarray) for r in rows) and len(rows) == 2
    check(rows[1] * 2, I32_A[1] * 2)
    check(vk.asarray(I32_A.reshape(3, 2)).T, I32_A.reshape(3, 2).T)
