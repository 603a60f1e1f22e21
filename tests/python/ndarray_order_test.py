"""ndarray.astype, copy and flatten with numpy's order= (C, F, A, K: the result's strides and
values) and astype's casting= and copy=, against numpy."""

import numpy as np
import pytest

import vkarray as vk

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def sources():
    """(numpy array, the same layout on the device): C, F, swapped axes, negative steps and a
    broadcast view."""
    d = vk.asarray(A)
    yield "C", A, d
    yield "F", np.asfortranarray(A), vk.asfortranarray(d)
    yield "swapped", A.transpose(0, 2, 1), d.transpose(0, 2, 1)
    yield "negative", A[::-1, :, ::-2], d[::-1, :, ::-2]
    yield "broadcast", np.broadcast_to(A[:, :1], (2, 3, 4)), vk.broadcast_to(d[:, :1], (2, 3, 4))


@pytest.mark.parametrize("order", ["C", "F", "A", "K", None])
def test_astype_copy_flatten_follow_numpys_order(order):
    for name, x, d in sources():
        want, got = x.astype(np.int16, order=order), d.astype(np.int16, order=order)
        assert got.strides == want.strides, (name, got.strides, want.strides)
        np.testing.assert_array_equal(got.get(), want)
        if order is not None:
            want, got = x.copy(order=order), d.copy(order=order)
            assert got.strides == want.strides, (name, got.strides, want.strides)
            np.testing.assert_array_equal(got.get(), want)
        np.testing.assert_array_equal(d.flatten(order or "C").get(), x.flatten(order or "C"))


def test_astype_copy_false_and_casting():
    c = vk.asarray(A)
    f = vk.asfortranarray(c)
    assert c.astype(np.float32, copy=False) is c
    assert c.astype(np.float32, order="A", copy=False) is c
    assert c.astype(np.float32, order="F", copy=False) is not c
    assert f.astype(np.float32, order="F", copy=False) is f
    assert f.astype(np.float32, order="K", copy=False) is f
    assert c.astype(np.float32) is not c
    assert c.astype(np.float64, casting="safe", subok=False).dtype == np.float64
    for casting in ("safe", "same_kind", "no"):
        with pytest.raises(TypeError, match=rf"\[astype\] Cannot cast array data from "
                                            rf"dtype\('float32'\) to dtype\('int32'\) according "
                                            rf"to the rule '{casting}'"):
            c.astype(np.int32, casting=casting)
    with pytest.raises(ValueError, match=r"\[astype\] order must be one of"):
        c.astype(np.int32, order="X")
    with pytest.raises(ValueError, match=r"\[copy\] order must be one of"):
        c.copy(order="Q")
