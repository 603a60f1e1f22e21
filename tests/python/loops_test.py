"""Python loops of small operations as numpy users write them: element writes, in-place updates,
0-d accumulations and scalar reads, against numpy, with vkarray's kernel and submission counts
(the work such loops record and how it reaches the device)."""

import random

import numpy as np
import pytest

import vkarray as vk
from views_testing import random_data, check


def submits():
    return vk.replicas.stream_stats()[0]["submits"]


def test_element_recurrence_is_one_kernel_per_64_writes():
    """v[i] = v[i - 1] * 0.5 + 1.0: each write is recorded (write.h, step 3), reading the value
    the write before it recorded; a run of 64 becomes one kernel (the recurrence computed in
    one invocation), and the last run is one more when v is read."""
    n = 600
    ref = np.random.default_rng(3).uniform(-1, 1, n + 1)
    v = vk.asarray(ref)
    float(v[0])
    k0, s0 = vk.kernel_count(), submits()
    for i in range(1, n + 1):
        v[i] = v[i - 1] * 0.5 + 1.0
        ref[i] = ref[i - 1] * 0.5 + 1.0
    kernels = vk.kernel_count() - k0
    assert kernels == n // 64, kernels  # the full runs, each when the next write found it full
    np.testing.assert_array_equal(v.get(), ref)
    assert vk.kernel_count() - k0 == n // 64 + 1
    assert 1 <= submits() - s0 <= n // 64 + 2


def test_scalar_reads_inside_the_loop():
    """`if x[i] > tol:` and float(x[i]) between writes read the values written so far."""
    ref = np.linspace(-1.0, 1.0, 50)
    x = vk.asarray(ref)
    taken = []
    for i in range(1, 50):
        if x[i - 1] > 0:
            x[i] = x[i - 1] * 0.5
        else:
            x[i] += float(x[i - 1])
        if ref[i - 1] > 0:
            ref[i] = ref[i - 1] * 0.5
        else:
            ref[i] += float(ref[i - 1])
        taken.append(x[i].item())
    np.testing.assert_array_equal(x.get(), ref)
    np.testing.assert_array_equal(taken, ref[1:])


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64])
def test_inplace_element_update_is_one_kernel(dtype):
    """x[i, j] += v ends with Python's x[i, j] = <the view just updated>, which writes nothing
    again; the updates are recorded, and run as one kernel when x is read."""
    ref = random_data(np.random.default_rng(4), (5, 6), dtype, 0, 9)
    x = vk.asarray(ref)
    x.get()
    before = vk.kernel_count()
    for i in range(5):
        x[i, (i * 2) % 6] += 3
        ref[i, (i * 2) % 6] += 3
    assert vk.kernel_count() == before
    np.testing.assert_array_equal(x.get(), ref)
    assert vk.kernel_count() - before == 1


def test_lu_inner_step():
    """B[i, j] -= B[i, :j] @ B[:j, j] over a lower triangle (LU's inner step, Doolittle): at
    most two kernels per step, the dot product's reduction and the fused subtract-and-write
    (a row's first step may be recorded; the next reads part of what it wrote, which runs
    it)."""
    n = 12
    ref = np.random.default_rng(5).uniform(-1, 1, (n, n)) + n * np.eye(n)
    B = vk.asarray(ref)
    B.get()
    before, steps = vk.kernel_count(), 0
    for i in range(1, n):
        for j in range(1, i):
            B[i, j] -= B[i, :j] @ B[:j, j]
            ref[i, j] -= ref[i, :j] @ ref[:j, j]
            steps += 1
    np.testing.assert_allclose(B.get(), ref, rtol=1e-14, atol=1e-14)
    assert vk.kernel_count() - before <= 2 * steps


def test_zero_d_accumulation_is_one_kernel():
    """t += tanh(A[i, i]) over the diagonal: nothing runs in the loop; the read is one kernel
    over every 0-d view of A (12 tanh: within any device's transcendental limit, 16 on CPU
    devices)."""
    ref = np.random.default_rng(6).uniform(-1, 1, (12, 12))
    A = vk.asarray(ref)
    A.get()
    before = vk.kernel_count()
    t, t_ref = 0.0, 0.0
    for i in range(12):
        t += vk.tanh(A[i, i])
        t_ref += np.tanh(ref[i, i])
    assert vk.kernel_count() == before
    assert float(t) == pytest.approx(t_ref, rel=1e-14)
    assert vk.kernel_count() - before == 1


@pytest.mark.parametrize("seed", range(16))
def test_random_loops_of_writes_reads_and_expressions(seed):
    """Seeded sequences of element, row, column and strided writes, in-place updates, scalar
    reads and lazy expressions held across writes, on overlapping views of one array, mirrored
    on numpy: every value as numpy's eager evaluation gives it."""
    r, rng = random.Random(seed), np.random.default_rng(seed)
    dtype = [np.float64, np.float32, np.int32, np.int16][seed % 4]
    shape = (r.randint(3, 7), r.randint(3, 7))
    ref = random_data(rng, shape, dtype, 0, 9)
    x = vk.asarray(ref)
    held = []  # (vkarray expression, numpy value when it was made)
    for step in range(40):
        i, j = r.randrange(shape[0]), r.randrange(shape[1])
        kind = r.randrange(7)
        context = (seed, step, kind, i, j)
        if kind == 0:
            x[i, j] = x[(i + 1) % shape[0], j] * 2 + 1
            ref[i, j] = ref[(i + 1) % shape[0], j] * 2 + 1
        elif kind == 1:
            x[i] = x[(i + 1) % shape[0]] - x[i]
            ref[i] = ref[(i + 1) % shape[0]] - ref[i]
        elif kind == 2:
            x[:, j] += x[:, (j + 1) % shape[1]]
            ref[:, j] += ref[:, (j + 1) % shape[1]]
        elif kind == 3:
            x[::2, ::-1] = x[::2, :] + 1
            ref[::2, ::-1] = ref[::2, :] + 1
        elif kind == 4:
            assert x[i, j].item() == ref[i, j], context
        elif kind == 5:
            held.append((x[i] * 3 + x[:, j].max(), ref[i] * 3 + ref[:, j].max()))
        else:
            v = x[i, :j + 1]
            v *= 2
            ref[i, :j + 1] *= 2
        # Values stay quarter-integers below 1000, so every sum, in any order, is exact.
        x %= 1000
        ref %= 1000
    check(x, ref, (seed, "final"))
    for k, (expr, value) in enumerate(held):
        check(expr, value, (seed, "held", k))


DURBIN = """
import sys
import numpy as np
import vkarray as vk
n = int(sys.argv[1])
lag = np.arange(1, n + 1)
r_host = 0.6 * 0.9 ** lag + 0.4 * (-0.5) ** lag
for xp, r in ((np, r_host), (vk, vk.asarray(r_host))):
    y = xp.zeros_like(r)
    y[0] = -r[0]
    beta, alpha = 1.0, -r[0]
    for k in range(1, n):
        beta = (1.0 - alpha * alpha) * beta
        alpha = -(r[k] + xp.flip(r[:k]) @ y[:k]) / beta
        y[:k] = y[:k] + alpha * xp.flip(y[:k])
        y[k] = alpha
    if xp is np:
        want = y
np.testing.assert_allclose(y.get(), want, rtol=1e-9, atol=1e-12)  # durbin.py's
"""


def test_scalar_recurrence_compiles_a_bounded_set_of_kernels():
    """Durbin's recursion keeps beta = (1 - alpha**2) * beta as a lazy 0-d value read through
    later writes. Held small values are kept when computed (runtime/held_values.h), so
    the recurrence does not grow into a longer kernel, compiled anew, every iteration: twice the
    iterations compile no more kernels (cold kernel cache), and the result matches numpy."""
    import os
    import subprocess
    import sys

    def compiles(n):
        run = subprocess.run([sys.executable, "-c", DURBIN, str(n)], capture_output=True,
                             text=True, env=dict(os.environ, VKA_DEBUG="2", VKA_CACHE_DIR=""))
        assert run.returncode == 0, run.stderr[-3000:]
        return run.stderr.count("[cache] compile")

    short, long = compiles(30), compiles(60)
    assert long <= short + 2, (short, long)
