"""vk.Sequence: recorded transfers, user kernels and lazy evaluations on one queue, run
synchronously or asynchronously, re-recorded, with per-operation GPU timestamps."""

import numpy as np
import pytest

import vkarray as vk

AXPB = """#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float scale = 1.0;
layout(push_constant) uniform Push { float bias; uint n; } pc;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) o[i] = a[i] * scale + pc.bias;
}
"""


@pytest.fixture(scope="module")
def axpb():
    return vk.Kernel(AXPB, local_size=(64, 1, 1), spec_consts={1: 2.0}, name="axpb")


@pytest.mark.parametrize("n", [1, 7, 1000, 1000003])
def test_write_kernel_read(axpb, n):
    data = (np.arange(n) % 101).astype(np.float32)
    x, out = vk.zeros(n, vk.float32), vk.zeros(n, vk.float32)
    seq = vk.Sequence()
    seq.record_write(x, data)
    seq.record(axpb, x, out, push_consts=[1.0, np.uint32(n)])
    r = seq.record_read(out)
    seq.eval()
    np.testing.assert_array_equal(seq.result(r), data * 2 + 1)
    np.testing.assert_array_equal(out.read(0), data * 2 + 1)
    assert len(seq) == 3


def test_reads_see_the_value_at_their_place_in_the_order(axpb):
    x, out = vk.asarray(np.ones(10, np.float32)), vk.zeros(10, vk.float32)
    seq = vk.Sequence()
    before = seq.record_read(out)
    seq.record(axpb, x, out, push_consts=[0.0, np.uint32(10)])
    after = seq.record_read(out)
    seq.record(axpb, out, out, push_consts=[0.0, np.uint32(10)])  # in place: doubles again
    last = seq.record_read(out)
    seq.eval()
    np.testing.assert_array_equal(seq.result(before), np.zeros(10))
    np.testing.assert_array_equal(seq.result(after), np.full(10, 2.0))
    np.testing.assert_array_equal(seq.result(last), np.full(10, 4.0))


def test_rerecord_takes_push_constants_and_data_again(axpb):
    data = np.arange(8, dtype=np.float32)
    push = np.array((1.0, 8), dtype=[("bias", np.float32), ("n", np.uint32)])
    x, out = vk.zeros(8, vk.float32), vk.zeros(8, vk.float32)
    seq = vk.Sequence()
    seq.record_write(x, data).record(axpb, x, out, push_consts=push)
    r = seq.record_read(out)
    seq.eval()
    np.testing.assert_array_equal(seq.result(r), data * 2 + 1)
    data[:] = 10
    push["bias"] = -3
    seq.eval()  # the recording holds the values taken when recorded
    np.testing.assert_array_equal(seq.result(r), np.arange(8) * 2 + 1)
    seq.rerecord().eval()
    np.testing.assert_array_equal(seq.result(r), np.full(8, 17.0))


def test_record_eval_runs_lazy_expressions_in_order(axpb):
    x = vk.zeros(100, vk.float32)
    y = vk.zeros(100, vk.float32)
    seq = vk.Sequence()
    seq.record_write(x, np.arange(100, dtype=np.float32))
    e = seq.record_eval(lambda: vk.sqrt(x) + 1, out=y)  # a callable: built on every run
    s = seq.record_eval(lambda: (x * 2).sum())
    seq.record(axpb, y, x, push_consts=[0.0, np.uint32(100)])  # x = 2 * y
    seq.eval()
    ref_y = np.sqrt(np.arange(100, dtype=np.float32)) + 1
    np.testing.assert_allclose(y.read(0), ref_y, rtol=1e-6)
    assert seq.result(e) is not None
    assert float(np.asarray(seq.result(s))) == 9900.0
    np.testing.assert_allclose(x.read(0), 2 * ref_y, rtol=1e-6)
    seq.eval()  # the write restores x, then everything runs again
    np.testing.assert_allclose(x.read(0), 2 * ref_y, rtol=1e-6)


def test_async_await_and_is_running(axpb):
    x, out = vk.asarray(np.ones(1000, np.float32)), vk.zeros(1000, vk.float32)
    seq = vk.Sequence()
    seq.record(axpb, x, out, push_consts=[1.0, np.uint32(1000)])
    r = seq.record_read(out)
    seq.eval_async()
    with pytest.raises(ValueError, match="running"):
        seq.eval_async()
    with pytest.raises(ValueError, match="running"):
        seq.clear()
    assert seq.eval_await(timeout=60.0) is True
    assert not seq.is_running()
    np.testing.assert_array_equal(seq.result(r), np.full(1000, 3.0))
    assert seq.eval_await() is True  # already complete
    seq.eval_async()
    assert seq.eval_await(timeout=0) in (True, False)  # no wait: done or not yet
    assert seq.eval_await() is True


def test_timestamps_are_monotonic_and_positive(axpb):
    n = 100000
    x, out = vk.asarray(np.ones(n, np.float32)), vk.zeros(n, vk.float32)
    seq = vk.Sequence()
    with pytest.raises(ValueError, match="no completed run"):
        seq.get_timestamps()
    for _ in range(4):
        seq.record(axpb, x, out, push_consts=[1.0, np.uint32(n)])
    seq.record_read(out)
    seq.eval()
    t = seq.get_timestamps(raw=True)
    d = seq.get_timestamps()
    assert len(t) == len(seq) + 1 == 6 and len(d) == 5
    assert t[0] == 0 and all(b >= a for a, b in zip(t, t[1:]))
    assert all(v >= 0 for v in d) and sum(d[:4]) > 0
    np.testing.assert_allclose(np.cumsum(d), t[1:])


def test_clear_results_and_errors(axpb):
    x = vk.zeros(4, vk.float32)
    seq = vk.Sequence()
    r = seq.record_read(x)
    with pytest.raises(IndexError):
        seq.result(r)  # no run yet
    seq.eval()
    np.testing.assert_array_equal(seq.result(r), np.zeros(4))
    seq.clear()
    assert len(seq) == 0
    with pytest.raises(IndexError):
        seq.result(r)
    with pytest.raises(ValueError, match="takes 2 arrays"):
        seq.record(axpb, x)
    with pytest.raises(ValueError, match="does not match"):
        seq.record_write(x, np.zeros(5, np.float32))
    with pytest.raises(TypeError):
        seq.record("not a kernel", x, x)
    with pytest.raises(TypeError, match="callable"):
        seq.record_eval(42)
    with pytest.raises(IndexError):
        vk.Sequence(queue=5)
    seq.eval()  # an empty sequence runs
    assert seq.get_timestamps() == []


def test_a_chosen_queue(ctx3, axpb):
    x = vk.asarray(np.arange(6, dtype=np.float32), context=ctx3)
    out = vk.asarray(np.zeros(6, np.float32), context=ctx3)
    seq = vk.Sequence(queue=2, context=ctx3)
    assert seq.queue == 2
    seq.record(axpb, x, out, push_consts=[0.5, np.uint32(6)])
    r = seq.record_read(out)
    seq.eval()
    np.testing.assert_array_equal(seq.result(r), np.arange(6) * 2 + 0.5)
    np.testing.assert_array_equal(out.read(2), np.arange(6) * 2 + 0.5)
    np.testing.assert_array_equal(out.read(0), np.zeros(6))
