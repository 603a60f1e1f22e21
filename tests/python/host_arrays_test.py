"""Host arrays and explicit transfers against numpy: vk.HostArray, x.set/x.get and their
_async forms with vk.Event, region copies, padded device arrays, zero(), queue-side waits; the
fast paths are checked by counting the copy commands of the replica's stream."""

import gc

import numpy as np
import pytest

import vkarray as vk
from vkarray import _vkarray

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def values(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    v = rng.integers(-100, 100, size=shape)
    if np.dtype(dtype).kind == "c":
        return (v + 1j * rng.integers(-5, 5, size=shape)).astype(dtype)
    if np.dtype(dtype).kind == "u":
        return np.abs(v).astype(dtype)
    return v.astype(dtype)


def copies(ctx, replica=0):
    """Copy commands for the replica: on its stream, and on its device's transfer stream where
    one is open (VKA_TRANSFER_QUEUE=shared, or a device with a dedicated transfer family)."""
    t = _vkarray._transfer_stream_stats(ctx, ctx.replicas[replica].device)
    return vk.replicas.stream_stats(ctx)[replica]["copies"] + (t["copies"] if t else 0)


def test_host_array_is_a_numpy_array_over_pinned_memory(ctx1):
    h = vk.HostArray((3, 4), np.float32, context=ctx1)
    assert isinstance(h, np.ndarray) and isinstance(h, vk.HostArray)
    assert h.shape == (3, 4) and h.dtype == np.float32 and h.padded_shape == (3, 4)
    h[...] = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(h.sum(axis=0), [12, 15, 18, 21])
    p = vk.HostArray((5, 3), np.int16, padded_shape=(8, 4), context=ctx1)
    assert p.shape == (5, 3) and p.strides == (8, 2) and p.padded_shape == (8, 4)
    assert p[1:].padded_shape is None  # a view vouches for nothing
    assert vk.HostArray((), np.complex128, context=ctx1).shape == ()
    assert vk.HostArray((0, 5), np.float64, context=ctx1).size == 0
    with pytest.raises(ValueError, match=r"padded_shape \(2, 4\) is smaller than shape \(3, 4\)"):
        vk.HostArray((3, 4), np.float32, padded_shape=(2, 4), context=ctx1)
    with pytest.raises(ValueError, match="differ in length"):
        vk.HostArray((3, 4), np.float32, padded_shape=(4,), context=ctx1)
    with pytest.raises(TypeError):
        vk.HostArray((3,), np.dtype("U3"), context=ctx1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_set_get_every_dtype_through_host_arrays(ctx1, dtype):
    want = values((7, 13), dtype)
    x = vk.empty((7, 13), dtype, context=ctx1)
    h = x.empty_like_host()
    h[...] = want
    c0, k0 = copies(ctx1), vk.kernel_count()
    x.set(h)
    out = x.empty_like_host()
    assert x.get(out) is out
    assert copies(ctx1) == c0 + 2  # one copy command each way, no staging
    assert vk.kernel_count() == k0
    z = vk.zeros((7, 13), dtype, context=ctx1)  # a lazy value is replaced, never computed
    assert z.is_lazy
    z.set(h)
    assert vk.kernel_count() == k0
    np.testing.assert_array_equal(z.get(), want)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(x.get(), want)  # into new numpy memory
    assert type(x.get()) is np.ndarray


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 1000003])
def test_sizes_and_plain_numpy_sources(any_ctx, n):
    want = np.arange(n, dtype=np.float32) * 0.5 - 3
    x = vk.zeros(n, np.float32, context=any_ctx)
    x.set(want)  # plain numpy: staged
    for r in range(any_ctx.num_replicas):
        np.testing.assert_array_equal(x.read(r), want)
    h = vk.HostArray(n, np.float32, context=any_ctx)
    x.get(h, index=any_ctx.num_replicas - 1)
    np.testing.assert_array_equal(h, want)
    x.set(h[::-1])  # a reversed view of pinned memory: no copy command can do it, staged
    np.testing.assert_array_equal(x.get(), want[::-1])


def test_staging_context_host_arrays_skip_staging(ctx_staging):
    want = np.arange(1000, dtype=np.int32)
    x = vk.empty(1000, np.int32, context=ctx_staging)
    c0 = copies(ctx_staging, 0)
    x.set(want)
    assert copies(ctx_staging, 0) == c0 + 1  # the staging chunk's copy
    h = x.empty_like_host()
    c1 = copies(ctx_staging, 1)
    x.get(h, index=1)
    np.testing.assert_array_equal(h, want)
    # Replica 1 lives on another logical device than the HostArray (device 0): staged there.
    assert copies(ctx_staging, 1) == c1 + 1
    h0 = vk.HostArray(1000, np.int32, context=ctx_staging, device=1)
    x.get(h0, index=1)
    assert copies(ctx_staging, 1) == c1 + 2
    np.testing.assert_array_equal(h0, want)


def test_set_one_replica_and_errors_leave_arrays_unchanged(ctx3):
    x = vk.zeros((4, 5), np.float64, context=ctx3)
    h = x.empty_like_host()
    h[...] = 7
    x.set(h, index=1)
    np.testing.assert_array_equal(x.read(0), np.zeros((4, 5)))
    np.testing.assert_array_equal(x.read(1), np.full((4, 5), 7.0))
    with pytest.raises(TypeError, match=r"\[set\] host array of float32 does not match the device "
                                        r"array's float64"):
        x.set(np.zeros((4, 5), np.float32))
    with pytest.raises(ValueError, match=r"\[set\] host array of shape \(5, 4\) does not match"):
        x.set(np.zeros((5, 4)))
    with pytest.raises(IndexError):
        x.set(h, index=3)
    ro = np.zeros((4, 5))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"\[get\] the host array is read-only"):
        x.get(ro)
    np.testing.assert_array_equal(x.read(1), np.full((4, 5), 7.0))


def test_lazy_and_view_sources_and_destinations(ctx1):
    a = vk.asarray(np.arange(24.0).reshape(4, 6), context=ctx1)
    y = a * 2 + 1  # lazy: get computes it
    h = vk.HostArray((4, 6), np.float64, context=ctx1)
    y.get(h)
    np.testing.assert_array_equal(h, np.arange(24.0).reshape(4, 6) * 2 + 1)
    t = a.T  # a strided view: still one copy command of one region per element run
    ht = vk.HostArray((6, 4), np.float64, context=ctx1)
    t.get(ht)
    np.testing.assert_array_equal(ht, np.arange(24.0).reshape(4, 6).T)
    v = a[1:3, ::2]
    v.set(np.full((2, 3), -1.0))
    want = np.arange(24.0).reshape(4, 6)
    want[1:3, ::2] = -1
    np.testing.assert_array_equal(a.get(), want)
    b = vk.broadcast_to(vk.asarray(np.float64(3), context=ctx1), (2, 2))
    with pytest.raises(ValueError, match="read-only"):
        b.set(np.zeros((2, 2)))


def test_async_transfers_and_events(ctx1):
    want = values((300, 7), np.int64)
    x = vk.empty((300, 7), np.int64, context=ctx1)
    h = x.empty_like_host()
    h[...] = want
    ev = x.set_async(h)
    assert isinstance(ev, vk.Event)
    del h
    gc.collect()  # the event keeps the host memory alive until the copy has run
    ev.wait()
    assert ev.is_done() and repr(ev) == "vkarray.Event(done)"
    out = x.empty_like_host()
    ev2 = x.get_async(out)
    ev2.wait()
    np.testing.assert_array_equal(out, want)
    # From plain numpy, set_async stages before returning: the source may change at once.
    src = want.copy()
    ev3 = x.set_async(src)
    src[...] = 0
    ev3.wait()
    np.testing.assert_array_equal(x.get(), want)
    plain = np.empty((300, 7), np.int64)
    x.get_async(plain).wait()
    np.testing.assert_array_equal(plain, want)
    r = vk.record_event(context=ctx1)
    r.wait()
    assert r.is_done()


def test_queue_side_waits(ctx1, ctx2):
    # The same device: later work waits on the device for the transfer.
    x = vk.empty(1000, np.float32, context=ctx1)
    h = x.empty_like_host()
    h[...] = np.arange(1000)
    ev = x.set_async(h)
    y = vk.empty(1000, np.float32, context=ctx1)
    y.wait_event(ev)
    y.set(np.ones(1000, np.float32))
    np.testing.assert_array_equal((x + y).get(), np.arange(1000) + 1)
    # wait_for= on a transfer: the copy waits on the device for the other transfer.
    a = vk.empty(1000, np.float32, context=ctx1)
    ha = a.empty_like_host()
    ha[...] = 3
    b = vk.empty(1000, np.float32, context=ctx1)
    hb = b.empty_like_host()
    hb[...] = 4
    ea = a.set_async(ha)
    eb = b.set_async(hb, wait_for=[ea])
    out = a.empty_like_host()
    a.get_async(out, wait_for=eb).wait()
    np.testing.assert_array_equal(out, np.full(1000, 3))
    assert ea.is_done() and eb.is_done()
    # Another device's work: the wait happens on the host.
    z = vk.zeros(10, np.int32, context=ctx2)
    hz = vk.HostArray(10, np.int32, context=ctx2)
    hz[...] = 5
    evz = z.set_async(hz, index=0)
    z.wait_event(evz, index=1)
    assert evz.is_done()
    np.testing.assert_array_equal(z.read(0), np.full(10, 5))


def test_padded_device_arrays(ctx1):
    x = vk.DeviceArray((5, 3), np.float32, padded_shape=(8, 4), context=ctx1)
    assert x.shape == (5, 3) and x.padded_shape == (8, 4)
    assert x[1:].padded_shape == (4, 3)  # a view is not the padded allocation
    h = x.empty_like_host()
    assert h.padded_shape == (8, 4) and h.strides == (16, 4)
    want = values((5, 3), np.float32)
    h[...] = want
    c0 = copies(ctx1)
    x.set(h)
    assert copies(ctx1) == c0 + 1  # the whole padded allocation in one region
    np.testing.assert_array_equal((x * 2).get(), want * 2)
    out = x.empty_like_host()
    x.get(out)
    np.testing.assert_array_equal(out, want)
    dense = vk.HostArray((5, 3), np.float32, context=ctx1)
    c1 = copies(ctx1)
    x.get(dense)  # padded differently: still one copy command (one region per row)
    assert copies(ctx1) == c1 + 1
    np.testing.assert_array_equal(dense, want)
    x.set(want)  # plain numpy into the strided view
    np.testing.assert_array_equal(x.get(), want)
    assert vk.DeviceArray(7, np.int8, context=ctx1).padded_shape == (7,)
    with pytest.raises(ValueError, match=r"padded_shape \(4, 4\) is smaller than shape \(5, 3\) "
                                         r"on axis 0"):
        vk.DeviceArray((5, 3), np.float32, padded_shape=(4, 4), context=ctx1)


def test_regions_follow_numpy(ctx1):
    base = np.arange(60, dtype=np.int32).reshape(5, 12)
    x = vk.asarray(base, context=ctx1)
    h = vk.HostArray((4, 6), np.int32, context=ctx1)
    h[...] = -1
    x.get_region(h, np.s_[1:4, 2:12:2], np.s_[0:3, :5])
    want = np.full((4, 6), -1, np.int32)
    want[0:3, :5] = base[1:4, 2:12:2]
    np.testing.assert_array_equal(h, want)
    x.get_region(h, np.s_[4, 3:9], np.s_[3])  # an int drops the axis on either side
    want[3] = base[4, 3:9]
    np.testing.assert_array_equal(h, want)
    x.set_region(np.arange(6, dtype=np.int32) + 100, np.s_[0, ::2], np.s_[:])
    ref = base.copy()
    ref[0, ::2] = np.arange(6) + 100
    np.testing.assert_array_equal(x.get(), ref)
    ev = x.set_region(h, np.s_[2:4, 0:6], np.s_[1:3], blocking=False)
    ev.wait()
    ref[2:4, 0:6] = want[1:3]
    np.testing.assert_array_equal(x.get(), ref)
    d = vk.zeros((3, 3), np.int32, context=ctx1)
    d.set_region(h, np.s_[np.newaxis, 1], np.s_[np.newaxis, 0, 3:6])
    x.copy_region(d, np.s_[0:2, 9:12], np.s_[1:3])
    dref = np.zeros((3, 3), np.int32)
    dref[1] = want[0, 3:6]
    dref[1:3] = ref[0:2, 9:12]
    np.testing.assert_array_equal(d.get(), dref)
    # Overlapping regions of one array: numpy's a[1:5] = a[0:4].
    x.copy_region(x, np.s_[0:4], np.s_[1:5])
    ref[1:5] = ref[0:4].copy()
    np.testing.assert_array_equal(x.get(), ref)


def test_region_errors(ctx1):
    x = vk.zeros((4, 5), np.float32, context=ctx1)
    h = vk.HostArray((4, 5), np.float32, context=ctx1)
    with pytest.raises(IndexError, match="only positive steps"):
        x.get_region(h, np.s_[::-1], np.s_[:])
    with pytest.raises(IndexError, match="selects nothing on axis 0"):
        x.get_region(h, np.s_[2:2], np.s_[2:2])
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        x.get_region(h, np.s_[4], np.s_[0])
    with pytest.raises(IndexError, match="more axes than shape"):
        x.get_region(h, np.s_[0, 0, 0], np.s_[0])
    with pytest.raises(TypeError, match="unsupported item"):
        x.get_region(h, np.s_[[0, 1]], np.s_[0:2])
    with pytest.raises(ValueError, match=r"\[get_region\] host array of shape \(3, 5\)"):
        x.get_region(h, np.s_[0:2], np.s_[0:3])
    with pytest.raises(TypeError, match=r"\[set_region\] host array of int32"):
        x.set_region(np.zeros((4, 5), np.int32), np.s_[:], np.s_[:])
    with pytest.raises(TypeError, match=r"\[copy_region\] source region of float32 does not "
                                        r"match the device array's float64"):
        x.copy_region(vk.zeros((4, 5), np.float64, context=ctx1), np.s_[:], np.s_[:])


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.float32, np.complex128])
def test_zero(ctx1, dtype):
    want = np.ones((3, 7), dtype)
    x = vk.asarray(want, context=ctx1)
    x[1:, 1:6].zero()
    want[1:, 1:6] = 0
    np.testing.assert_array_equal(x.get(), want)
    x.zero()
    np.testing.assert_array_equal(x.get(), np.zeros((3, 7), dtype))
    vk.zeros(0, dtype, context=ctx1).zero()


def test_dropping_events_and_host_arrays_mid_transfer_is_safe(ctx1):
    want = values((500, 9), np.float64, seed=3)
    x = vk.empty((500, 9), np.float64, context=ctx1)
    h = x.empty_like_host()
    h[...] = want
    x.set_async(h)  # the event is dropped at once, and then the host array
    del h
    gc.collect()  # the pinned memory lives until the copy that reads it has run
    np.testing.assert_array_equal(x.get(), want)
    out = x.empty_like_host()
    ev = x.get_async(out)
    del ev
    gc.collect()
    ctx1.synchronize()
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float64, np.complex64])
def test_regions_on_every_replica(any_ctx, dtype):
    n = any_ctx.num_replicas
    base = values((6, 1000), dtype, seed=5)
    x = vk.asarray(base, context=any_ctx)
    src = values((3, 7), dtype, seed=6)
    x.set_region(src, np.s_[1:6:2, 993:], np.s_[:, :])  # crosses no boundary twice: 3 runs
    want = base.copy()
    want[1:6:2, 993:] = src
    for r in range(n):
        np.testing.assert_array_equal(x.read(r), want)
    h = vk.HostArray((2, 1000), dtype, context=any_ctx)
    ev = x.get_region(h, np.s_[4:6], np.s_[:], blocking=False, index=n - 1)
    ev.wait()
    np.testing.assert_array_equal(h, want[4:6])
    y = vk.zeros((6, 1000), dtype, context=any_ctx)
    x.copy_region(y, np.s_[:, 500:], np.s_[:, :500], index=0)
    np.testing.assert_array_equal(y.read(0)[:, :500], want[:, 500:])
    if n > 1:  # only replica 0 was written
        np.testing.assert_array_equal(y.read(1), np.zeros((6, 1000), dtype))
