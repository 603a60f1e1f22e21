"""Recorded writes (array/write.h, step 3): small writes kept instead of run, and run together
when something reads or writes what they touch. Values against numpy's eager order, including
writes into two arrays that read each other, values held across writes, and the ways a
recorded run is made to run (a read, eval, synchronize, another writer)."""
import random

import numpy as np
import pytest

import vkarray as vk


def test_nothing_runs_until_the_array_is_read():
    ref = np.arange(10, dtype=np.float64)
    x = vk.asarray(ref)
    x.get()
    before = vk.kernel_count()
    for i in range(1, 10):
        x[i] = x[i - 1] * 2 + 1
        ref[i] = ref[i - 1] * 2 + 1
    assert vk.kernel_count() == before
    np.testing.assert_array_equal(x.get(), ref)
    assert vk.kernel_count() - before == 1


@pytest.mark.parametrize("run", ["eval", "synchronize", "expression", "host write", "scatter"])
def test_every_way_of_running_a_record(run):
    ref = np.arange(8, dtype=np.float32)
    x = vk.asarray(ref)
    x.get()
    x[2] = x[1] + 10
    ref[2] = ref[1] + 10
    before = vk.kernel_count()
    if run == "eval":
        x.eval()
    elif run == "synchronize":
        vk.synchronize()
    elif run == "expression":
        y = x * 2
        np.testing.assert_array_equal(y.get(), ref * 2)
    elif run == "host write":
        ref = np.arange(8, dtype=np.float32) * 3
        x.write(ref)  # from the host, in place: runs the record first, then overwrites it
    else:
        x[[0, 7]] = 5  # a scatter
        ref[[0, 7]] = 5
    assert vk.kernel_count() > before
    np.testing.assert_array_equal(x.get(), ref)


def test_writes_into_two_arrays_that_read_each_other():
    """Gram-Schmidt's order: r[k, k] from q, q's column from r[k, k], r's row from q's
    column, ... Every write reads what a write into the other array recorded."""
    a = np.random.default_rng(10).normal(0.0, 1.0, (7, 5))
    results = []
    for xp, q, r in [(np, a.copy(), np.zeros((5, 5))), (vk, vk.asarray(a), vk.zeros((5, 5)))]:
        for k in range(5):
            r[k, k] = xp.sqrt(q[:, k] @ q[:, k])
            q[:, k] = q[:, k] / r[k, k]
            r[k, k + 1:] = q[:, k] @ q[:, k + 1:]
            q[:, k + 1:] -= xp.outer(q[:, k], r[k, k + 1:])
        results.append((np.asarray(q), np.asarray(r)))
    (want_q, want_r), (got_q, got_r) = results
    np.testing.assert_allclose(got_q, want_q, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got_r, want_r, rtol=1e-12, atol=1e-12)


def test_values_held_across_writes_keep_theirs():
    x = vk.asarray(np.arange(6, dtype=np.int32))
    t = x[0] * 2  # held by a name
    x[1] = t + 1
    u = x[1] + 100  # reads the recorded write
    x[0] = 50
    x[1] = 7
    assert int(t) == 0
    assert int(u) == 101
    np.testing.assert_array_equal(x.get(), [50, 7, 2, 3, 4, 5])


def test_a_copy_then_its_broadcast():
    """A value written into one place and read, broadcast, by another write of the same run
    is read where it was written (the 1x1 edge pad)."""
    x = vk.asarray(np.array([[39]], np.int32))
    out = vk.zeros((5, 5), dtype=np.int32)
    out[2:3, 2:3] = x
    out[2:3, 0:2] = x[:, 0:1]
    out[2:3, 3:5] = out[2:3, 2:3] + 0
    np.testing.assert_array_equal(out.get()[2], [39, 39, 39, 39, 39])


def test_mapped_arrays_are_written_at_once(ctx1):
    m = vk.mapped_empty(8, np.float32, context=ctx1)
    m[...] = np.arange(8, dtype=np.float32)
    m.flush()
    d = vk.asarray(m)
    d[3] = d[2] * 10  # the host reads the mapped memory through its own pointer
    m.invalidate()
    assert m[3] == 20


@pytest.mark.parametrize("seed", range(24))
def test_random_writes_across_buffers(seed):
    """Seeded element, row, column and strided writes and in-place updates into two arrays,
    values reading either, scalar reads between: every value as numpy's eager order gives."""
    r, rng = random.Random(seed), np.random.default_rng(seed)
    dtype = [np.float64, np.int32, np.float32][seed % 3]
    shape = (r.randint(2, 6), r.randint(2, 6))
    refs = [rng.integers(0, 9, shape).astype(dtype) for _ in range(2)]
    xs = [vk.asarray(a) for a in refs]
    for step in range(50):
        w, o = r.randrange(2), r.randrange(2)
        i, j = r.randrange(shape[0]), r.randrange(shape[1])
        kind = r.randrange(6)
        if kind == 5:
            assert float(xs[w][i, j]) == pytest.approx(refs[w][i, j], rel=1e-6), (seed, step)
            continue
        for x, y in ((xs[w], xs[o]), (refs[w], refs[o])):
            if kind == 0:
                x[i, j] = y[(i + 1) % shape[0], j] * 2 + 1
            elif kind == 1:
                x[i] = y[(i + 1) % shape[0]] - x[i]
            elif kind == 2:
                x[:, j] += y[:, (j + 1) % shape[1]]
            elif kind == 3:
                x[i, ::2] = y[i, ::2] + y[(i + 1) % shape[0], ::2]
            else:
                x[i, j] -= y[i, :].sum()
        for k in range(2):  # keep values small (int32 stays exact, floats well conditioned)
            xs[k][...] = xs[k] % 97
            refs[k][...] = refs[k] % 97
    for k in range(2):
        np.testing.assert_allclose(xs[k].get(), refs[k], rtol=1e-5, atol=1e-5)
