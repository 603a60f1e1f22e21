"""Shared fixtures for the Python API tests: contexts with 1, 2 and 3 replicas on lavapipe
(several logical devices on one physical device) and one that forces the staging path; and the
device and host CPU named in every failure report (numpy's answers and lavapipe's code both
depend on the CPU: docs/accuracy.md)."""

import functools
import os

import numpy as np
import pytest

import vkarray as vk


@functools.lru_cache(maxsize=None)
def host_cpu():
    """The CPU model and the SIMD levels that change results: lavapipe's lowering (and
    GALLIUM_OVERRIDE_CPU_CAPS, which caps it) and numpy's dispatch (NPY_DISABLE_CPU_FEATURES)."""
    model, flags = "unknown CPU", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model == "unknown CPU":
                    model = value.strip()
                elif key.strip() == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    simd = ", ".join(f"{f} {'yes' if f in flags else 'no'}" for f in ("avx2", "avx512f"))
    core = np._core if hasattr(np, "_core") else np.core  # numpy 2 renamed it
    numpy_avx512f = core._multiarray_umath.__cpu_features__.get("AVX512F")
    env = "".join(f", {k}={os.environ[k]}" for k in
                  ("GALLIUM_OVERRIDE_CPU_CAPS", "LP_NATIVE_VECTOR_WIDTH",
                   "NPY_DISABLE_CPU_FEATURES") if k in os.environ)
    return f"{model} ({simd}; numpy AVX512F loops {'on' if numpy_avx512f else 'off'}{env})"


def pytest_report_header(config):
    return f"host CPU: {host_cpu()}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    if report.failed:
        try:
            d = vk.context().devices[0]
            device = f"{d['name']}, {d['driver']}"
        except Exception as e:  # the failure may be the device's own
            device = f"unavailable ({e})"
        report.sections.append(("device and host CPU",
                                f"device: {device}\nhost CPU: {host_cpu()}"))


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


@pytest.fixture(autouse=True)
def _recorded_writes_run_between_tests():
    """Writes a test records and never reads (array/write.h, step 3) run after it: kernel
    counts and submissions of the next test are its own."""
    yield
    vk.synchronize()
