"""Schedules reused by structure (schedule/plan_cache.h): a function evaluated again over other
arrays, offsets or constants, or a loop body over the same arrays after writes, computes the new
values, against numpy; and the reuse is what VKA_DEBUG=2 reports."""

import os
import subprocess
import sys

import numpy as np
import pytest

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


def test_other_constants_and_offsets_each_time():
    """A time step whose step size changes, and element writes at moving positions: one
    structure, new constants and view offsets in every evaluation."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal(40)
    vx = vk.asarray(x)
    for k in range(6):
        dt = 0.1 * (k + 1)
        vx = vx + dt * vk.sin(vx) - dt ** 2
        x = x + dt * np.sin(x) - dt ** 2
        np.testing.assert_allclose(vx.get(), x, rtol=1e-13)
    v, ref = vk.asarray(x), x.copy()
    for i in range(1, 40):
        v[i] = v[i - 1] * 0.5 + float(i)
        ref[i] = ref[i - 1] * 0.5 + float(i)
    np.testing.assert_allclose(v.get(), ref, rtol=1e-13)
    m, mref = vk.asarray(rng.standard_normal((6, 8))), None
    mref = m.get()
    for r in range(1, 6):
        m[r, 1:] = m[r - 1, :-1] * 2.0 - m[r, 1:]
        mref[r, 1:] = mref[r - 1, :-1] * 2.0 - mref[r, 1:]
    np.testing.assert_allclose(m.get(), mref, rtol=1e-13)


def test_same_structure_other_dtypes_and_constants_are_planned_anew():
    a = np.arange(10, dtype=np.float32)
    for dtype, c in ((np.float32, 2.0), (np.float64, 2.0), (np.int32, 3), (np.float32, 5.0)):
        got = (vk.asarray(a.astype(dtype)) * c + 1).get()
        np.testing.assert_array_equal(got, a.astype(dtype) * dtype(c) + 1)


def test_debug_reports_the_reuse():
    code = (
        "import numpy as np, vkarray as vk\n"
        "for k in range(4):\n"
        "    vk.eval(vk.asarray(np.ones(8)) * (3 + k) + 1)\n"
        "v = vk.zeros(8)\n"
        "float(v[0])\n"
        "for i in range(1, 5):\n"
        "    v[i] = v[i - 1] * 0.5 + 1.0\n"
        "    float(v[i])\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, VKA_DEBUG="2"), check=True)
    lines = [l for l in run.stderr.splitlines() if "realize 1 kernel" in l]
    # Four evaluations of one expression with other constants, the zeros, four writes at
    # other positions (each run by the read after it): a structure's plan is kept at its
    # second miss, reused from the third.
    assert len(lines) == 9, run.stderr
    reused = ["schedule (reused)" in l for l in lines]
    assert reused == [False, False, True, True, False, False, False, True, True], run.stderr


UNARY = ["sin", "exp", "tanh", "negative", "abs"]
BINARY = ["add", "subtract", "multiply", "maximum"]


def program(xp, views, ops, consts):
    """A fixed random structure over `views`: each step applies a unary op, or combines the
    running value with a view or with a constant."""
    t = views[0]
    for (kind, name, arg), c in zip(ops, consts):
        if kind == "unary":
            t = getattr(xp, name)(t * 0.25)
        elif kind == "view":
            t = getattr(xp, name)(t, views[arg])
        else:
            t = getattr(xp, name)(t, c)
    return t


@pytest.mark.parametrize("seed", range(8))
def test_random_structures_again_with_other_offsets_and_constants(seed):
    """One random structure per seed, evaluated five times over views at other offsets of
    the same arrays, with other constants, and written into another destination view each
    time: from the third evaluation on the plan is reused and rewritten; every result against
    numpy."""
    rng = np.random.default_rng(seed)
    n = m = int(rng.integers(2, 30))  # square blocks: one is read transposed
    steps = int(rng.integers(3, 12))
    ops = []
    for _ in range(steps):
        kind = rng.choice(["unary", "view", "const"])
        name = rng.choice(UNARY if kind == "unary" else BINARY)
        ops.append((str(kind), str(name), int(rng.integers(0, 3))))
    host = rng.standard_normal((n + 9, m + 9))
    dest_host = np.zeros((n + 9, m + 9))
    a, dest = vk.asarray(host), vk.asarray(dest_host)
    for _ in range(5):
        r0, c0 = rng.integers(0, 9, 2)
        r1, c1 = rng.integers(0, 9, 2)
        consts = rng.uniform(-2, 2, steps)

        def views(x):
            # A block, another block, and a transposed block read in place.
            return [x[r0:r0 + n, c0:c0 + m], x[r1:r1 + n, c1:c1 + m],
                    x[c1:c1 + m, r0:r0 + n].T]

        want = program(np, views(host), ops, consts)
        got = program(vk, views(a), ops, consts)
        np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-300)
        d0, e0 = rng.integers(0, 9, 2)
        dest[d0:d0 + n, e0:e0 + m] = program(vk, views(a), ops, consts)
        dest_host[d0:d0 + n, e0:e0 + m] = want
        np.testing.assert_allclose(dest.get(), dest_host, rtol=1e-12, atol=1e-300)
