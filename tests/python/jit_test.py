"""vkarray.jit against numpy and against calling the function: replays give the function's
values for new inputs without running its Python, a new layout or static value records again,
and functions with effects (reads, writes, uploads, random draws) are called every time."""

import os
import subprocess
import sys

import numpy as np
import pytest

import vkarray as vk


class Counted:
    """fn with a count of the times its Python ran."""

    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.fn(*args, **kwargs)


def formula(xp, x, y):
    # Views of an input, constants, reuse and two results: what a recording must rebuild.
    d = x[1:] - x[:-1]
    s = xp.sqrt(y[1:] * y[1:] + 1.0)
    r = (d * 0.5 + s) * (d - 3.25) / s
    return r, xp.tanh(r) + y[1:]


def arrays(n, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-2, 2, n), rng.uniform(0, 3, n)


def test_replays_the_formula_for_new_inputs_without_its_python():
    f = Counted(lambda x, y: formula(vk, x, y))
    jf = vk.jit(f)
    for seed in range(4):
        xh, yh = arrays(1000, seed)
        x, y = vk.asarray(xh), vk.asarray(yh)
        k0 = vk.kernel_count()
        got = jf(x, y)
        assert isinstance(got, tuple) and len(got) == 2
        assert all(g.is_lazy for g in got)  # results stay lazy, as the function's would
        vk.eval(*got)
        assert vk.kernel_count() - k0 == 1  # both results, one fused kernel
        want = formula(np, xh, yh)
        plain = formula(vk, x, y)
        for g, w, p in zip(got, want, plain):
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-13, atol=1e-15)
            # The replay builds the same graph: the same kernel, the same bits.
            np.testing.assert_array_equal(np.asarray(g), np.asarray(p))
    assert f.calls == 1


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64"])
def test_dtypes_and_shapes_record_once_each(dtype):
    f = Counted(lambda a: a * 3 + a[::-1])
    jf = vk.jit(f)
    for n in (5, 8, 5, 8):
        h = (np.arange(n) - 2).astype(dtype)
        np.testing.assert_array_equal(np.asarray(jf(vk.asarray(h))), h * 3 + h[::-1])
    assert f.calls == 2
    # Another dtype, another recording.
    jf(vk.asarray(np.arange(5.0)))
    assert f.calls == 3


def test_strided_and_aliased_inputs_are_layouts_of_their_own():
    f = Counted(lambda a, b: a * 2 - b)
    jf = vk.jit(f)
    h = np.arange(24.0).reshape(4, 6)
    x = vk.asarray(h)
    np.testing.assert_array_equal(np.asarray(jf(x, x)), h)  # one buffer, twice
    y = vk.asarray(h + 100)
    np.testing.assert_array_equal(np.asarray(jf(x, y)), h * 2 - (h + 100))
    assert f.calls == 2
    np.testing.assert_array_equal(np.asarray(jf(x[:, ::2], y[:, 1::2])),
                                  h[:, ::2] * 2 - (h + 100)[:, 1::2])
    np.testing.assert_array_equal(np.asarray(jf(y[:, ::2], x[:, 1::2])),
                                  (h + 100)[:, ::2] * 2 - h[:, 1::2])
    assert f.calls == 3  # both calls view one buffer each at the same strides
    t = vk.asarray(h.T.copy())
    np.testing.assert_array_equal(np.asarray(jf(t.T, x)), h)
    assert f.calls == 4


def test_static_arguments_and_keywords_key_the_recording():
    f = Counted(lambda a, c, *, power=2: a ** power + c)
    jf = vk.jit(f)
    h = np.linspace(-1, 1, 7)
    x = vk.asarray(h)
    for c, p in [(1.0, 2), (1.0, 2), (2.5, 2), (1.0, 3), (-0.0, 2), (0.0, 2)]:
        np.testing.assert_array_equal(np.asarray(jf(x, c, power=p)), h ** p + c)
    assert f.calls == 5  # (1.0, 2) replayed; 0.0 and -0.0 are values of their own


def test_lazy_inputs_are_computed_first():
    f = Counted(lambda a: a + 1)
    jf = vk.jit(f)
    for start in (0.0, 10.0):
        lazy = vk.arange(6.0) * 2 + start
        np.testing.assert_array_equal(np.asarray(jf(lazy)), np.arange(6.0) * 2 + start + 1)
    assert f.calls == 1
    # A lazy constant (zeros) is computed too: its value is not folded into the recording.
    np.testing.assert_array_equal(np.asarray(jf(vk.zeros(6))), np.ones(6))
    np.testing.assert_array_equal(np.asarray(jf(vk.full(6, 4.0))), np.full(6, 5.0))


def test_results_fuse_with_what_follows():
    jf = vk.jit(lambda a: vk.exp(a) - 1)
    h = np.linspace(0, 1, 100)
    jf(vk.asarray(h))
    x = vk.asarray(h)
    k0 = vk.kernel_count()
    total = (jf(x) * 2).sum()
    np.testing.assert_allclose(float(total), (np.expm1(h) * 2).sum(), rtol=1e-12)
    assert vk.kernel_count() - k0 == 1


def test_arguments_returned_as_they_are_and_static_results():
    jf = vk.jit(lambda a, b: (a, [b * 2, None], 7))
    x, y = vk.asarray(np.ones(3)), vk.asarray(np.arange(3.0))
    for _ in range(2):
        a, (b, none), seven = jf(x, y)
        assert a is x and none is None and seven == 7
        np.testing.assert_array_equal(np.asarray(b), [0, 2, 4])


def _reads_a_value(a, xp=vk):
    return a * 2 if float(a[0]) > 0 else a * -2


def _writes_its_input(a, xp=vk):
    a[0] = 100.0
    return a + 1


def _uploads(a, xp=vk):
    return a + xp.asarray([1.0, 2.0, 3.0])


@pytest.mark.parametrize("fn, reason", [(_reads_a_value, "reads"), (_writes_its_input, "writes"),
                                        (_uploads, "uploads")])
def test_functions_with_effects_are_called_every_time(fn, reason, capfd):
    f = Counted(fn)
    jf = vk.jit(f)
    for first in (1.0, -1.0, 2.0):
        h = np.array([first, 2.0, 3.0])
        x, x_np = vk.asarray(h), h.copy()
        got = np.asarray(jf(x))
        want = fn(x_np, np)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.asarray(x), x_np)  # the same writes as numpy's
    assert f.calls == 3, reason


def test_random_draws_are_new_at_every_call():
    rng = vk.random.default_rng(3)
    f = Counted(lambda a: a + rng.random(4))
    jf = vk.jit(f)
    x = vk.asarray(np.zeros(4))
    first, second = np.asarray(jf(x)), np.asarray(jf(x))
    assert f.calls == 2
    assert not np.array_equal(first, second)
    # The generator's first two draws, as unrecorded calls make them.
    want = vk.random.default_rng(3)
    np.testing.assert_array_equal(first, np.asarray(want.random(4)))
    np.testing.assert_array_equal(second, np.asarray(want.random(4)))


def test_an_array_written_in_place_since_the_recording_is_read_again():
    table = vk.asarray(np.arange(4.0))
    view = table[1:]  # table is storage: writes go in place
    f = Counted(lambda a: a * table)
    jf = vk.jit(f)
    x = vk.asarray(np.ones(4))
    np.testing.assert_array_equal(np.asarray(jf(x)), np.arange(4.0))
    table[0] = 50.0
    np.testing.assert_array_equal(np.asarray(jf(x)), [50.0, 1, 2, 3])
    assert f.calls == 2
    np.testing.assert_array_equal(np.asarray(view), [1, 2, 3])


def test_other_argument_types_make_ordinary_calls():
    f = Counted(lambda a, h: a + vk.asarray(h))
    jf = vk.jit(f)
    x = vk.asarray(np.ones(2))
    for k in range(3):
        np.testing.assert_array_equal(np.asarray(jf(x, np.full(2, float(k)))), 1.0 + k)
    assert f.calls == 3


def test_decorator_forms_and_errors():
    @vk.jit
    def square(a):
        return a * a

    @vk.jit()
    def cube(a):
        return a * a * a

    x = vk.asarray(np.arange(3.0))
    np.testing.assert_array_equal(np.asarray(square(x)), [0, 1, 4])
    np.testing.assert_array_equal(np.asarray(cube(x)), [0, 1, 8])
    assert square.__name__ == "square"
    with pytest.raises(TypeError, match=r"\[jit\] expected a function, got int"):
        vk.jit(3)


def test_exceptions_propagate_and_record_nothing():
    f = Counted(lambda a, b: a + b)
    jf = vk.jit(f)
    with pytest.raises(ValueError, match="broadcast"):
        jf(vk.asarray(np.ones(3)), vk.asarray(np.ones(4)))
    with pytest.raises(ValueError, match="broadcast"):
        jf(vk.asarray(np.ones(3)), vk.asarray(np.ones(4)))
    assert f.calls == 2


def test_nested_recordings():
    inner = vk.jit(lambda a: a * 2 + 1)
    outer_f = Counted(lambda a, b: inner(a) - inner(b))
    outer = vk.jit(outer_f)
    for k in range(3):
        ha, hb = np.arange(5.0) + k, np.arange(5.0) * k
        np.testing.assert_array_equal(np.asarray(outer(vk.asarray(ha), vk.asarray(hb))),
                                      (ha * 2 + 1) - (hb * 2 + 1))
    assert outer_f.calls == 1


def test_debug_names_why_a_function_is_called_each_time():
    code = ("import vkarray as vk, numpy as np\n"
            "f = vk.jit(lambda a: a * float(a[0]))\n"
            "f(vk.asarray(np.ones(3)))\n")
    env = dict(os.environ, VKA_DEBUG="1")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       check=True)
    assert "jit(<lambda>): calls it each time for these inputs: it evaluates, reads or " \
           "writes an array" in r.stderr


def test_reductions_products_and_library_operations_replay():
    def fn(xp, a, b):
        return (xp.cumsum(a * 2, axis=1) + xp.sort(a, axis=1), (a @ b).sum(axis=0),
                a.max() - a.mean())

    f = Counted(lambda a, b: fn(vk, a, b))
    jf = vk.jit(f)
    rng = np.random.default_rng(0)
    for _ in range(3):
        ha, hb = rng.standard_normal((6, 5)), rng.standard_normal((5, 4))
        got = jf(vk.asarray(ha), vk.asarray(hb))
        for g, w in zip(got, fn(np, ha, hb)):
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=1e-12)
    assert f.calls == 1


def test_a_view_past_its_argument_is_not_replayed():
    # as_strided reaching past the argument into its base: another call's argument may not
    # have those elements, so the function is called each time.
    f = Counted(lambda a: vk.as_strided(a, (5,), (8,)) * 2)
    jf = vk.jit(f)
    for k in range(2):
        h = np.arange(10.0) + 100 * k
        got = np.asarray(jf(vk.asarray(h)[2:5]))
        np.testing.assert_array_equal(got, h[2:7] * 2)
    assert f.calls == 2


def test_the_equation_of_state_program_runs_its_python_once():
    # benchmarks/dropin/seawater_eos.py (277 numpy operations, 128 constants, broadcast
    # inputs): recorded at the first call, replayed for new salinities and temperatures with
    # numpy's results and the plain call's bits, one kernel a call.
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    from benchmarks.dropin import seawater_eos as eos

    f = Counted(lambda *a: eos.kernel(vk, *a))
    jf = vk.jit(f)
    for seed in range(3):
        host = list(eos.initialize(eos.SIZES["small"], np))
        host[0] = host[0] + seed  # other salinities each call
        args = [vk.asarray(h) if isinstance(h, np.ndarray) else h for h in host]
        got = jf(*args)
        before = vk.kernel_count()
        vk.eval(*got)
        assert vk.kernel_count() - before == 1
        for g, p, w in zip(got, eos.kernel(vk, *args), eos.kernel(np, *host)):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(p))
            np.testing.assert_allclose(np.asarray(g), w, rtol=eos.RTOL, atol=eos.ATOL)
    assert f.calls == 1
