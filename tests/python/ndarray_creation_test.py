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


@pytest.mark.parametrize("order", ["C", "F", "c", "f", None])
def test_order_of_new_arrays(order):
    """order='F' arrays hold numpy's values, take assignment, and reshape in C index order
    (their memory order does not show in values)."""
    check(vk.zeros((2, 3), vk.int32, order), np.zeros((2, 3), np.int32, order))
    check(vk.ones((2, 3, 4), order=order), np.ones((2, 3, 4), order=order))
    check(vk.full((3, 2), 7.5, vk.float32, order), np.full((3, 2), 7.5, np.float32, order))
    check(vk.eye(3, 4, 1, vk.int8, order), np.eye(3, 4, 1, np.int8, order))
    for like in (vk.zeros_like, vk.ones_like):
        check(like(vk.asarray(I32_A), None, order or "K"), getattr(np, like.__name__)(
            I32_A, None, order or "K"))
    got, want = vk.empty((2, 3), order=order), np.empty((2, 3), order=order)
    assert got.shape == want.shape
    got[...], want[...] = 1.0, 1.0
    got[0, 1], want[0, 1] = 5.0, 5.0
    check(got, want)
    check(got.reshape(3, 2), want.reshape(3, 2))
    check(vk.ravel(got), np.ravel(want))


@pytest.mark.parametrize("order", ["C", "F", "A", "K", None])
def test_order_of_converted_arrays(order):
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for src in (host, np.asfortranarray(host), host.tolist(), vk.asarray(host)):
        check(vk.asarray(src, None, order), np.asarray(np.asarray(src), None, order))
        check(vk.array(src, order=order), np.array(np.asarray(src), order=order))
        check(vk.asanyarray(src, vk.float64, order), np.asanyarray(np.asarray(src), np.float64,
                                                                   order))
    check(vk.asfortranarray(host), np.asfortranarray(host))
    check(vk.asfortranarray(I32_A, vk.float32), np.asfortranarray(I32_A, np.float32))


def test_order_is_checked_as_numpy():
    for fn in (vk.zeros, vk.empty, vk.ones):
        for bad, text in (("A", "only 'C' or 'F' order"), ("K", "only 'C' or 'F' order"),
                          ("X", "order must be one of")):
            with pytest.raises(ValueError, match=text):
                getattr(np, fn.__name__)(2, order=bad)
            with pytest.raises(ValueError, match=text):
                fn(2, order=bad)
    with pytest.raises(ValueError, match="order must be one of"):
        vk.asarray([1], order="X")
    with pytest.raises(ValueError, match="order='F' needs a copy"):
        vk.asarray(vk.ones((2, 2)), order="F", copy=False)


def test_array_ndmin_and_copy():
    x = vk.asarray(I32_A)
    check(vk.array(x, ndmin=4), np.array(I32_A, ndmin=4))
    check(vk.array(5, ndmin=2), np.array(5, ndmin=2))
    assert vk.array(x, copy=False) is x
    y = vk.array(x)
    assert y is not x
    x[0, 0] = 100
    assert int(y[0, 0]) == I32_A[0, 0]
    check(vk.array(x, vk.float32, copy=False), np.array(x.get(), np.float32))


def test_linspace_retstep_axis_and_array_endpoints():
    for args, kw in [((0, 10, 5), {}), ((0, 10, 0), {"endpoint": False}),
                     ((3, 7, 1), {"endpoint": False}), ((3, 7, 1), {}), ((2.5, -1, 4), {})]:
        got, got_step = vk.linspace(*args, retstep=True, **kw)
        want, want_step = np.linspace(*args, retstep=True, **kw)
        check(got, want)
        np.testing.assert_array_equal(got_step, want_step)  # NaN where there is no interval
    starts, stops = np.array([0, 120], np.int16), np.array([100, 0], np.int16)
    for kw in [{"num": 50, "dtype": np.int32}, {"num": 7, "axis": 1}, {"num": 6, "axis": -1},
               {"num": 1}, {"num": 0}, {"num": 5, "endpoint": False, "dtype": np.float32}]:
        check(vk.linspace(vk.asarray(starts), vk.asarray(stops), **kw),
              np.linspace(starts, stops, **kw))
    got, got_step = vk.linspace(vk.asarray(starts), 1.0, 4, retstep=True)
    want, want_step = np.linspace(starts, 1.0, 4, retstep=True)
    check(got, want)
    check(got_step, want_step)
    check(vk.linspace(vk.asarray(np.array([1.0, 1.0])), [1.0, 2.0], 3),
          np.linspace([1.0, 1.0], [1.0, 2.0], 3))  # a zero step: numpy's other formula


def test_arange_of_complex_and_bool_dtypes():
    """numpy fills a complex arange with the real sequence, and a bool one of at most 2
    values with the integer sequence cast."""
    for args in [(5,), (0.5, 3, 0.25), (10, 0, -3), (0,)]:
        for dt in (np.complex64, np.complex128):
            check(vk.arange(*args, dtype=dt), np.arange(*args, dtype=dt))
    for args in [(0, 2), (1, 2), (0,), (2, 0, -1)]:
        check(vk.arange(*args, dtype=bool), np.arange(*args, dtype=bool))
    with pytest.raises(TypeError, match="at most length 2"):
        np.arange(3, dtype=bool)
    with pytest.raises(TypeError, match="at most length 2"):
        vk.arange(3, dtype=bool)


def test_a_fortran_ordered_host_array_uploads_without_a_kernel():
    """Its transpose is C-contiguous: uploaded as it is and seen transposed (a view)."""
    host = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    before = vk.kernel_count()
    x = vk.asarray(host)
    vk.eval(x)
    assert vk.kernel_count() == before
    check(x, host)
    check(x.reshape(4, 3), host.reshape(4, 3))


def test_linspace_of_bool_dtype_casts_the_float_values():
    for args in [(0, 10, 5), (-1, 1, 3), (0, 0, 2)]:
        check(vk.linspace(*args, dtype=bool), np.linspace(*args, dtype=bool))


def test_linspace_of_complex_endpoints():
    for a, b, dt in [(1 + 2j, 3 - 1j, None), (0, 1j, np.complex64), (1 + 1j, 5, np.complex128)]:
        check(vk.linspace(a, b, 7, dtype=dt), np.linspace(a, b, 7, dtype=dt))
    got, step = vk.linspace(0, 2 + 2j, 5, retstep=True)
    want, want_step = np.linspace(0, 2 + 2j, 5, retstep=True)
    check(got, want)
    assert complex(step.get() if isinstance(step, vk.ndarray) else step) == want_step
