"""Running out of device memory (issue 18): MemoryError naming the op, the size and the free
bytes, never the OOM killer; arrays keep their values and the library keeps working after it;
ValueError only where the byte count overflows, as numpy."""

import gc
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import vkarray as vk

MiB = 1 << 20


def _heap0(ctx):
    return next(h for h in ctx.memory_info() if h["device"] == 0 and h["heap"] == 0)


def test_more_than_the_device_holds_is_memory_error():
    name = vk.context().devices[0]["name"]
    with pytest.raises(MemoryError) as info:
        vk.empty((1 << 40,), dtype=vk.float32)
    message = str(info.value)
    assert message.startswith(
        f'[empty] cannot allocate 4.00 TiB (4398046511104 bytes) on device "{name}": heap 0 has '
    ), message
    assert re.search(r"heap 0 has [\d.]+ \w?i?B of [\d.]+ \w?i?B free", message), message


def test_a_byte_count_past_int64_is_value_error_as_in_numpy():
    with pytest.raises(ValueError, match="array is too big"):
        np.empty((1 << 62, 4), dtype=np.float32)
    with pytest.raises(ValueError, match=r"\[empty\] array is too big"):
        vk.empty((1 << 62, 4), dtype=vk.float32)
    with pytest.raises(ValueError, match="array is too big"):
        vk.zeros((1 << 40, 1 << 30), dtype=vk.float64).eval()


def test_budget_comes_from_the_device_or_the_option():
    ctx = vk.Context(devices=[0])
    heap = _heap0(ctx)
    assert heap["source"] in ("VK_EXT_memory_budget", "heap size")
    if heap["source"] == "heap size":  # lavapipe reports no VK_EXT_memory_budget
        assert heap["budget"] == heap["size"]
    small = vk.Context(devices=[0], memory_budget="48M")
    assert _heap0(small)["budget"] == 48 * MiB and _heap0(small)["source"] == "memory_budget"
    assert _heap0(vk.Context(devices=[0], memory_budget=3 * MiB))["budget"] == 3 * MiB
    for bad in ("lots", "0", "-1M"):
        with pytest.raises(ValueError, match="memory_budget"):
            vk.Context(devices=[0], memory_budget=bad)
    with pytest.raises(ValueError, match="memory_budget"):
        vk.Context(devices=[0], memory_budget=0)
    with pytest.raises(TypeError, match="memory_budget"):
        vk.Context(devices=[0], memory_budget=1.5)


def test_environment_variable_sets_the_budget():
    code = ("import vkarray as vk\n"
            "ctx = vk.context()\n"
            "print(ctx.memory_info()[0]['budget'])\n"
            "try:\n"
            "    vk.zeros((9 << 20,), dtype=vk.uint8).eval()\n"
            "except MemoryError as e:\n"
            "    print('MemoryError', e)\n")
    env = dict(os.environ, VKA_MEMORY_BUDGET="8M")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300, check=True).stdout
    lines = out.splitlines()
    assert lines[0] == str(8 * MiB), out
    assert lines[1].startswith("MemoryError [") and "cannot allocate 9.00 MiB" in lines[1], out
    assert "this device's memory_budget is 8.00 MiB" in lines[1], out


def _fill_until_memory_error(limit, make):
    # Not pytest.raises: its traceback would keep this frame, and so `held`, alive.
    held, message = [], None
    try:
        for i in range(limit):
            held.append(make(i))
    except MemoryError as e:
        message = str(e)
    assert message is not None, f"{len(held)} arrays and no MemoryError"
    return held, message


def test_256_mib_arrays_until_memory_error_then_compute():
    # No budget of vkarray's own: the device's heap (2 GiB on lavapipe, which would otherwise
    # serve allocations out of host memory until the OOM killer ends the process).
    gc.collect()  # arrays earlier tests left in cycles count against the same heap
    ctx = vk.Context(devices=[0])
    heap = _heap0(ctx)
    limit = heap["budget"] // (256 * MiB) + 1
    if heap["budget"] > 3 << 30:
        pytest.skip("a heap larger than this test may fill on the CI machine")
    # The first array is computed and kept to check; the others are allocated only (filling
    # 2 GiB on lavapipe costs seconds, and the allocations are what runs out).
    n = 64 * MiB  # 256 MiB of int32
    first = vk.full((n,), 7, dtype=vk.int32, context=ctx).eval()
    held, message = _fill_until_memory_error(
        limit, lambda i: vk.empty((n,), dtype=vk.int32, context=ctx))
    assert "[empty] cannot allocate 256.00 MiB (268435456 bytes)" in message, message
    assert len(held) + 1 < limit
    assert first[n - 1].item() == 7 and first[12345].item() == 7  # what was made is intact
    del held, first
    # 256 MiB computed again: its sum against the closed form, its end against numpy.
    y = (vk.arange(n, dtype=vk.int32, context=ctx) * 3 + 1).eval()
    assert vk.sum(y.astype(vk.int64)).item() == 3 * n * (n - 1) // 2 + n
    np.testing.assert_array_equal(y[-1000:].get(), np.arange(n - 1000, n, dtype=np.int32) * 3 + 1)


def test_small_budget_until_memory_error_then_compute():
    ctx = vk.Context(devices=[0, 0], memory_budget="64M")  # two replicas, 64 MiB each
    held, message = _fill_until_memory_error(  # 8 MiB arrays
        100, lambda i: vk.full((2 * MiB,), i, dtype=vk.int32, context=ctx).eval())
    assert [h[-1].item() for h in held] == list(range(len(held)))
    assert 5 <= len(held) <= 8, len(held)
    assert "[full] cannot allocate 8.00 MiB (8388608 bytes)" in message, message
    assert "of 64.00 MiB free (budget: this device's memory_budget)" in message, message
    assert _heap0(ctx)["device_used"] <= 64 * MiB
    del held
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((2, 1000, 700)).astype(np.float32)
    x, y = vk.asarray(a, context=ctx), vk.asarray(b, context=ctx)
    got = vk.sum(x * y + 1, axis=1)
    for replica in range(2):
        np.testing.assert_allclose(got.read(replica), np.sum(a * b + 1, axis=1), rtol=1e-5)


def test_lazy_expression_that_cannot_allocate_leaves_its_inputs_intact():
    ctx = vk.Context(devices=[0], memory_budget="64M")
    n = 4 * MiB  # 16 MiB of float32
    rng = np.random.default_rng(7)
    ha, hb = rng.standard_normal((2, n)).astype(np.float32)
    a, b = vk.asarray(ha, context=ctx), vk.asarray(hb, context=ctx)
    ballast = vk.empty((6 * MiB,), dtype=vk.float32, context=ctx)  # 24 MiB: 8 MiB stay free
    expr = vk.sin(a) * b + 1
    with pytest.raises(MemoryError, match=r"cannot allocate 16.00 MiB .* heap 0 has 8.00 MiB of "
                                          r"64.00 MiB free"):
        expr.eval()
    np.testing.assert_array_equal(a.get(), ha)
    np.testing.assert_array_equal(b.get(), hb)
    del ballast
    np.testing.assert_allclose(expr.get(), np.sin(ha) * hb + 1, rtol=1e-5, atol=1e-6)


def test_failed_writes_leave_the_array_as_it_was():
    ctx = vk.Context(devices=[0], memory_budget="64M")
    n = 4 * MiB
    hx = np.random.default_rng(9).standard_normal(n).astype(np.float32)
    x = vk.asarray(hx, context=ctx)
    x[...] = x * 2
    want = hx * 2
    np.testing.assert_array_equal(x.get(), want)
    ballast = vk.empty((42 * MiB,), dtype=vk.uint8, context=ctx)  # 6 MiB stay free
    writes = [lambda: x.__setitem__(slice(None, None, 2), np.ones(n // 2, np.float32)),
              lambda: x.__setitem__(slice(None, None, 2), vk.sort(x[1::2])),
              lambda: x.__iadd__(vk.sort(x))]
    for write in writes:
        with pytest.raises(MemoryError):
            write()
    del ballast
    np.testing.assert_array_equal(x.get(), want)
    x[::2] = x[1::2] * 3  # and with room, the write happens
    want[::2] = want[1::2] * 3
    np.testing.assert_array_equal(x.get(), want)


def test_release_cached_memory_returns_what_arrays_left():
    ctx = vk.Context(devices=[0], memory_budget="256M")
    before = _heap0(ctx)["device_used"]
    x = vk.full((MiB,), 2.0, dtype=vk.float32, context=ctx).eval()
    assert _heap0(ctx)["device_used"] >= before + 4 * MiB
    del x
    ctx.release_cached_memory()
    assert _heap0(ctx)["device_used"] == before
