"""ndarray.real and ndarray.imag against numpy's, for complex and real dtypes."""

import numpy as np
import pytest

import vkarray as vk


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32, np.float64,
                                   np.int32, np.bool_])
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 1000)])
def test_real_and_imag_match_numpy(dtype, shape):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dtype)
    x = vk.asarray(a)
    for got, want in ((x.real, a.real), (x.imag, a.imag)):
        got = np.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_real_and_imag_of_views_fuse_into_expressions():
    a = (np.arange(12.0) + 1j * np.arange(12.0)[::-1]).astype(np.complex64).reshape(3, 4)
    x = vk.asarray(a)
    got = np.asarray(x[:, ::2].real * x[:, ::2].imag + 1)
    np.testing.assert_array_equal(got, a[:, ::2].real * a[:, ::2].imag + 1)


def test_real_is_read_only():
    x = vk.asarray(np.ones(3, np.complex64))
    with pytest.raises(AttributeError):
        x.real = 0
