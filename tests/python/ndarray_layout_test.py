"""vkarray.ndarray's memory layout against numpy's: the ndarray constructor, assignment to
shape and dtype (in place, a view or numpy's error), view(dtype), strides, base, flags and
setflags, each on contiguous, sliced and transposed arrays."""

import numpy as np
import pytest

import vkarray as vk

DATA = np.arange(24, dtype=np.float64).reshape(4, 6)
VIEWS = {
    "whole": lambda a: a,
    "rows": lambda a: a[1:3],
    "columns": lambda a: a[:, 1:5],
    "stepped": lambda a: a[::2, ::3],
    "transposed": lambda a: a.T,
    "reversed": lambda a: a[::-1],
    "newaxis": lambda a: a[:, None, 2],
}


def test_constructor_allocates_uninitialized_arrays():
    for shape, dtype in [((3, 4), np.float64), (5, np.int32), ((), np.complex64),
                         ((2, 0, 3), np.uint8), ([2, 2], "f4")]:
        x = vk.ndarray(shape, dtype=dtype)
        want = np.ndarray(shape, dtype=dtype)
        assert isinstance(x, vk.ndarray) and type(x) is vk.ndarray
        assert (x.shape, x.dtype, x.strides) == (want.shape, want.dtype, want.strides)
        assert x.base is None
    assert vk.ndarray(3).dtype == np.float64  # numpy's default dtype=float
    x = vk.ndarray((2, 3), strides=(8, 16))
    assert x.strides == np.ndarray((2, 3), strides=(8, 16)).strides
    x[...] = DATA[:2, :3]
    np.testing.assert_array_equal(x.get(), DATA[:2, :3])


def test_constructor_views_a_vkarray_buffer():
    flat = np.arange(12.0)
    buf = vk.asarray(flat)
    for kwargs in [dict(shape=(2, 2), offset=16), dict(shape=(3,), offset=8, strides=(24,)),
                   dict(shape=(2, 3)), dict(shape=(4,), dtype=np.int64, offset=32),
                   dict(shape=(6,), dtype=np.float32, offset=8)]:
        want = np.ndarray(buffer=flat, dtype=kwargs.pop("dtype", np.float64), **kwargs)
        got = vk.ndarray(buffer=buf, dtype=want.dtype, **kwargs)
        np.testing.assert_array_equal(got.get(), want)
        assert got.strides == want.strides and got.base is not None
    view = vk.ndarray((2, 2), buffer=buf, offset=16)
    view[...] = -1.0  # shares the memory, as numpy's view of the buffer does
    expect = flat.copy()
    np.ndarray((2, 2), buffer=expect, offset=16)[...] = -1.0
    np.testing.assert_array_equal(buf.get(), expect)


def test_constructor_copies_host_buffers():
    raw = np.arange(6, dtype=np.int32)
    got = vk.ndarray((2, 2), dtype=np.int32, buffer=raw, offset=4)
    np.testing.assert_array_equal(got.get(), np.ndarray((2, 2), np.int32, raw, 4))
    got[...] = 0
    assert raw.sum() == 15  # a copy: host memory is not device memory
    got = vk.ndarray((2,), dtype=np.float32, buffer=b"\x00\x00\x80?\x00\x00\x00@")
    np.testing.assert_array_equal(got.get(), [1.0, 2.0])


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(shape=(-1,)), ValueError, "negative dimensions are not allowed"),
    (dict(shape=(2,), buffer=[1, 2]), TypeError, "a bytes-like object is required"),
    (dict(shape=(20,), buffer="vk"), TypeError, "buffer is too small"),
    (dict(shape=(2, 3), buffer="vk", strides=(8, 48)), ValueError, "strides is incompatible"),
    (dict(shape=(2,), buffer="vk", offset=200), ValueError, "offset must be non-negative"),
    (dict(shape=(2,), buffer="vk", offset=4), ValueError, "multiple of float64's itemsize 8"),
    (dict(shape=(2,), buffer="vk-stepped"), ValueError, "ndarray is not contiguous"),
    (dict(shape=(2, 2), order="F"), ValueError, "only order='C'"),
])
def test_constructor_errors(kwargs, error, message):
    base = vk.asarray(np.arange(12.0))
    if kwargs.get("buffer") == "vk":
        kwargs["buffer"] = base
    elif kwargs.get("buffer") == "vk-stepped":
        kwargs["buffer"] = base[::2]
    before = base.get()
    with pytest.raises(error, match=message):
        vk.ndarray(**kwargs)
    np.testing.assert_array_equal(base.get(), before)


@pytest.mark.parametrize("view", VIEWS)
def test_strides_flags_and_base_match_numpy(view):
    want = VIEWS[view](DATA.copy())
    got = VIEWS[view](vk.asarray(DATA))
    assert got.strides == want.strides
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED",
                 "WRITEBACKIFCOPY", "FNC", "FORC", "BEHAVED", "CARRAY", "FARRAY"):
        assert got.flags[flag] == want.flags[flag], flag
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.num == want.flags.num
    assert (got.base is None) == (want.base is None)
    assert repr(got.flags) == repr(want.flags)


def test_base_is_the_owner():
    a = vk.asarray(DATA)
    v = a[1:][:, 2:]
    assert a.base is None and isinstance(v.base, vk.ndarray)
    assert v.base.shape == a.shape  # numpy collapses chains of views to the owner
    v.base[0, 0] = 100.0
    assert float(a[0, 0]) == 100.0
    assert (vk.asarray(DATA) + 1).base is None


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("shape", [(-1,), (2, -1), (24,), (4, 1, 6), 24, (3, 8)])
def test_shape_assignment_is_numpys(view, shape):
    want = VIEWS[view](DATA.copy())
    got = VIEWS[view](vk.asarray(DATA))
    alias = got
    try:
        want.shape = shape
    except (AttributeError, ValueError) as e:
        with pytest.raises(type(e), match=str(e).split(".")[0][:40]):
            got.shape = shape
        assert got.shape == VIEWS[view](DATA).shape  # unchanged
        return
    got.shape = shape
    assert alias.shape == want.shape and alias.strides == want.strides
    np.testing.assert_array_equal(alias.get(), want)


def test_shape_assignment_views_without_copying():
    a = vk.zeros(6)
    row = a[2:4]
    a.shape = (2, 3)
    a[1, 0] = 7.0  # element 3 of the same memory
    np.testing.assert_array_equal(row.get(), [0.0, 7.0])
    lazy = vk.arange(6.0) * 2  # an expression: computed once, then viewed
    lazy.shape = (3, 2)
    np.testing.assert_array_equal(lazy.get(), (np.arange(6.0) * 2).reshape(3, 2))
    with pytest.raises(TypeError, match="sequence of integers"):
        a.shape = "x"
    assert a.shape == (2, 3)


def test_dtype_assignment_and_view():
    host = np.arange(8, dtype=np.float32).reshape(2, 4)
    for dtype in (np.int32, np.uint8, np.float64, np.int16, np.complex64, np.float32):
        np.testing.assert_array_equal(vk.asarray(host).view(dtype).get(), host.view(dtype))
        np.testing.assert_array_equal(vk.asarray(host)[:, 2:].view(dtype).get(),
                                      host[:, 2:].view(dtype))
    x = vk.asarray(host)
    y = x
    x.dtype = np.int32
    assert y.dtype == np.int32 and y.shape == (2, 4)
    np.testing.assert_array_equal(y.get(), host.view(np.int32))
    bits = vk.asarray(host).view(np.uint32)
    bits[0, 0] = 0x3F800000  # writes through the view: 1.0f
    z = vk.asarray(host)
    z.view(np.uint32)[0, 1] = 0x40000000
    assert float(z[0, 1]) == 2.0
    assert vk.asarray(host).view().base is not None
    assert vk.asarray(host).view(vk.ndarray).dtype == np.float32


@pytest.mark.parametrize("make,dtype,message", [
    (lambda: vk.asarray(np.float64(2.0)), np.int8, "0d array is only supported"),
    (lambda: vk.asarray(np.arange(6.0).reshape(2, 3)).T, np.int8, "last axis must be contig"),
    (lambda: vk.asarray(np.arange(3, dtype=np.int8)), np.int16, "must be a divisor"),
    (lambda: vk.asarray(np.arange(4, dtype=np.int8))[1:3], np.int16, "multiple of int16"),
])
def test_view_errors(make, dtype, message):
    x = make()
    with pytest.raises(ValueError, match=message):
        x.view(dtype)
    with pytest.raises(ValueError, match=message):
        x.dtype = dtype
    assert x.dtype != np.dtype(dtype)


def test_setflags_write():
    x = vk.asarray(np.arange(4.0))
    x.setflags(write=False)
    assert not x.flags.writeable and not x.flags["W"]
    for write in (lambda: x.__setitem__(0, 1.0), lambda: x.__iadd__(1.0),
                  lambda: vk.add(x, 1, out=x), lambda: x.fill(0)):
        with pytest.raises(ValueError, match="read-only"):
            write()
    np.testing.assert_array_equal(x.get(), np.arange(4.0))
    x.flags.writeable = True
    x[0] = 5.0
    assert float(x[0]) == 5.0
    b = vk.broadcast_to(x, (2, 4))
    with pytest.raises(ValueError, match="WRITEABLE flag to True"):
        b.setflags(write=True)
    with pytest.raises(ValueError, match="always aligned"):
        x.setflags(align=False)
    with pytest.raises(KeyError):
        x.flags["NOPE"]
