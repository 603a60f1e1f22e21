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


_SCALE = """#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const float k = 1.0;
layout(push_constant) uniform Push { float c; } pc;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer B { float b[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < b.length()) b[i] = a[i] * k + pc.c;
}
"""


def _kernels_and_sequences():
    a = np.arange(100, dtype=np.float32)
    k = vk.Kernel(_SCALE, spec_consts=[2.0], name="scale")
    out = vk.zeros(100, vk.float32)
    k(a, out, push_consts=[np.float32(1)])
    np.testing.assert_array_equal(out.read(0), a * 2 + 1)
    seq = vk.Sequence()
    x = vk.asarray(a)
    seq.record(k, x, out, push_consts=[np.float32(-3)])
    seq.eval()
    np.testing.assert_array_equal(out.read(0), a * 2 - 3)
    assert len(seq.get_timestamps()) == 1


def _profiles():
    x = vk.asarray(np.arange(10, dtype=np.float32))
    with vk.profile() as prof:
        (x * 2 + 1).eval()
    assert isinstance(prof, vk.Profile) and prof.count == 1


def _replicas():
    x = vk.asarray(np.arange(6, dtype=np.int32))
    with vk.replica(0):
        np.testing.assert_array_equal(np.asarray(x * 3), np.arange(6) * 3)
    r = vk.context().num_replicas
    np.testing.assert_array_equal(vk.replicas.all_reduce(x, "sum").read(0), np.arange(6) * r)
    np.testing.assert_array_equal(vk.replicas.gather(x).read(0), np.stack([np.arange(6)] * r))
    np.testing.assert_array_equal(vk.replicas.broadcast(x, src=0).read(0), np.arange(6))


for _name, _fn in [("Kernel", _kernels_and_sequences), ("Sequence", _kernels_and_sequences),
                   ("profile", _profiles), ("Profile", _profiles), ("replica", _replicas)]:
    check(_name, _fn)


def _isdtype():
    assert vk.isdtype(vk.float32, "real floating") and not vk.isdtype(vk.int8, "real floating")
    assert vk.isdtype(vk.int8, ("integral", vk.float64)) and vk.isdtype(vk.float64, vk.float64)
    assert vk.isdtype(vk.complex64, "numeric") and not vk.isdtype(vk.bool, "numeric")


def _unstack():
    a = np.arange(24).reshape(2, 3, 4)
    for axis in (0, 1, -1):
        got = vk.unstack(vk.asarray(a), axis=axis)
        want = [np.take(a, i, axis=axis) for i in range(a.shape[axis])]
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), w)


check("isdtype", _isdtype)
check("unstack", _unstack)
