"""vk.profile(): every kernel dispatched inside, with name, replica, GPU time and bytes."""

import math

import numpy as np
import pytest

import vkarray as vk

COPY = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer B { float b[]; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < b.length()) b[i] = a[i]; }
"""


def test_fused_expression_is_one_record_and_unfused_two():
    a = vk.asarray(np.arange(1000, dtype=np.float32))
    b = vk.asarray(np.ones(1000, np.float32))
    with vk.profile() as fused:
        (a * b + a).eval()
    assert fused.count == 1
    rec = fused.records[0]
    assert rec.replica == 0 and rec.gpu_ns >= 0 and rec.bytes >= 3 * 4000
    with vk.profile() as unfused:
        t = (a * b).eval()
        (t + a).eval()
    assert unfused.count == 2
    assert unfused.total_bytes == sum(r.bytes for r in unfused.records)
    assert math.isclose(unfused.total_ns, sum(r.gpu_ns for r in unfused.records))


def test_user_and_library_kernels_are_recorded():
    k = vk.Kernel(COPY, name="my_copy")
    x = vk.asarray(np.arange(777, dtype=np.float32))
    out = vk.asarray(np.zeros(777, np.float32))
    with vk.profile() as prof:
        k(x, out)
        vk.cumsum(x).eval()  # a library scan
    names = [r.name for r in prof.records]
    assert names[0] == "my_copy" and prof.records[0].bytes == 2 * 777 * 4
    assert len(names) >= 2 and all(n for n in names[1:])
    np.testing.assert_array_equal(out.read(0), np.arange(777))
    lazy = vk.zeros(777, vk.float32)  # a lazy output is computed first: a kernel of its own
    with vk.profile() as prof:
        k(x, lazy)
    assert [r.name for r in prof.records][1:] == ["my_copy"] and prof.count == 2


def test_vkfft_work_is_recorded_as_external():
    a = vk.asarray(np.arange(1024, dtype=np.complex64))
    with vk.profile() as prof:
        y = vk.fft.fft(a)
        y.eval()
    names = [r.name for r in prof.records]
    assert "external" in names
    np.testing.assert_allclose(y.read(0), np.fft.fft(np.arange(1024)), rtol=1e-3, atol=1e-2)


def test_table_and_totals():
    a = vk.asarray(np.arange(10, dtype=np.float32))
    with vk.profile() as prof:
        (a + 1).eval()
        (a.sum()).eval()
    text = prof.table()
    assert str(prof) == text
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["#", "kernel", "replica"]
    assert f"total ({prof.count} kernels)" in text
    assert len(lines) == prof.count + 4  # header, rule, rows, rule, total
    assert prof.total_ns > 0


def test_nothing_is_recorded_outside_and_profiles_do_not_nest():
    a = vk.asarray(np.arange(10, dtype=np.float32))
    with vk.profile() as prof:
        with pytest.raises(ValueError, match="already active"):
            with vk.profile():
                pass
    (a * 3).eval()
    assert prof.count == 0
    with vk.profile() as again:  # the failed inner profile left none active
        (a * 4).eval()
    assert again.count == 1


def test_every_replica_is_recorded(ctx3):
    a = vk.asarray(np.arange(100, dtype=np.float32), context=ctx3)
    with vk.profile(context=ctx3) as prof:
        (a * 2 + 1).eval()
    assert sorted(r.replica for r in prof.records) == [0, 1, 2]
    assert len({r.name for r in prof.records}) == 1
