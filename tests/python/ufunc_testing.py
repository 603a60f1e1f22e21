"""Helpers of the ufunc tests: exact comparison of a vkarray result with numpy's (dtype, shape,
values; floating values within 32 ulps of the result dtype, normwise)."""

import numpy as np

import vkarray as vk


def same(got, want, rtol=None):
    assert isinstance(got, vk.ndarray), type(got)
    got, want = got.get(), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype,
                                                                 got.shape, want.shape)
    if want.dtype.kind in "fc":
        tol = rtol or 32 * np.finfo(want.dtype).eps
        scale = max(1, np.abs(want[np.isfinite(want)]).max(initial=0))
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale)
    else:
        np.testing.assert_array_equal(got, want)
