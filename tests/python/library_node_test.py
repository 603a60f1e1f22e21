"""Library operations (sorts and scans) as lazy graph nodes: nothing runs at the call, inputs
stay lazy and are computed when the result is needed, writes after the call do not change the
result, and bad arguments are refused at the call. Checked against numpy."""
import numpy
import pytest

import vkarray as vk

RNG = numpy.random.default_rng(20261127)
AxisError = getattr(numpy, "exceptions", numpy).AxisError


def _data(shape, dtype=numpy.float64):
    return RNG.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("make, ref", [
    (lambda x: vk.cumsum(x * 2, axis=1), lambda a: numpy.cumsum(a * 2, axis=1)),
    (lambda x: vk.cumprod(x * 0.5 + 1, axis=0), lambda a: numpy.cumprod(a * 0.5 + 1, axis=0)),
    (lambda x: vk.cumsum(x - 1), lambda a: numpy.cumsum(a - 1)),
    (lambda x: vk.sort(x * x, axis=None), lambda a: numpy.sort(a * a, axis=None)),
    (lambda x: vk.sort(x + 1), lambda a: numpy.sort(a + 1)),
    (lambda x: vk.sort(numpy.abs(x), axis=0), lambda a: numpy.sort(numpy.abs(a), axis=0)),
    (lambda x: vk.argsort(x * 3, axis=0), lambda a: numpy.argsort(a * 3, axis=0, kind="stable")),
    (lambda x: vk.maximum.accumulate(x * x, axis=1),
     lambda a: numpy.maximum.accumulate(a * a, axis=1)),
])
def test_nothing_runs_until_the_value_is_needed(make, ref):
    a = _data((37, 300))
    x = vk.asarray(a)
    before = vk.kernel_count()
    y = make(x)
    assert vk.kernel_count() == before, "the call ran kernels"
    got = numpy.asarray(y)
    assert vk.kernel_count() > before
    want = ref(a)
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype.kind == "f":
        numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    else:
        numpy.testing.assert_array_equal(got, want)


def test_library_nodes_inside_expressions_and_each_other():
    a = _data(1000)
    x = vk.asarray(a)
    t = x + 1
    r = vk.sort(t) + vk.cumsum(t) + vk.sort(x * 3)[::-1]
    q = vk.sort(vk.cumsum(t) * vk.sort(t))
    numpy.testing.assert_allclose(
        numpy.asarray(r), numpy.sort(a + 1) + numpy.cumsum(a + 1) + numpy.sort(a * 3)[::-1],
        rtol=1e-12, atol=1e-12)
    numpy.testing.assert_allclose(
        numpy.asarray(q), numpy.sort(numpy.cumsum(a + 1) * numpy.sort(a + 1)), rtol=1e-12)


def test_a_value_read_twice_is_computed_once():
    a = _data(4096)
    x = vk.asarray(a)
    n0 = vk.kernel_count()
    vk.sort(x + 1).eval()
    alone = vk.kernel_count() - n0  # the input's kernel and the sort's
    s = vk.sort(x + 1)
    u, v = s + 1, s * 2
    n1 = vk.kernel_count()
    vk.eval(u, v)
    # One more kernel writes both readers; the sort and its input ran once.
    assert vk.kernel_count() - n1 == alone + 1
    numpy.testing.assert_array_equal(numpy.asarray(u), numpy.sort(a + 1) + 1)
    numpy.testing.assert_array_equal(numpy.asarray(v), numpy.sort(a + 1) * 2)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int32, numpy.bool_])
def test_writes_after_the_call_leave_the_result_as_it_was(dtype):
    a = (RNG.standard_normal(500) * 10).astype(dtype)
    base = vk.asarray(a)
    view = base[3:]
    c = vk.cumsum(view)
    s = vk.sort(base)
    base[:] = base[::-1]  # every element changes place
    view[0] = 1
    numpy.testing.assert_array_equal(numpy.asarray(s), numpy.sort(a))
    want = numpy.cumsum(a[3:])
    if numpy.dtype(dtype).kind == "f":
        numpy.testing.assert_allclose(numpy.asarray(c), want, rtol=1e-5, atol=1e-4)
    else:
        numpy.testing.assert_array_equal(numpy.asarray(c), want)


def test_bad_arguments_are_refused_at_the_call():
    x = vk.asarray(_data((4, 5)))
    before = vk.kernel_count()
    with pytest.raises(AxisError, match="cumsum"):
        vk.cumsum(x * 2, axis=2)
    with pytest.raises(AxisError, match="sort"):
        vk.sort(x + 1, axis=-3)
    with pytest.raises(ValueError, match=r"kth\(=5\) out of bounds \(5\)"):
        vk.partition(x + 1, 5)
    with pytest.raises(TypeError, match="scalar"):
        vk.maximum.accumulate(vk.asarray(numpy.float64(1)) + 1)
    assert vk.kernel_count() == before


def test_results_into_out_and_destinations():
    a = _data((8, 64))
    x = vk.asarray(a)
    out = vk.zeros((8, 64))
    vk.cumsum(x * 2, axis=1, out=out)
    numpy.testing.assert_allclose(numpy.asarray(out), numpy.cumsum(a * 2, axis=1), rtol=1e-12)
    y = vk.zeros((8, 64))
    y[:, :] = vk.sort(x - 1, axis=1)
    numpy.testing.assert_array_equal(numpy.asarray(y), numpy.sort(a - 1, axis=1))
