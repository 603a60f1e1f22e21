"""as_strided and sliding_window_view (numpy.lib.stride_tricks) against numpy: values and
shapes of views of C-ordered arrays, strided views and 0-d arrays, read-only windows, and the
errors."""

import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided as np_as_strided
from numpy.lib.stride_tricks import sliding_window_view as np_sliding_window_view

import vkarray as vk

A = np.arange(24.0).reshape(4, 6)


@pytest.mark.parametrize("window, axis", [((3,), 1), ((2, 2), None), ((2, 3), (0, 1)),
                                          ((2,), -1), ((2, 2), (1, 1)), ((3, 1), None)])
def test_sliding_window_view(window, axis):
    for x, d in [(A, vk.asarray(A)), (A[1:, ::2], vk.asarray(A)[1:, ::2])]:
        if axis is None and len(window) != x.ndim:
            continue
        want = np_sliding_window_view(x, window, axis)
        got = vk.sliding_window_view(d, window, axis)
        assert got.shape == want.shape and got.strides == want.strides
        np.testing.assert_array_equal(got.get(), want)


def test_as_strided_and_windows_share_memory():
    d = vk.asarray(A)
    for x, y in [(A, d), (A[1:], d[1:])]:
        np.testing.assert_array_equal(vk.as_strided(y, (3, 3), (8, 8)).get(),
                                      np_as_strided(x, (3, 3), (8, 8)))
    w = vk.sliding_window_view(d, 3, axis=1, writeable=True)
    w[0, 0, 0] = -1.0
    assert float(d[0, 0]) == -1.0
    np.testing.assert_array_equal(vk.sliding_window_view(vk.asarray(np.float32(3)), ()).get(),
                                  np.float32(3))
    np.testing.assert_array_equal(vk.sliding_window_view([1, 2, 3], 2).get(), [[1, 2], [2, 3]])


def test_errors():
    d = vk.asarray(A)
    with pytest.raises(ValueError, match=r"read-only"):
        vk.sliding_window_view(d, (2, 2))[0, 0] = 1.0
    with pytest.raises(ValueError, match=r"\[as_strided\] a view of shape \(100,\)"):
        vk.as_strided(d, (100,), (8,))
    with pytest.raises(ValueError, match=r"window shape cannot be larger"):
        vk.sliding_window_view(d, (5, 1))
    with pytest.raises(ValueError, match=r"must provide window_shape for all dimensions"):
        vk.sliding_window_view(d, (2,))
    with pytest.raises(ValueError, match=r"matching length window_shape and axis"):
        vk.sliding_window_view(d, (2,), axis=(0, 1))
    with pytest.raises(ValueError, match=r"cannot contain negative values"):
        vk.sliding_window_view(d, (-1, 2))
