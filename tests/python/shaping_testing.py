"""Helpers of the joining, reordering and grid tests: seeded samples, exact comparison with
numpy's results, numpy's exception types, kernel counts."""

import numpy as np
import pytest

import vkarray as vk

RNG = np.random.default_rng(1234)
DTYPES = ["float32", "int32", "bool", "complex64"]


def sample(shape, dtype):
    """Seeded data of this shape and dtype (distinct values where the dtype allows)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return RNG.integers(0, 2, shape).astype(bool)
    values = RNG.integers(-50, 50, shape)
    if dtype.kind == "c":
        return (values + 1j * RNG.integers(-50, 50, shape)).astype(dtype)
    return values.astype(dtype)


def check(got, want):
    """got (an ndarray, or a list/tuple of them) equals want in dtype, shape and values."""
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w)
        return
    want = np.asarray(want)
    assert isinstance(got, vk.ndarray), type(got)
    host = got.get()
    assert host.dtype == want.dtype, (host.dtype, want.dtype)
    assert host.shape == want.shape, (host.shape, want.shape)
    np.testing.assert_array_equal(host, want)


def same_error(np_call, vk_call):
    """vk_call raises the exception type that np_call raises (numpy's AxisError included)."""
    with pytest.raises(Exception) as np_err:
        np_call()
    with pytest.raises(type(np_err.value)):
        vk_call()


def kernels(fn):
    """The number of kernels fn() dispatches, its result (arrays or a tuple) evaluated."""
    k0 = vk.kernel_count()
    result = fn()
    if isinstance(result, (list, tuple)):
        vk.eval(*result)
    elif isinstance(result, vk.ndarray):
        result.eval()
    return vk.kernel_count() - k0


def device(data):
    """data uploaded and evaluated, so that views of it cost no kernel."""
    x = vk.asarray(data)
    x.eval()
    return x
