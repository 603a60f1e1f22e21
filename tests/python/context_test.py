"""Contexts from Python: replicas, device facts, the process default, and context errors."""

import numpy as np
import pytest

import vkarray as vk


def test_list_devices_names_lavapipe_or_a_gpu():
    devices = vk.list_devices()
    assert devices and devices[0]["index"] == 0
    assert all(set(d) == {"index", "name", "type"} for d in devices)
    assert all(d["type"] in ("discrete", "integrated", "virtual", "cpu", "other")
               for d in devices)


def test_replicas_of_several_logical_devices(ctx3):
    assert ctx3.num_replicas == 3 and ctx3.num_devices == 3
    reps = ctx3.replicas
    assert [(r.index, r.device, r.physical_device, r.queue) for r in reps] == [
        (0, 0, 0, 0), (1, 1, 0, 0), (2, 2, 0, 0)]
    assert "replica 2 (device 2" in repr(reps[2]) and reps[2].device_name in repr(reps[2])
    assert repr(ctx3).startswith("vkarray.Context(replica 0 (device 0")
    assert len(ctx3.describe().splitlines()) == 3
    dev = ctx3.devices[1]
    assert dev["index"] == 1 and dev["physical_index"] == 0 and dev["num_queues"] == 1
    assert dev["max_storage_buffer_range"] > 0 and dev["name"] == reps[1].device_name
    ctx3.synchronize()


def test_default_context_is_lazy_shared_and_replaceable(restore_default_context, ctx2):
    first = vk.context()
    assert vk.context() is first
    assert vk.Buffer(2).context is first and vk.Buffer(2).num_replicas == first.num_replicas
    vk.set_context(ctx2)
    assert vk.context() is ctx2 and vk.asbuffer([1, 2]).num_replicas == 2
    made = vk.make_context(devices=[0, 0, 0], host_access="staging")
    assert vk.context() is made and vk.Buffer(1).num_replicas == 3
    vk.synchronize()


def test_buffers_keep_their_context_after_the_default_changes(restore_default_context, ctx3):
    vk.set_context(ctx3)
    buf = vk.asbuffer(np.arange(4.0))
    vk.make_context(devices=[0])
    assert buf.context is ctx3 and buf.read().shape == (3, 4)


def test_context_argument_errors():
    with pytest.raises(ValueError, match=r"\[Context\] host_access must be 'auto' or 'staging', "
                                         r"got 'mapped'"):
        vk.Context(host_access="mapped")
    with pytest.raises(IndexError, match=r"\[context\] device index 7 is out of range"):
        vk.Context(devices=[0, 7])
    with pytest.raises(IndexError, match=r"\[Context\] device index -1 .*negative"):
        vk.Context(devices=[-1])
    with pytest.raises(ValueError, match=r"queues_per_device must be at least 1, got 0"):
        vk.Context(queues_per_device=0)
    with pytest.raises(ValueError, match=r"devices=\[\] names no device"):
        vk.Context(devices=[])
    with pytest.raises(TypeError, match=r"\[set_context\] expected a vkarray.Context"):
        vk.set_context(None)


def test_single_device_index_is_accepted():
    assert vk.Context(devices=0).num_replicas == 1
