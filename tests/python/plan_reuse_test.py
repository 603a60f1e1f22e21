"""Schedules reused by structure (schedule/plan_cache.h): a function evaluated again over other
arrays, or a loop body over the same arrays after writes, computes the new values, against
numpy; and the reuse is what VKA_DEBUG=2 reports."""

import os
import subprocess
import sys

import numpy as np

import vkarray as vk


def formula(xp, a, b):
    # Several kernels' worth of structure: a reduction reading a fused expression, a second
    # output of another shape, constants.
    t = xp.sqrt(xp.abs(a * 1.5 + b)) - 0.25 * b
    return t, (t * a).sum(axis=0), t[::2] + 1


def test_a_function_called_again_over_other_arrays():
    rng = np.random.default_rng(0)
    for _ in range(4):
        a, b = rng.standard_normal((2, 33, 17))
        got = formula(vk, vk.asarray(a), vk.asarray(b))
        for g, want in zip(got, formula(np, a, b)):
            np.testing.assert_allclose(g.get(), want, rtol=1e-12)


def test_a_loop_body_over_the_same_arrays_after_writes():
    """x[1:] = x[:-1] * c + y (reading what it overwrites) and y += x, repeated: each iteration
    has the last one's structure over the same buffers, at a later version."""
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(64), rng.standard_normal(64)
    vx, vy = vk.asarray(x), vk.asarray(y)
    for _ in range(5):
        vx[1:] = vx[:-1] * 0.5 + vy[1:]
        x[1:] = x[:-1] * 0.5 + y[1:]
        vy += vx
        y += x
        np.testing.assert_allclose(vx.get(), x, rtol=1e-13)
    np.testing.assert_allclose(vy.get(), y, rtol=1e-13)


def test_same_structure_other_dtypes_and_constants_are_planned_anew():
    a = np.arange(10, dtype=np.float32)
    for dtype, c in ((np.float32, 2.0), (np.float64, 2.0), (np.int32, 3), (np.float32, 5.0)):
        got = (vk.asarray(a.astype(dtype)) * c + 1).get()
        np.testing.assert_array_equal(got, a.astype(dtype) * dtype(c) + 1)


def test_debug_reports_the_reuse():
    code = (
        "import numpy as np, vkarray as vk\n"
        "for _ in range(3):\n"
        "    vk.eval(vk.asarray(np.ones(8)) * 3 + 1)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, VKA_DEBUG="2"), check=True)
    lines = [l for l in run.stderr.splitlines() if "realize 1 kernel" in l]
    assert len(lines) == 3, run.stderr
    assert "schedule (reused)" not in lines[0]
    assert all("schedule (reused)" in l for l in lines[1:]), run.stderr
