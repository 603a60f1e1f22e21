"""Copies between replicas on different logical devices, from Python: both paths (one host
allocation imported into both devices, or pinned memory of each and a host copy) through
vkarray.replicas.broadcast / gather / all_reduce and plain reads, for every dtype, sizes that
span several chunks, empty arrays and views at unaligned offsets, against numpy; the counters
show the path taken; vkarray.replicas.paths() and copy_options().

Contexts are two logical devices: physical devices 0 and 1 where the machine has two (or
VKA_TEST_DEVICES=0,1 names them), else physical device 0 twice (lavapipe).
"""

import functools
import os
import subprocess
import sys

import numpy as np
import pytest

import vkarray as vk

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
OPS = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}
CHUNK = 16 << 10  # small chunks: a few hundred KiB use every slot several times


def physical_devices():
    env = os.environ.get("VKA_TEST_DEVICES")
    if env:
        return [int(i) for i in env.split(",")]
    return [d["index"] for d in vk.list_devices()]


@pytest.fixture(scope="module")
def ctx():
    phys = physical_devices()
    return vk.Context(devices=[phys[0], phys[1 % len(phys)]])


@pytest.fixture(params=[True, False], ids=["shared", "staged"])
def path(request, ctx):
    """Sets small chunks and the path for one test; returns the copy_stats key it counts."""
    old = vk.replicas.copy_options(chunk_bytes=CHUNK, slots=3, shared_host=request.param)
    importing = all(p["external_memory_host"] for p in vk.replicas.paths(ctx))
    yield "shared_host" if request.param and importing else "staged_host"
    vk.replicas.copy_options(**old)


def random_values(dtype, n, rng):
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.startswith("complex"):
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    if dtype.startswith("float"):
        return rng.standard_normal(n).astype(dtype) * 4
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True).astype(dtype)


def two_values(ctx, dtype, n, seed):
    rng = np.random.default_rng(seed)
    values = [random_values(dtype, n, rng) for _ in range(2)]
    x = vk.asarray(values[0], context=ctx)
    x.write(values[1], 1)
    return x, values


def chunks(nbytes):
    return -(-nbytes // CHUNK)


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_and_size(ctx, path, dtype):
    itemsize = np.dtype(dtype).itemsize
    # 70001 elements: not a multiple of the chunk, several chunks for every itemsize
    for n in (1, 7, 1000, 70001):
        x, values = two_values(ctx, dtype, n, n + itemsize)
        other = "staged_host" if path == "shared_host" else "shared_host"
        c0 = vk.replicas.copy_stats()
        b = vk.replicas.broadcast(x, src=1)
        np.testing.assert_array_equal(b.read(), [values[1]] * 2)  # replica 0 copies from 1
        g = vk.replicas.gather(x)
        np.testing.assert_array_equal(g.read(1), values)  # replica 1 copies from 0
        c1 = vk.replicas.copy_stats()
        assert c1[path] - c0[path] == 3 and c1["host"] - c0["host"] == 3
        assert c1["host_chunks"] - c0["host_chunks"] == 2 * chunks(n * itemsize) + chunks(
            2 * n * itemsize)
        for op, ufunc in OPS.items():
            with np.errstate(all="ignore"):
                want = functools.reduce(lambda a, b: ufunc(a, b).astype(dtype), values)
            got = vk.replicas.all_reduce(x, op)
            assert got.dtype == np.dtype(dtype)
            np.testing.assert_array_equal(got.read(), [want] * 2, err_msg=f"{op} n={n}")
        assert vk.replicas.copy_stats()[other] == c0[other]


def test_large_and_multi_level_sizes(ctx, path):
    for n in (1000003,):
        x, values = two_values(ctx, "float32", n, 3)
        c0 = vk.replicas.copy_stats()
        s = vk.replicas.all_reduce(x * 2, "sum")
        np.testing.assert_array_equal(s.read(), [values[0] * 2 + values[1] * 2] * 2)
        c1 = vk.replicas.copy_stats()
        assert c1[path] - c0[path] == 2
        assert c1["host_chunks"] - c0["host_chunks"] == 2 * chunks(4 * n)


def test_empty_arrays(ctx, path):
    c0 = vk.replicas.copy_stats()
    for dtype in ("uint8", "complex128"):
        x = vk.zeros((0, 3), dtype=dtype, context=ctx)
        assert vk.replicas.broadcast(x, src=1).read().shape == (2, 0, 3)
        assert vk.replicas.gather(x).read(1).shape == (2, 0, 3)
        assert vk.replicas.all_reduce(x, "sum").read(1).shape == (0, 3)
    assert vk.replicas.copy_stats()["host"] == c0["host"]


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "complex128"])
def test_views_at_unaligned_offsets(ctx, path, dtype):
    n = 50001
    x, values = two_values(ctx, dtype, n, 11)
    for key in (np.s_[3:], np.s_[5:-7], np.s_[1::3], np.s_[::-2]):
        v = x[key]
        want = [values[0][key], values[1][key]]
        np.testing.assert_array_equal(vk.replicas.broadcast(v, src=1).read(), [want[1]] * 2)
        np.testing.assert_array_equal(vk.replicas.gather(v).read(1), want)
    m = x[1:].reshape(2, 25000)[:, 3:]  # 2-d, strided rows, offset by 4 elements
    with np.errstate(all="ignore"):
        want = np.add(values[0][1:].reshape(2, 25000)[:, 3:],
                      values[1][1:].reshape(2, 25000)[:, 3:]).astype(dtype)
    np.testing.assert_array_equal(vk.replicas.all_reduce(m, "sum").read(), [want] * 2)


def test_paths_and_options(ctx):
    ps = vk.replicas.paths(ctx)
    assert [p["devices"] for p in ps] == [(0, 1), (1, 0)]
    for p in ps:
        assert set(p) == {"devices", "path", "external_memory_host", "device_group", "same_uuid"}
        assert p["path"].startswith("device to device through ")
    if physical_devices()[0] == physical_devices()[1 % len(physical_devices())]:
        assert all(p["same_uuid"] for p in ps)
    old = vk.replicas.copy_options(shared_host=False)
    try:
        assert all("host copy" in p["path"] for p in vk.replicas.paths(ctx))
        assert vk.replicas.copy_options() == dict(old, shared_host=False)
        with pytest.raises(ValueError, match=r"slots in \[2, 16\], got chunk_bytes=\d+ and "
                                             r"slots=17"):
            vk.replicas.copy_options(slots=17)
        with pytest.raises(ValueError, match=r"\[replicas.copy_options\] chunk_bytes must be "
                                             r"positive, got 0"):
            vk.replicas.copy_options(chunk_bytes=0)
        with pytest.raises(TypeError, match=r"slots must be an int, got float"):
            vk.replicas.copy_options(slots=2.0)
        assert vk.replicas.copy_options() == dict(old, shared_host=False)  # unchanged
    finally:
        vk.replicas.copy_options(**old)
    assert vk.replicas.copy_options() == old


SCRIPT = """
import numpy as np, vkarray as vk
c = vk.Context(devices=[0, 0])
vk.replicas.copy_options(chunk_bytes=1000, shared_host={shared})
x = vk.asarray(np.arange(1000.0), context=c)
vk.replicas.broadcast(x, src=1).read()
"""


@pytest.mark.parametrize("shared", [True, False])
def test_debug_reports_path_and_chunks(shared):
    env = dict(os.environ, VKA_DEBUG="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(shared=shared)], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    name = ("shared pinned host memory (VK_EXT_external_memory_host)" if shared and all(
        p["external_memory_host"] for p in vk.replicas.paths(vk.Context(devices=[0, 0])))
        else "pinned host memory of each device and a host copy")
    assert (f"[vkarray] replicas: 8000 bytes from replica 1 to replica 0: device to device "
            f"through {name} (8 chunk(s) of up to 1000 bytes)") in out.stderr, out.stderr
