"""Replicas from Python: per-replica evaluation and validity, scopes, reads and writes of one
replica or all, vkarray.replicas.broadcast/gather/all_reduce against numpy, the copy paths, and
the queues' concurrency.

Contexts use 2 and 3 logical devices: distinct physical devices where the machine has them
(two GPUs: devices=[0, 1]), else physical device 0 listed several times (lavapipe). Set
VKA_TEST_DEVICES=0,1 to name the physical devices to cycle through.
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


def physical_devices():
    env = os.environ.get("VKA_TEST_DEVICES")
    if env:
        return [int(i) for i in env.split(",")]
    return [d["index"] for d in vk.list_devices()]


def make_context(n, **kw):
    phys = physical_devices()
    return vk.Context(devices=[phys[i % len(phys)] for i in range(n)], **kw)


@pytest.fixture(scope="module", params=[2, 3], ids=["2dev", "3dev"])
def ctx(request):
    return make_context(request.param)


@pytest.fixture(scope="module")
def staging3():
    return make_context(3, host_access="staging")


def dispatches(c):
    return [s["dispatches"] for s in vk.replicas.stream_stats(c)]


def per_replica(c, base):
    """An array whose replica r holds base + 10 r."""
    base = np.asarray(base)
    x = vk.asarray(base, context=c)
    for r in range(1, c.num_replicas):
        x.write((base + 10 * r).astype(base.dtype), r)
    return x


def random_values(dtype, n, rng):
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.startswith("complex"):
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    if dtype.startswith("float"):
        return rng.standard_normal(n).astype(dtype) * 4
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), n, endpoint=True).astype(dtype)


@pytest.mark.parametrize("n", [1, 7, 1000, 1000003])
def test_expressions_run_on_every_replica_on_its_own_data(ctx, n):
    base = np.arange(n, dtype=np.float32) % 97
    x = per_replica(ctx, base)
    y = x * 2 + 1
    got = y.read()
    assert got.shape == (ctx.num_replicas, n)
    for r in range(ctx.num_replicas):
        np.testing.assert_array_equal(got[r], (base + 10 * r) * 2 + 1)
        np.testing.assert_array_equal(y.read(r), got[r])


def test_eval_on_one_replica_computes_the_others_when_needed(ctx):
    base = np.arange(1000, dtype=np.int32)
    x = per_replica(ctx, base)
    y = (x * 3).sum()
    last = ctx.num_replicas - 1
    d0 = dispatches(ctx)
    assert y.eval(index=last) is y
    d1 = dispatches(ctx)
    assert [b - a for a, b in zip(d0, d1)][:last] == [0] * last and d1[last] > d0[last]
    assert y.read(last) == 3 * (base + 10 * last).sum()
    assert dispatches(ctx) == d1  # already there
    assert y.read(0) == 3 * base.sum()  # computed on replica 0 now, not garbage
    d2 = dispatches(ctx)
    assert d2[0] > d1[0] and d2[1:] == d1[1:]
    np.testing.assert_array_equal(
        y.read(), [3 * (base + 10 * r).sum() for r in range(ctx.num_replicas)])
    d3 = dispatches(ctx)
    y.read()
    assert dispatches(ctx) == d3  # every replica holds its value: nothing recomputed


def test_vk_eval_index_and_errors(ctx):
    x = per_replica(ctx, np.arange(5.0))
    a, b = x + 1, x * x
    d0 = dispatches(ctx)
    vk.eval(a, b, index=1)
    d1 = dispatches(ctx)
    assert d1[1] > d0[1] and d1[0] == d0[0]
    np.testing.assert_array_equal(b.read(0), np.arange(5.0) ** 2)
    np.testing.assert_array_equal(a.read(1), np.arange(5.0) + 11)
    with pytest.raises(IndexError, match=r"out of range"):
        (x + 2).eval(index=ctx.num_replicas)
    with pytest.raises(IndexError, match=r"negative"):
        (x + 2).eval(index=-1)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'replica'"):
        vk.eval(a, replica=0)


def test_replica_scope(ctx):
    base = np.array([1.5, 2.5, -3.0])
    x = per_replica(ctx, base)
    y = x - 1
    assert vk.replicas.current() is None
    d0 = dispatches(ctx)
    with vk.replica(1) as scope:
        assert scope.index == 1 and vk.replicas.current() == 1
        with vk.replica(0):
            assert vk.replicas.current() == 0
        assert vk.replicas.current() == 1
        np.testing.assert_array_equal(np.asarray(y), base + 10 - 1)  # reads replica 1
        np.testing.assert_array_equal(y.get(), base + 10 - 1)
        assert float((y.sum()).eval()) == (base + 9).sum()
        assert "10.5" in repr(y)
    assert vk.replicas.current() is None
    d1 = dispatches(ctx)
    assert d1[0] == d0[0] and d1[1] > d0[1]
    np.testing.assert_array_equal(np.asarray(y), base - 1)  # replica 0, computed now
    # Assignments apply to every replica, in a scope too: a scope picks where work runs.
    s = per_replica(ctx, np.zeros(4))
    v = s[1:3]
    with vk.replica(1):
        v += 1
        s[0] = 7
    np.testing.assert_array_equal(
        s.read(), [[7, 10 * r + 1, 10 * r + 1, 10 * r] for r in range(ctx.num_replicas)])
    with pytest.raises(IndexError, match=r"negative"):
        vk.replica(-1)
    with pytest.raises(TypeError, match=r"index must be an int"):
        vk.replica(1.0)
    with vk.replica(ctx.num_replicas):
        with pytest.raises(IndexError, match=r"out of range"):
            (x * 5).eval()


def test_write_one_replica_or_all(staging3):
    c = staging3
    base = np.arange(6, dtype=np.int16).reshape(2, 3)
    x = vk.asarray(base, context=c)
    before = vk.replicas.stream_stats(c)
    x.write(base * 7, 2)  # x alone holds its buffer: in place, one upload to replica 2
    after = vk.replicas.stream_stats(c)
    assert [a["copies"] - b["copies"] for a, b in zip(after, before)] == [0, 0, 1]
    assert [a["dispatches"] - b["dispatches"] for a, b in zip(after, before)] == [0, 0, 0]
    np.testing.assert_array_equal(x.read(), [base, base, base * 7])
    y = x + 1
    d0 = dispatches(c)
    y.write(np.zeros((2, 3), np.int16), 0)  # nothing computed yet
    assert dispatches(c) == d0
    np.testing.assert_array_equal(y.read(0), np.zeros((2, 3)))
    np.testing.assert_array_equal(y.read(2), base * 7 + 1)  # computed on replica 2 only
    d1 = dispatches(c)
    assert d1[0] == d0[0] and d1[1] == d0[1] and d1[2] == d0[2] + 1
    np.testing.assert_array_equal(y.read(), [np.zeros((2, 3)), base + 1, base * 7 + 1])
    y.write(base)  # every replica
    np.testing.assert_array_equal(y.read(), [base] * 3)
    with pytest.raises(IndexError, match=r"out of range"):
        y.write(base, 3)
    np.testing.assert_array_equal(y.read(), [base] * 3)  # unchanged by the failed write


def test_lazy_readers_keep_their_values_across_one_replica_writes(ctx):
    x = per_replica(ctx, np.array([1.0, 2.0]))
    y = x * 10
    y.eval(index=0)
    x[...] = -1.0  # x becomes storage and changes on every replica
    np.testing.assert_array_equal(y.read(1), [110.0, 120.0])  # the value from before
    z = x + 0
    x.write(np.array([5.0, 6.0]), 1)
    np.testing.assert_array_equal(z.read(1), [-1.0, -1.0])
    np.testing.assert_array_equal(x.read(1), [5.0, 6.0])
    np.testing.assert_array_equal(x.read(0), [-1.0, -1.0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_all_reduce_every_dtype(ctx, dtype):
    rng = np.random.default_rng(abs(hash(dtype)) % 1000)
    values = [random_values(dtype, 1000, rng) for _ in range(ctx.num_replicas)]
    x = vk.asarray(values[0], context=ctx)
    for r in range(1, ctx.num_replicas):
        x.write(values[r], r)
    for op, ufunc in OPS.items():
        with np.errstate(all="ignore"):
            want = functools.reduce(lambda a, b: ufunc(a, b).astype(dtype), values)
        got = vk.replicas.all_reduce(x, op)
        assert got.dtype == np.dtype(dtype)
        stacked = got.read()
        for r in range(ctx.num_replicas):
            np.testing.assert_array_equal(stacked[r], want, err_msg=f"{op} replica {r}")


@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 1000), (1000003,)])
def test_all_reduce_shapes_and_views(ctx, shape):
    n = int(np.prod(shape))
    base = (np.arange(n, dtype=np.float64) % 13).reshape(shape)
    x = per_replica(ctx, base)
    want = sum(base + 10 * r for r in range(ctx.num_replicas))
    np.testing.assert_array_equal(vk.replicas.all_reduce(x, "sum").read(0), want)
    if len(shape) == 2:  # a strided view of x
        v = x.T[::2]
        want_v = sum((base + 10 * r).T[::2] for r in range(ctx.num_replicas))
        np.testing.assert_array_equal(vk.replicas.all_reduce(v, "max").read(ctx.num_replicas - 1),
                                      functools.reduce(np.maximum, [(base + 10 * r).T[::2] for r in
                                                                    range(ctx.num_replicas)]))
        np.testing.assert_array_equal(vk.replicas.all_reduce(v).read(1), want_v)


def test_all_reduce_nan_and_errors(ctx):
    x = per_replica(ctx, np.array([1.0, np.nan, 3.0]))
    np.testing.assert_array_equal(vk.replicas.all_reduce(x, "max").read(1), [
        1.0 + 10 * (ctx.num_replicas - 1), np.nan, 3.0 + 10 * (ctx.num_replicas - 1)])
    with pytest.raises(ValueError, match=r"\[replicas.all_reduce\] op must be 'sum', 'prod', "
                                         r"'max' or 'min', got 'mean'"):
        vk.replicas.all_reduce(x, "mean")
    with pytest.raises(TypeError, match=r"op must be a str"):
        vk.replicas.all_reduce(x, np.add)
    with pytest.raises(TypeError):
        vk.replicas.all_reduce(np.arange(3.0), "sum")


def test_broadcast(ctx):
    base = np.arange(12, dtype=np.uint8).reshape(3, 4)
    x = per_replica(ctx, base)
    src = ctx.num_replicas - 1
    c0 = vk.replicas.copy_stats()
    b = vk.replicas.broadcast(x[:, 1:], src=src)
    np.testing.assert_array_equal(b.read(), [base[:, 1:] + 10 * src] * ctx.num_replicas)
    c1 = vk.replicas.copy_stats()
    moved = (c1["host"] + c1["queue_to_queue"]) - (c0["host"] + c0["queue_to_queue"])
    assert moved == ctx.num_replicas - 1
    b.read()
    c2 = vk.replicas.copy_stats()
    assert c2 == c1  # each replica copied once
    np.testing.assert_array_equal(x.read(0), base)  # x unchanged
    with pytest.raises(IndexError, match=r"\[replicas.broadcast\] src replica 5 is out of range "
                                         r"for a context of \d replica"):
        vk.replicas.broadcast(x, src=5)


def test_gather(ctx):
    x = per_replica(ctx, np.array([[1, 2], [3, 4]], dtype=np.int64))
    g = vk.replicas.gather(x)
    assert g.shape == (ctx.num_replicas, 2, 2) and g.dtype == np.int64
    for r in range(ctx.num_replicas):
        np.testing.assert_array_equal(g.read(r), x.read())
    e = vk.replicas.gather(vk.zeros((0, 3), context=ctx))
    assert e.shape == (ctx.num_replicas, 0, 3) and e.read(0).shape == (ctx.num_replicas, 0, 3)


def test_queues_work_while_the_host_waits_for_one(ctx):
    x = per_replica(ctx, np.ones(100000, dtype=np.float32))
    y = (vk.sin(x) * 2).sum()
    y.eval()
    s0 = vk.replicas.stream_stats(ctx)
    y.read(0)  # submits every replica's queue, waits for replica 0's
    s1 = vk.replicas.stream_stats(ctx)
    assert all(b["submits"] > a["submits"] for a, b in zip(s0, s1))
    ctx.synchronize()
    assert all(s["completed_value"] == s["pending_value"]
               for s in vk.replicas.stream_stats(ctx))


def test_queue_to_queue_path_where_the_device_has_two_queues():
    try:
        c = vk.Context(devices=[physical_devices()[0]], queues_per_device=2)
    except RuntimeError as e:
        pytest.skip(f"one compute queue: {e}")
    x = per_replica(c, np.arange(10.0))
    c0 = vk.replicas.copy_stats()
    s = vk.replicas.all_reduce(x, "sum")
    np.testing.assert_array_equal(s.read(), [2 * np.arange(10.0) + 10] * 2)
    c1 = vk.replicas.copy_stats()
    assert c1["queue_to_queue"] > c0["queue_to_queue"] and c1["host"] == c0["host"]
    assert sum(st["queue_waits"] for st in vk.replicas.stream_stats(c)) > 0


SCRIPT = """
import numpy as np, vkarray as vk
c = vk.Context(devices=[0, 0])
x = vk.asarray(np.arange(4.0), context=c)
vk.replicas.broadcast(x, src=1).read()
"""


def test_debug_reports_the_copy_path():
    env = dict(os.environ, VKA_DEBUG="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "[vkarray] replicas: 32 bytes from replica 1 to replica 0: device to device " \
           "through " in out.stderr
    assert "pinned host memory" in out.stderr and "(1 chunk(s) of up to 32 bytes)" in out.stderr
    assert "from replica 1 to replica 1: same queue, device copy" in out.stderr


def test_eager_operations_complete_a_value_made_on_one_replica(ctx):
    """Operations that run at once (scans, sorting, compaction, FFT, matmul) read every replica
    of their input: a value made on one replica is computed on the others first."""
    rng = np.random.default_rng(5)
    base = rng.standard_normal(1000).astype(np.float32)
    x = per_replica(ctx, base)
    values = [(base + 10 * r) * 2 for r in range(ctx.num_replicas)]
    cases = [
        (lambda y: vk.cumsum(y), np.cumsum),
        (lambda y: vk.sort(y), np.sort),
        # (nonzero needs the same count on every replica: its shape is one)
        (lambda y: vk.nonzero(y > y.min())[0], lambda v: np.nonzero(v > v.min())[0]),
        (lambda y: vk.fft.fft(y), np.fft.fft),
        (lambda y: vk.reshape(y, (10, 100)) @ vk.reshape(y, (100, 10)),
         lambda v: v.reshape(10, 100) @ v.reshape(100, 10)),
    ]
    for i, (op, ref) in enumerate(cases):
        y = x * 2
        y.eval(index=ctx.num_replicas - 1)
        got = op(y).read()
        for r in range(ctx.num_replicas):
            want = ref(values[r])
            if got.dtype.kind in "fc":
                np.testing.assert_allclose(got[r], want, rtol=2e-4, atol=2e-3,
                                           err_msg=f"case {i} replica {r}")
            else:
                np.testing.assert_array_equal(got[r], want, err_msg=f"case {i} replica {r}")
