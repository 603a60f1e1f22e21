"""HostArray transfers on the device's transfer stream against numpy: with
transfer_queue="shared" (a second stream on the replica's queue: lavapipe has no dedicated
transfer family, but every cross-stream wait of one is exercised) and "off" (the replica's own
stream). Queue waits on the replica's stream are counted: compute that touches a transferred
array waits once, compute on other arrays not at all."""

import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import vkarray as vk
from vkarray import _vkarray

SIZES = [1, 7, 1000, 1000003]


@pytest.fixture(scope="module", params=["shared", "off"])
def tctx(request):
    """One replica, HostArray copies on a transfer stream ("shared") or the replica's ("off")."""
    return vk.Context(devices=[0], transfer_queue=request.param)


@pytest.fixture(scope="module", params=["shared", "off"])
def tctx2(request):
    """Two replicas (two logical devices): one transfer stream per device."""
    return vk.Context(devices=[0, 0], transfer_queue=request.param)


def shared(ctx):
    return ctx.transfer_queue == "shared"


def queue_waits(ctx, replica=0):
    return _vkarray._stream_stats(ctx)[replica]["queue_waits"]


def transfer_copies(ctx, device=0):
    s = _vkarray._transfer_stream_stats(ctx, device)
    return None if s is None else s["copies"]


def transfer_waits(ctx, device=0):
    s = _vkarray._transfer_stream_stats(ctx, device)
    return None if s is None else s["queue_waits"]


def host(values, ctx):
    h = vk.HostArray(values.shape, values.dtype, context=ctx)
    h[...] = values
    return h


def test_context_reports_its_transfer_queue(tctx):
    assert tctx.transfer_queue in ("shared", "none")
    assert (_vkarray._transfer_stream_stats(tctx) is None) == (tctx.transfer_queue == "none")
    assert tctx.devices[0]["transfer_queue"] == tctx.transfer_queue
    with pytest.raises(ValueError, match="transfer_queue must be 'auto', 'off' or 'shared', "
                       "got 'dma'"):
        vk.Context(devices=[0], transfer_queue="dma")
    # lavapipe has one queue family (graphics, compute and transfer): "auto" opens nothing.
    assert vk.Context(devices=[0], transfer_queue="auto").transfer_queue == "none"


def test_environment_variable_sets_the_default():
    code = "import vkarray as vk; print(vk.context().transfer_queue)"
    env = dict(os.environ, VKA_TRANSFER_QUEUE="shared")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "shared"
    env["VKA_TRANSFER_QUEUE"] = "sideways"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode != 0
    assert "VKA_TRANSFER_QUEUE must be 'auto', 'off' or 'shared', got 'sideways'" in out.stderr


@pytest.mark.parametrize("n", SIZES)
def test_upload_then_compute_waits_once(tctx, n):
    want = (np.arange(n, dtype=np.float32) % 251) - 7.5
    h = host(want, tctx)
    x = vk.empty((n,), np.float32, context=tctx)
    c0, w0 = transfer_copies(tctx), queue_waits(tctx)
    ev = x.set_async(h)
    y = x * 2 + 1
    np.testing.assert_array_equal(np.asarray(y), want * 2 + 1)
    ev.wait()
    assert ev.is_done()
    if shared(tctx):
        assert transfer_copies(tctx) == c0 + 1
        assert queue_waits(tctx) == w0 + 1  # the kernel over x, once
    else:
        assert queue_waits(tctx) == w0
    w1 = queue_waits(tctx)
    np.testing.assert_array_equal(np.asarray(x - 1), want - 1)
    assert queue_waits(tctx) == w1  # the foreign use was settled by the first kernel


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64, np.float16,
                                   np.float64, np.complex128])
def test_synchronous_set_get_every_byte_width(tctx, dtype):
    rng = np.random.default_rng(1)
    want = rng.integers(0, 2 if dtype is np.bool_ else 100, size=(5, 37)).astype(dtype)
    x = vk.empty((5, 37), dtype, context=tctx)
    h = x.empty_like_host()
    h[...] = want
    x.set(h)
    out = x.empty_like_host()
    assert x.get(out) is out
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(np.asarray(x[1:3, ::3]), want[1:3, ::3])


@pytest.mark.parametrize("n", [7, 1000003])
def test_compute_then_download(tctx, n):
    a = np.arange(n, dtype=np.int32)
    x = vk.asarray(a, context=tctx)
    y = x * 3 - 2  # recorded, not yet submitted, when the download asks for it
    out = vk.HostArray((n,), np.int32, context=tctx)
    w0, t0 = queue_waits(tctx), transfer_waits(tctx)
    ev = y.get_async(out)
    ev.wait()
    np.testing.assert_array_equal(out, a * 3 - 2)
    assert queue_waits(tctx) == w0  # the copy waits for the kernel, not the other way
    if shared(tctx):
        assert transfer_waits(tctx) == t0 + 1


def test_download_then_overwrite_in_place_waits_for_the_copy(tctx):
    n = 1000003
    a = np.arange(n, dtype=np.float32)
    x = vk.asarray(a, context=tctx)
    out = vk.HostArray((n,), np.float32, context=tctx)
    w0 = queue_waits(tctx)
    ev = x.get_async(out)
    y = (x + 1).eval()  # reads x, which the copy only reads: no wait
    assert queue_waits(tctx) == w0
    x.zero()  # a fill of x in place: must not run before the copy has read x (WAR)
    assert queue_waits(tctx) == w0 + (1 if shared(tctx) else 0)
    x[::3] = 2.5  # in place too; the wait was settled
    x.eval()
    assert queue_waits(tctx) == w0 + (1 if shared(tctx) else 0)
    ev.wait()
    np.testing.assert_array_equal(out, a)
    want = np.zeros_like(a)
    want[::3] = 2.5
    np.testing.assert_array_equal(np.asarray(x), want)
    np.testing.assert_array_equal(np.asarray(y), a + 1)


def test_upload_over_array_being_read(tctx):
    n = 1000
    a = np.arange(n, dtype=np.float64)
    x = vk.asarray(a, context=tctx)
    y = (x * x).eval()  # reads x; the upload must wait for it (WAR on the device)
    h = host(-a, tctx)
    x.set_async(h).wait()
    np.testing.assert_array_equal(np.asarray(y), a * a)
    np.testing.assert_array_equal(np.asarray(x), -a)


def test_unrelated_compute_never_waits(tctx):
    n = 1000003
    up = host(np.full(n, 3, np.float32), tctx)
    x = vk.empty((n,), np.float32, context=tctx)
    w = vk.asarray(np.arange(1000, dtype=np.float32), context=tctx)
    w.eval()
    down = vk.HostArray((1000,), np.float32, context=tctx)
    z = vk.asarray(np.ones(1000, np.float32), context=tctx).eval()
    w0 = queue_waits(tctx)
    ev_up = x.set_async(up)
    ev_down = z.get_async(down)
    s = (w * 2 + 1).sum()
    r = vk.cumsum(w)
    np.testing.assert_allclose(float(s), float((np.arange(1000) * 2 + 1).sum()))
    np.testing.assert_array_equal(np.asarray(r), np.cumsum(np.arange(1000, dtype=np.float32)))
    assert queue_waits(tctx) == w0  # neither x nor z was touched
    ev_up.wait()
    ev_down.wait()
    np.testing.assert_array_equal(down, np.ones(1000, np.float32))
    assert float(x.sum()) == 3.0 * n
    assert queue_waits(tctx) == w0 + (1 if shared(tctx) else 0)


def test_events_and_queue_side_waits(tctx):
    n = 4099
    a = (np.arange(n) % 13).astype(np.int64)
    x = vk.empty((n,), np.int64, context=tctx)
    ev = x.set_async(host(a, tctx))
    other = vk.zeros((n,), np.int64, context=tctx)
    other.wait_event(ev)  # later work on the replica waits for the upload on the device
    np.testing.assert_array_equal(np.asarray(other + 1), np.ones(n, np.int64))
    ev.wait()
    assert ev.is_done() and "done" in repr(ev)
    np.testing.assert_array_equal(np.asarray(x), a)
    out = vk.HostArray((n,), np.int64, context=tctx)
    ev2 = (x + 5).get_async(out)
    while not ev2.is_done():
        pass
    np.testing.assert_array_equal(out, a + 5)


def test_region_copies(tctx):
    a = np.arange(7 * 33, dtype=np.float32).reshape(7, 33)
    x = vk.asarray(a, context=tctx)
    h = vk.HostArray((4, 20), np.float32, context=tctx)
    h[...] = -1
    x.get_region(h, np.s_[1:4, 2:32:3], np.s_[0:3, :10])
    want = np.full((4, 20), -1, np.float32)
    want[0:3, :10] = a[1:4, 2:32:3]
    np.testing.assert_array_equal(h, want)
    src = vk.HostArray((3, 11), np.float32, context=tctx)
    src[...] = np.arange(33).reshape(3, 11) + 1000
    ev = x.set_region(src, np.s_[2:5, 11:22], np.s_[:, :], blocking=False)
    y = x + 0.5  # depends on the region just uploaded
    ev.wait()
    a2 = a.copy()
    a2[2:5, 11:22] = np.arange(33).reshape(3, 11) + 1000
    np.testing.assert_array_equal(np.asarray(y), a2 + 0.5)


def test_host_read_after_async_upload(tctx):
    n = 1000
    a = np.linspace(-1, 1, n)
    x = vk.empty((n,), np.float64, context=tctx)
    x.set_async(host(a, tctx))
    np.testing.assert_array_equal(x.get(), a)  # ordinary host memory: waits for the copy


def test_array_dropped_during_async_transfer(tctx):
    n = 1000003
    a = np.arange(n, dtype=np.float32)
    x = vk.empty((n,), np.float32, context=tctx)
    ev = x.set_async(host(a, tctx))
    del x  # the event keeps it; dropping the event too leaves the release to the streams
    del ev
    gc.collect()
    ys = [vk.asarray(a * k, context=tctx) + 1 for k in range(3)]  # may reuse x's memory
    for k, y in enumerate(ys):
        np.testing.assert_array_equal(np.asarray(y), a * k + 1)
    tctx.synchronize()


def test_every_replica_uploads_through_its_device(tctx2):
    a = np.arange(2 * 513, dtype=np.float32).reshape(2, 513)
    x = vk.empty((2, 513), np.float32, context=tctx2)
    h = host(a, tctx2)
    x.set(h)  # both replicas
    for r in range(2):
        out = vk.HostArray((2, 513), np.float32, context=tctx2, device=r)
        x.get(out, index=r)
        np.testing.assert_array_equal(out, a)
    if shared(tctx2):
        assert transfer_copies(tctx2, 1) >= 1
    y = (x * 2).eval()
    for r in range(2):
        np.testing.assert_array_equal(y.get(index=r), a * 2)


def test_wait_for_and_record_event_cover_the_transfer_stream(tctx):
    n = 1000
    a = np.arange(n, dtype=np.float32)
    x = vk.asarray(a, context=tctx)
    y = vk.empty((n,), np.float32, context=tctx)
    h = host(a * 0 + 9, tctx)
    ev_up = y.set_async(h)
    rec = vk.record_event(context=tctx)  # covers the upload on the transfer stream
    rec.wait()
    assert ev_up.is_done()
    z = (x * 4).eval()
    ev = vk.record_event(context=tctx)
    out = vk.HostArray((n,), np.float32, context=tctx)
    # The copy itself waits for ev on the device (here after z's kernel, already recorded).
    x.get_async(out, wait_for=ev).wait()
    np.testing.assert_array_equal(out, a)
    out2 = vk.HostArray((n,), np.float32, context=tctx)
    z.get_async(out2, wait_for=[ev, ev_up]).wait()
    np.testing.assert_array_equal(out2, a * 4)
    np.testing.assert_array_equal(y.get(), a * 0 + 9)
