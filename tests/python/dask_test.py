"""vkarray.dask: dask.array with vkarray chunks, against numpy. The threaded scheduler runs
each operation (elementwise chains, reductions, matmul, slicing, concatenate, rechunk, meta
detection, fusion inside a chunk, placement over several contexts); a LocalCluster of two
worker processes (each binding its own vkarray context) runs the same pipeline; vkarray
arrays pickle and serialize for dask.distributed as one host frame."""

import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import vkarray as vk

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")
vkd = pytest.importorskip("vkarray.dask")


@pytest.fixture(autouse=True)
def threaded():
    with dask.config.set(scheduler="threads", num_workers=3):
        yield


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(10)
    return {
        "x": rng.standard_normal((300, 257)),
        "y": rng.standard_normal((300, 257)),
        "w": rng.standard_normal((257, 41)),
        "i": rng.integers(-1000, 1000, size=1000003, dtype=np.int32),
    }


def chunks_of(d):
    """The computed chunks of dask array d, in block order."""
    return [c for c in dask.compute(*d.to_delayed().ravel())]


def check(result, expected, exact=False, rtol=1e-12):
    """result: a vkarray array equal to expected (exact), or within rtol: float64 sums and
    products in another order round differently, by a few ulps of the largest terms."""
    assert isinstance(result, vk.ndarray), type(result)
    got = result.get()
    assert got.shape == np.shape(expected)
    assert got.dtype == np.asarray(expected).dtype
    if exact:
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)


def test_import_vkarray_alone_does_not_import_dask():
    code = "import sys, vkarray; assert 'dask' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, env=os.environ.copy())


def test_meta_is_vkarray(data):
    x = data["x"]
    for d in [vkd.from_numpy(x, chunks=(128, 100)),
              da.from_array(vk.asarray(x), chunks=(128, 100), asarray=False),
              da.from_array(x, chunks=(128, 100)).map_blocks(vk.asarray)]:
        assert isinstance(d._meta, vk.ndarray) and d._meta.shape == (0, 0)
        assert d.dtype == np.float64
        assert isinstance(da.utils.meta_from_array(d), vk.ndarray)
        assert all(isinstance(c, vk.ndarray) for c in chunks_of(d))
        check(d.compute(), x, exact=True)


def test_from_numpy_chunks_and_sizes():
    for n, chunks in [(1, 1), (7, 3), (1000, 256), (1000003, 250000)]:
        a = np.arange(n, dtype=np.float32) * 0.5
        d = vkd.from_numpy(a, chunks=chunks)
        check(d.compute(), a, exact=True)
    check(vkd.from_numpy(np.float64(2.5)).compute(), np.float64(2.5), exact=True)
    check(vkd.from_numpy(np.zeros((0, 3), np.int16), chunks=2).compute(),
          np.zeros((0, 3), np.int16), exact=True)


def test_elementwise_chain(data):
    x, y = data["x"], data["y"]
    xd, yd = vkd.from_numpy(x, chunks=(128, 100)), vkd.from_numpy(y, chunks=(128, 100))
    check(((xd * 2 + yd) ** 2 - da.sin(xd) / (1.5 + da.exp(yd))).compute(),
          (x * 2 + y) ** 2 - np.sin(x) / (1.5 + np.exp(y)))
    check(da.where(xd > yd, xd, -yd).compute(), np.where(x > y, x, -y), exact=True)
    f = xd.astype(np.float32)
    check((f * f + 1).compute(), (x.astype(np.float32) ** 2 + 1), rtol=2e-7)


def test_mixed_operands(data):
    x, y = data["x"], data["y"]
    xd = vkd.from_numpy(x, chunks=(128, 100))
    row = vk.asarray(y[0])
    for expr, want in [(xd + row, x + y[0]), (row * xd, y[0] * x), (np.subtract(xd, row), x - y[0]),
                       (xd * da.from_array(y, chunks=(128, 100)), x * y)]:
        assert isinstance(expr, da.Array) and isinstance(expr._meta, vk.ndarray)
        check(expr.compute(), want, exact=True)


def test_reductions_tree(data):
    x = data["x"]
    xd = vkd.from_numpy(x, chunks=(64, 50))
    for name in ["sum", "mean", "std", "var", "max", "min"]:
        for axis in [None, 0, 1, (0, 1)]:
            got = getattr(xd, name)(axis=axis, split_every=2).compute()
            want = getattr(x, name)(axis=axis)
            # Sums in a different (tree) order: float64 rounding, not a tolerance for error.
            np.testing.assert_allclose(np.asarray(got.get()), want, rtol=1e-11, atol=1e-300,
                                       err_msg=f"{name} axis={axis}")
            assert isinstance(got, vk.ndarray)
    check(xd.std(axis=0, ddof=1, split_every=3).compute(), x.std(axis=0, ddof=1))
    i = data["i"]
    idd = vkd.from_numpy(i, chunks=99991)
    check(idd.sum(split_every=4).compute(), i.sum(), exact=True)
    check(idd.max().compute(), i.max(), exact=True)
    check(da.mean(idd).compute(), i.mean())


def test_percentile_merges_like_numpy_chunks(data):
    # dask's percentile is approximate (it merges the chunks' percentiles): vkarray chunks
    # must give what numpy chunks give. (q of 0 or 100 duplicates dask's own padding of q,
    # and dask's merge then depends on how its argsort orders ties: numpy's is unstable,
    # vkarray's stable.)
    a = data["x"].ravel()[:1000]
    q = [1, 10, 50, 90, 99.5]
    got = da.percentile(vkd.from_numpy(a, chunks=300), q).compute()
    want = da.percentile(da.from_array(a, chunks=300), q).compute()
    check(got, want, rtol=1e-14)


def test_slicing_rechunk_concatenate(data):
    x, y = data["x"], data["y"]
    xd, yd = vkd.from_numpy(x, chunks=(128, 100)), vkd.from_numpy(y, chunks=(70, 257))
    check(xd[5:250:3, ::-1].compute(), x[5:250:3, ::-1], exact=True)
    check(xd[130].compute(), x[130], exact=True)
    check(xd[:, 99:101].compute(), x[:, 99:101], exact=True)
    check(xd.T[::7].compute(), x.T[::7], exact=True)
    check(xd.rechunk((50, 257)).compute(), x, exact=True)
    check(xd.rechunk((1, 300)).rechunk(300).compute(), x, exact=True)
    check(da.concatenate([xd, yd], axis=0).compute(), np.concatenate([x, y], 0), exact=True)
    check(da.concatenate([xd, yd[:, :10]], axis=1).compute(),
          np.concatenate([x, y[:, :10]], 1), exact=True)
    check(da.stack([xd, yd]).compute(), np.stack([x, y]), exact=True)


def test_matmul_tensordot(data):
    x, y, w = data["x"], data["y"], data["w"]
    xd, wd = vkd.from_numpy(x, chunks=(128, 100)), vkd.from_numpy(w, chunks=(100, 20))
    yd = vkd.from_numpy(y, chunks=(128, 100))
    check((xd @ wd).compute(), x @ w)
    check(da.tensordot(xd, yd, axes=([0], [0])).compute(), np.tensordot(x, y, axes=([0], [0])))
    check(da.dot(xd, wd).compute(), x @ w)
    check(da.einsum("ij,ij->j", xd, yd).compute(), np.einsum("ij,ij->j", x, y))


def test_fusion_inside_a_chunk():
    a = np.linspace(-1, 1, 1000, dtype=np.float32)
    d = vkd.from_numpy(a, chunks=1000)
    for expr in [d.map_blocks(lambda b: (b * 2 + 1) * b - 3), (d * 2 + 1) * d - 3]:
        r = expr.compute()
        assert r.is_lazy
        before = vk.kernel_count()
        r.eval()
        assert vk.kernel_count() - before == 1
        np.testing.assert_array_equal(r.get(), (a * 2 + 1) * a - 3)


def test_compute_as_numpy(data):
    x = data["x"]
    xd = vkd.from_numpy(x, chunks=(128, 100))
    total, arr = vkd.compute(xd.sum(), xd[::2], as_numpy=True)
    assert isinstance(total, np.ndarray) and isinstance(arr, np.ndarray)
    np.testing.assert_allclose(total, x.sum(), rtol=1e-12)
    np.testing.assert_array_equal(arr, x[::2])
    (r,) = vkd.compute(xd[::2])
    check(r, x[::2], exact=True)
    n = vkd.to_numpy(xd)
    assert type(n._meta) is np.ndarray
    np.testing.assert_array_equal(n.compute(), x)


def test_placement_round_robin_over_contexts(data):
    x, w = data["x"], data["w"]
    contexts = [vk.Context(devices=[0]), vk.Context(devices=[0])]
    xd = vkd.from_numpy(x, chunks=(100, 100), devices=[contexts[0], vk.Device(contexts[1])])
    placed = chunks_of(xd)
    assert len(placed) == 9
    for k, c in enumerate(placed):
        assert c.context is contexts[k % 2]
    # Combining chunks of different contexts moves them to the first one's.
    check(xd.sum(axis=0).compute(), x.sum(axis=0))
    check(xd.rechunk((300, 50)).compute(), x, exact=True)
    check(da.tensordot(xd, xd, axes=([0], [0])).compute(), np.tensordot(x, x, ([0], [0])))
    # Blockwise operations between chunks on different contexts raise, as vkarray's do.
    other = vkd.from_numpy(x, chunks=(100, 100), devices=contexts[::-1])
    with pytest.raises(ValueError, match=r"different contexts"):
        (xd + other).compute()
    # Device indices: one context per device and process.
    d0 = vkd.from_numpy(x, chunks=(150, 257), devices=[0])
    assert all(c.context is vkd.device_context(0) for c in chunks_of(d0))
    check(vkd.from_vkarray(vk.asarray(x), chunks=(64, 64), devices="all").compute(), x,
          exact=True)


def test_placement_errors(data):
    x = data["x"]
    with pytest.raises(IndexError, match=r"\[from_numpy\] device 99 is out of range"):
        vkd.from_numpy(x, devices=[0, 99])
    with pytest.raises(ValueError, match=r"\[from_numpy\] devices is an empty list"):
        vkd.from_numpy(x, devices=[])
    with pytest.raises(ValueError, match=r"devices must be None, 'all'"):
        vkd.from_numpy(x, devices="some")
    with pytest.raises(TypeError, match=r"\[from_numpy\] devices holds 1.5: expected device"):
        vkd.from_numpy(x, devices=[0, 1.5])
    with pytest.raises(TypeError, match=r"\[from_vkarray\] expected a vkarray.ndarray"):
        vkd.from_vkarray(x)
    with pytest.raises(TypeError, match=r"\[to_numpy\] expected a dask.array.Array"):
        vkd.to_numpy(x)
    with pytest.raises(TypeError, match=r"\[empty\] dtype <U1 is not supported"):
        vkd.from_numpy(np.array(["a", "b"]))


DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.uint64, np.float16, np.float32,
          np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
def test_pickle_round_trip(dtype):
    rng = np.random.default_rng(3)
    for shape in [(), (0,), (7,), (3, 5)]:
        h = (rng.standard_normal(shape) * 50).astype(dtype)
        a = vk.asarray(h) + 0 if dtype is not np.bool_ else vk.asarray(h)  # a lazy one too
        back = pickle.loads(pickle.dumps(a, protocol=5))
        assert isinstance(back, vk.ndarray)
        assert back.dtype == h.dtype and back.shape == h.shape
        np.testing.assert_array_equal(back.get(), h)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
def test_distributed_serialization_one_frame(dtype):
    protocol = pytest.importorskip("distributed.protocol")
    h = (np.arange(60).reshape(3, 4, 5) - 7).astype(dtype)
    a = vk.asarray(h)
    header, frames = protocol.serialize(a, serializers=("dask",))
    assert header["serializer"] == "dask"
    assert len(frames) == 1 and isinstance(frames[0], memoryview)
    assert frames[0].nbytes == h.nbytes
    back = protocol.deserialize(header, frames)
    assert isinstance(back, vk.ndarray) and back.dtype == h.dtype
    np.testing.assert_array_equal(back.get(), h)
    # The memoryview is the downloaded buffer itself: no copy between download and wire.
    assert frames[0].obj is not None and not frames[0].readonly


def test_bind_worker_from_env_and_name(monkeypatch):
    from vkarray import _dask_distributed as dd

    class Worker:
        name = "3"

    monkeypatch.delenv(vkd.DEVICE_ENV, raising=False)
    assert dd.worker_device_index(Worker()) == 3
    Worker.name = "tcp://somewhere"
    assert dd.worker_device_index(Worker()) is None
    monkeypatch.setenv(vkd.DEVICE_ENV, "2")
    assert dd.worker_device_index(Worker()) == 2
    monkeypatch.setenv(vkd.DEVICE_ENV, "gpu")
    with pytest.raises(ValueError, match=r"VKA_DASK_DEVICE='gpu' is not a device index"):
        dd.worker_device_index(Worker())


def test_bind_worker_makes_the_default_context(monkeypatch):
    from vkarray import _dask_distributed as dd

    class Worker:
        name = 1

    monkeypatch.delenv(vkd.DEVICE_ENV, raising=False)
    before = vk.context()
    try:
        assert dd.bind_worker(Worker(), devices=[0]) == 0  # index 1 cycles over [0]
        assert vk.context() is not before
        assert [r.physical_device for r in vk.context().replicas] == [0]
        Worker.name = "scheduler-side name"
        bound = vk.context()
        assert dd.bind_worker(Worker()) is None and vk.context() is bound
        with pytest.raises(ValueError, match=r"\[DevicePlugin\] devices is an empty list"):
            dd.bind_worker(type("W", (), {"name": 0})(), devices=[])
    finally:
        vk.set_context(before)


def test_plugin_starts_finished_chunks_on_the_device():
    # A task's vkarray result is evaluated and submitted when it reaches the worker's memory,
    # so each worker's GPU starts at once rather than when the value is asked for.
    from vkarray import _dask_distributed as dd

    plugin = dd.DevicePlugin()
    x = vk.asarray(np.arange(1000, dtype=np.float32))
    y = x * 2 + 1
    plugin.worker = type("W", (), {"data": {"k": y, "other": 3}})()
    assert y.is_lazy
    before = vk.replicas.stream_stats()[0]["submits"]
    plugin.transition("other", "executing", "memory")  # not an array: nothing to do
    plugin.transition("k", "executing", "released")  # not a result in memory
    assert y.is_lazy and vk.replicas.stream_stats()[0]["submits"] == before
    plugin.transition("k", "executing", "memory")
    assert not y.is_lazy and vk.replicas.stream_stats()[0]["submits"] > before
    np.testing.assert_array_equal(np.asarray(y), np.arange(1000, dtype=np.float32) * 2 + 1)


def pipeline(x, y, w):
    """The chunked pipeline both schedulers run: its dask results and numpy's."""
    xd, yd = vkd.from_numpy(x, chunks=(100, 90)), vkd.from_numpy(y, chunks=(100, 90))
    wd = vkd.from_numpy(w, chunks=(90, 41))
    z = (xd * 2 + yd) * xd - da.sin(yd)
    zn = (x * 2 + y) * x - np.sin(y)
    exprs = [z, z.sum(split_every=2), z.mean(axis=0), xd.std(), xd @ wd, z[5:250:3, ::-1],
             da.concatenate([xd, yd], axis=1), z.rechunk((300, 40)),
             vkd.from_vkarray(vk.asarray(w), chunks=(100, 41)).sum(axis=0)]
    wants = [zn, zn.sum(), zn.mean(axis=0), x.std(), x @ w, zn[5:250:3, ::-1],
             np.concatenate([x, y], 1), zn, w.sum(axis=0)]
    return exprs, wants


def test_threaded_pipeline(data):
    exprs, wants = pipeline(data["x"], data["y"], data["w"])
    for got, want in zip(dask.compute(*exprs), wants):
        check(got, want)


def test_local_cluster_pipeline(data):
    distributed = pytest.importorskip("distributed")
    # Spawned workers import vkarray from PYTHONPATH: the test's own path reaches them.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(vk.__file__))]
        + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        register = getattr(client, "register_plugin", None) or client.register_worker_plugin
        register(vkd.DevicePlugin())

        def bound(dask_worker):
            return dask_worker.vkarray_device, vk.context().num_replicas

        assert sorted(client.run(bound).values()) == [(0, 1), (0, 1)]
        exprs, wants = pipeline(data["x"], data["y"], data["w"])
        with distributed.get_task_stream(client) as stream:
            results = dask.compute(*exprs)
        for got, want in zip(results, wants):
            check(got, want)
        assert len({task["worker"] for task in stream.data}) == 2  # both workers ran tasks
        (total,) = vkd.compute(exprs[1], as_numpy=True)
        assert isinstance(total, np.ndarray)
        np.testing.assert_allclose(total, wants[1], rtol=1e-12)
