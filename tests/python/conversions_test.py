"""Scalars, conversions and host protocols of vkarray arrays against numpy: promotion with
Python and numpy scalars, float/int/bool/item/tolist/iteration/len, pickling, copy, repr and
str, devices, to_device, DLPack export to numpy and import from numpy."""

import copy
import pickle

import numpy as np
import pytest

import vkarray as vk

# (array dtype, scalar): cases where numpy 1.24's value-based casting and NEP 50 (vkarray's
# rule, numpy 2's) agree, so the result dtype is numpy's.
AGREE = [(np.int8, 1), (np.float32, 2.0), (np.int32, 1.5), (np.float32, 1j), (np.bool_, 1),
         (np.bool_, True), (np.uint16, 7), (np.float16, 0.5), (np.complex64, 2.0),
         (np.float32, np.array([1.0]))]
# Where numpy 1.24 looks at a scalar's value and NEP 50 does not: numpy scalars and 0-d
# arrays are strong (their dtype counts), Python scalars are weak (the array's dtype wins).
NEP50 = [(np.float32, np.float64(2.0), np.float64), (np.int8, np.int64(1), np.int64),
         (np.int8, np.array(1), np.int64), (np.float16, 1e5, np.float16),
         (np.int64, np.uint64(3), np.float64)]


@pytest.mark.parametrize("dtype,scalar", AGREE, ids=repr)
def test_promotion_agreeing_with_numpy(dtype, scalar):
    a = np.arange(3).astype(dtype)
    x = vk.asarray(a)
    for got, want in ((x + scalar, a + scalar), (scalar * x, scalar * a)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("dtype,scalar,result", NEP50, ids=repr)
def test_promotion_follows_nep50(dtype, scalar, result):
    x = vk.asarray(np.ones(3, dtype))
    assert (x + scalar).dtype == result and (scalar + x).dtype == result
    assert vk.result_type(x, scalar) == result


def test_python_integers_out_of_range_raise():
    with pytest.raises(OverflowError, match=r"\[add\] Python integer 300 out of bounds for int8"):
        vk.asarray(np.ones(2, np.int8)) + 300
    with pytest.raises(OverflowError):
        -1 + vk.asarray(np.ones(2, np.uint8))


def test_scalar_conversions():
    x = vk.asarray(np.array([[2.5]], np.float32))
    assert float(x) == 2.5 and int(x) == 2 and bool(x) is True and complex(x) == 2.5
    assert x.item() == 2.5 and type(x.item()) is float
    m = np.arange(6, dtype=np.int16).reshape(2, 3)
    y = vk.asarray(m)
    assert y.item(4) == 4 and y.item((1, 2)) == 5 and y.tolist() == m.tolist()
    assert len(y) == 2 and [r.tolist() for r in y] == m.tolist()
    assert list(vk.asarray(m[0])) == list(m[0])
    assert type(list(vk.asarray(m[0]))[0]) is np.int16
    assert [i for i in range(10)][vk.asarray(np.int64(3))] == 3  # __index__
    with pytest.raises(TypeError, match="only size-1 arrays"):
        float(y)
    with pytest.raises(ValueError, match="truth value of an array with more than one"):
        bool(y)
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        len(vk.asarray(np.float32(1)))
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(vk.asarray(np.float32(1)))
    assert f"{vk.asarray(np.float64(1 / 3)):.4f}" == "0.3333"


@pytest.mark.parametrize("data", [np.arange(7, dtype=np.float32), np.array(3 + 1j),
                                  np.zeros((0, 2), np.uint8), np.arange(1000).reshape(10, 100)])
def test_pickle_and_copy(data):
    x = vk.asarray(data)
    for y in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x)):
        assert isinstance(y, vk.ndarray) and y.dtype == data.dtype
        np.testing.assert_array_equal(y.get(), data)
    c = copy.copy(x)
    if data.size:
        x += 1
        np.testing.assert_array_equal(c.get(), data)  # independent of later updates
    nested = copy.deepcopy({"a": [x, x]})
    assert nested["a"][0] is nested["a"][1]  # the memo keeps shared references shared


@pytest.mark.parametrize("data", [np.array([1.0, 2.0], np.float32), np.arange(3),
                                  np.array(2.5), np.arange(2000.0), np.eye(3, dtype=np.int8),
                                  np.zeros((0, 3), np.complex64)], ids=lambda d: str(d.shape))
def test_repr_is_numpys_with_the_device(data):
    x = vk.asarray(data)
    assert repr(x) == repr(data)[:-1] + ", device='vulkan:0')"
    assert str(x) == str(data)


def test_devices_and_to_device(ctx3):
    x = vk.asarray(np.arange(4.0))
    ds = vk.devices()
    assert isinstance(x.device, vk.Device) and x.device == ds[0] and x.device in ds
    assert str(x.device) == "vulkan:0" and repr(x.device) == "vkarray.Device('vulkan:0')"
    assert x.to_device(x.device) is x and x.to_device(vk.context()) is x
    y = x.to_device(vk.Device(ctx3))
    assert y.context is ctx3 and y.device != x.device and str(y.device) == "vulkan:0,0,0"
    np.testing.assert_array_equal(y.read(), np.stack([np.arange(4.0)] * 3))
    assert hash(x.device) == hash(vk.devices()[0])
    with pytest.raises(ValueError, match=r"\[to_device\] device must be a vkarray.Device"):
        x.to_device("cuda")
    m = vk.asarray(np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(m.mT.get(), np.arange(6).reshape(2, 3).T)


@pytest.mark.parametrize("data", [np.arange(7, dtype=np.float32),
                                  np.array([[1 + 2j, 3]], np.complex128),
                                  np.array(5, np.int16)])  # numpy 1.24 exports no bool
def test_dlpack_roundtrips(data):
    x = vk.asarray(data)
    assert x.__dlpack_device__() == (1, 0)  # a host copy: DLPack's CPU device
    h = np.from_dlpack(x)
    assert isinstance(h, np.ndarray) and h.dtype == data.dtype
    np.testing.assert_array_equal(h, data)
    y = vk.from_dlpack(data)
    assert isinstance(y, vk.ndarray) and y.dtype == data.dtype
    np.testing.assert_array_equal(y.get(), data)
    assert vk.from_dlpack(x) is x
    z = vk.from_dlpack(x, copy=True)
    assert z is not x
    np.testing.assert_array_equal(z.get(), data)


def test_dlpack_refusals():
    x = vk.asarray(np.arange(3))
    with pytest.raises(BufferError, match="copy=False cannot be honored"):
        x.__dlpack__(copy=False)
    with pytest.raises(BufferError, match="copy=False"):
        vk.from_dlpack(np.arange(3), copy=False)
    with pytest.raises(TypeError, match=r"\[from_dlpack\] expected an object with __dlpack__"):
        vk.from_dlpack([1, 2])


def test_dlpack_exports_bool_as_dlpacks_bool_type():
    """numpy 1.24 exports no bool: the bytes go out as uint8 and the capsule says kDLBool."""
    import ctypes
    from vkarray._conversions import _DLTensor

    host = np.array([[True, False, True], [False, False, True]])
    for x, code, bits in [(vk.asarray(host), 6, 8), (vk.asarray(host.astype(np.int16)), 0, 16),
                          (vk.asarray(host.astype(np.float32)), 2, 32)]:
        capsule = x.__dlpack__(copy=True, dl_device=(1, 0))  # owns what t points to
        t = _DLTensor.from_capsule(capsule)
        assert (t.code, t.bits, t.lanes, t.ndim, t.device_type) == (code, bits, 1, 2, 1)
        np.testing.assert_array_equal(
            np.frombuffer(ctypes.string_at(t.data, x.nbytes), x.dtype).reshape(2, 3), host)
    with pytest.raises(BufferError, match=r"copy=False cannot be honored"):
        vk.asarray(host).__dlpack__(copy=False)
