"""Parity cases for the names with no numpy counterpart beyond the context and buffer API:
host arrays, events, mapped device memory (checked against numpy values they carry)."""

import numpy as np

import vkarray as vk
from parity_registry import check


def _host_arrays():
    h = vk.HostArray((3, 4), np.float32)
    assert isinstance(h, np.ndarray) and isinstance(h, vk.HostArray)
    h[...] = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = vk.DeviceArray((3, 4), np.float32)
    ev = x.set_async(h)
    assert isinstance(ev, vk.Event)
    ev.wait()
    assert ev.is_done()
    out = x.empty_like_host()
    x.get(out)
    np.testing.assert_array_equal(out, np.arange(12, dtype=np.float32).reshape(3, 4))
    e2 = vk.record_event()  # everything submitted so far on every replica
    e2.wait()
    assert e2.is_done()


def _mapped():
    try:
        m = vk.mapped_empty((5,), np.int32)
    except (RuntimeError, ValueError, TypeError) as err:  # no such memory on this device
        assert "mapped_empty" in str(err)
        return
    assert isinstance(m, vk.MappedArray)
    m[...] = np.arange(5, dtype=np.int32)
    m.flush()
    np.testing.assert_array_equal(np.asarray(vk.asarray(m) * 2), np.arange(5) * 2)


for _name, _fn in [("HostArray", _host_arrays), ("DeviceArray", _host_arrays),
                   ("Event", _host_arrays), ("record_event", _host_arrays),
                   ("MappedArray", _mapped), ("mapped_empty", _mapped)]:
    check(_name, _fn)
