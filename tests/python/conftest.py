"""Shared fixtures for the Python API tests: contexts with 1, 2 and 3 replicas on lavapipe
(several logical devices on one physical device) and one that forces the staging path."""

import numpy as np
import pytest

import vkarray as vk


@pytest.fixture(scope="session")
def ctx1():
    """One replica; host transfers map device memory where the device allows it."""
    return vk.Context(devices=[0])


@pytest.fixture(scope="session")
def ctx2():
    """Two logical devices on physical device 0."""
    return vk.Context(devices=[0, 0])


@pytest.fixture(scope="session")
def ctx3():
    """Three logical devices on physical device 0."""
    return vk.Context(devices=[0, 0, 0])


@pytest.fixture(scope="session")
def ctx_staging():
    """Two replicas whose transfers all go through the pooled staging buffers."""
    return vk.Context(devices=[0, 0], host_access="staging")


@pytest.fixture(params=["ctx1", "ctx3", "ctx_staging"])
def any_ctx(request):
    """Each transfer path and replica count that round-trip tests cover."""
    return request.getfixturevalue(request.param)


@pytest.fixture
def restore_default_context():
    """Put back the process default context that a test replaces."""
    saved = vk.context()
    yield
    vk.set_context(saved)


def assert_same_bits(got, want):
    """Equal shape, dtype and bytes: NaN payloads and the sign of zero count."""
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()
