"""The cupy shim's own tests (run by tests/cupy_suite/cupy_suite_test.py in a subprocess with
the shim on the path): its cupy.testing decorators pass what numpy and vkarray agree on and
fail what they do not, and its CUDA stubs skip."""

import unittest

import numpy
import pytest

import cupy
import vkarray
from cupy import testing


def test_cupy_is_vkarray():
    assert cupy.ndarray is vkarray.ndarray
    assert cupy.add is vkarray.add
    assert cupy.linalg.solve is vkarray.linalg.solve
    assert cupy.fft.fft is vkarray.fft.fft
    a = cupy.arange(3)
    assert cupy.get_array_module(a) is cupy
    assert cupy.get_array_module(numpy.arange(3)) is numpy
    numpy.testing.assert_array_equal(cupy.asnumpy(a), [0, 1, 2])
    with pytest.raises(AttributeError, match="vkarray has no attribute"):
        cupy.no_such_function


def test_allclose_passes_agreeing_results():
    @testing.for_float_dtypes()
    @testing.numpy_cupy_allclose(rtol=1e-3)
    def f(xp, dtype):
        return xp.sin(xp.arange(6, dtype=dtype).reshape(2, 3))
    f()


def test_allclose_fails_differing_values():
    @testing.numpy_cupy_allclose()
    def f(xp):
        return xp.arange(3.0) + (1.0 if xp is cupy else 0.0)
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        f()


def test_core_get_size_is_cupys_size_normalization():
    assert cupy._core.get_size(None) == ()
    assert cupy._core.get_size(3) == (3,)
    assert cupy._core.get_size(numpy.int64(2)) == (2,)
    assert cupy._core.get_size([2, 3]) == (2, 3)


def test_poly1d_results_compare_by_coefficients():
    @testing.numpy_cupy_array_equal()
    def same(xp):
        return xp.poly1d(xp.asarray([1.0, 2.0, 3.0])) * 2

    @testing.numpy_cupy_array_equal()
    def different(xp):
        return xp.poly1d(xp.asarray([1.0, 2.0, 3.0 if xp is numpy else 4.0]))

    same()
    with pytest.raises(AssertionError):
        different()


def test_allclose_tolerance_by_dtype():
    @testing.for_dtypes([numpy.float16, numpy.float64])
    @testing.numpy_cupy_allclose(rtol={numpy.float16: 1e-2, "default": 1e-12})
    def f(xp, dtype):
        return xp.array([1.0], dtype=dtype) * (1.001 if xp is cupy else 1.0)
    with pytest.raises(AssertionError) as e:
        f()
    assert "failed for 1 of 2 cases: dtype=float64" in e.value.__notes__[0]


def test_type_check():
    @testing.numpy_cupy_array_equal()
    def f(xp):
        return xp.zeros(2, dtype=numpy.float32 if xp is cupy else numpy.float64)
    with pytest.raises(AssertionError, match="dtype differs"):
        f()

    @testing.numpy_cupy_array_equal(type_check=False)
    def g(xp):
        return xp.zeros(2, dtype=numpy.float32 if xp is cupy else numpy.float64)
    g()


def test_host_array_is_not_a_device_result():
    @testing.numpy_cupy_array_equal()
    def f(xp):
        return numpy.zeros(2)
    with pytest.raises(AssertionError, match="vkarray numpy.ndarray"):
        f()


def test_scalar_results():
    @testing.numpy_cupy_allclose()
    def f(xp):
        return xp.arange(4.0).sum()  # numpy: a numpy.float64, vkarray: a 0-d array
    f()

    @testing.numpy_cupy_equal()
    def g(xp):
        return xp.arange(4).shape
    g()


def test_accept_error():
    @testing.numpy_cupy_allclose(accept_error=ValueError)
    def both(xp):
        xp.ones((2, 3)).reshape(4)
    both()

    @testing.numpy_cupy_allclose(accept_error=TypeError)
    def not_accepted(xp):
        xp.ones((2, 3)).reshape(4)
    with pytest.raises(AssertionError, match="accepts no error"):
        not_accepted()

    @testing.numpy_cupy_allclose(accept_error=True)
    def only_numpy(xp):
        if xp is numpy:
            raise ValueError("numpy only")
        return xp.ones(1)
    with pytest.raises(AssertionError, match="but vkarray did not"):
        only_numpy()

    @testing.numpy_cupy_allclose(accept_error=True)
    def only_vkarray(xp):
        if xp is cupy:
            raise KeyError("vkarray only")
        return xp.ones(1)
    with pytest.raises(KeyError):
        only_vkarray()


def test_dtype_loops():
    seen = []

    @testing.for_all_dtypes(no_complex=True)
    def f(dtype):
        seen.append(dtype)
    f()
    assert numpy.bool_ in seen and numpy.complex64 not in seen and len(seen) == 12

    pairs = []

    @testing.for_all_dtypes_combination(names=("a", "b"))
    def g(a, b):
        pairs.append((a, b))
    g()
    assert len(set(pairs)) == len(pairs) == 28
    for position in (0, 1):
        assert {p[position] for p in pairs} == set(testing._loops._all())


def test_loop_skips_only_when_every_case_skips():
    @testing.for_dtypes([numpy.int8, numpy.int16])
    def some(dtype):
        if dtype == numpy.int8:
            pytest.skip("int8")
    some()

    @testing.for_dtypes([numpy.int8, numpy.int16])
    def every(dtype):
        pytest.skip("all")
    with pytest.raises(pytest.skip.Exception):
        every()


def test_shaped_data():
    a = testing.shaped_arange((2, 3), cupy, numpy.int32)
    assert isinstance(a, vkarray.ndarray)
    numpy.testing.assert_array_equal(cupy.asnumpy(a), [[1, 2, 3], [4, 5, 6]])
    numpy.testing.assert_array_equal(testing.shaped_reverse_arange((3,), numpy, numpy.int8),
                                     [3, 2, 1])
    r1 = testing.shaped_random((4, 5), numpy, numpy.float64, scale=2, seed=3)
    r2 = testing.shaped_random((4, 5), cupy, numpy.float64, scale=2, seed=3)
    numpy.testing.assert_array_equal(r1, cupy.asnumpy(r2))
    assert 0 <= r1.min() and r1.max() < 2
    assert set(numpy.unique(testing.shaped_random((50,), numpy, numpy.bool_))) == {False, True}


def test_product():
    assert testing.product({"a": [1, 2], "b": [3]}) == [{"a": 1, "b": 3}, {"a": 2, "b": 3}]
    assert testing.product_dict([{"a": 1}, {"a": 2}], [{"b": 3}]) == [
        {"a": 1, "b": 3}, {"a": 2, "b": 3}]


@testing.parameterize(*testing.product({"n": [1, 2], "m": [3]}))
class TestParameterized(unittest.TestCase):
    """Collected as TestParameterized_param_0_{m=3,n=1} and ..._param_1_{m=3,n=2}."""

    def test_attributes(self):
        assert self.m == 3 and self.n in (1, 2)


def test_parameterize_generated_classes():
    assert not TestParameterized.__test__
    names = sorted(n for n in globals() if n.startswith("TestParameterized_param_"))
    assert names == ["TestParameterized_param_0_{m=3,n=1}",
                     "TestParameterized_param_1_{m=3,n=2}"]


def test_with_requires():
    assert testing.installed("numpy")
    assert not testing.installed("numpy<1.0")
    assert testing.numpy_satisfies(">=1.0")


def test_repeat_with_success_at_least():
    calls = []

    @testing._condition.repeat_with_success_at_least(5, 2)
    def f():
        calls.append(1)
        if len(calls) == 1:
            raise AssertionError("first run fails")
    f()
    assert len(calls) == 3  # one failure, then two successes decide it

    @testing._condition.repeat(3)
    def g():
        raise AssertionError("always")
    with pytest.raises(AssertionError, match="always") as e:
        g()
    assert e.value.__notes__ == ["0 of 1 runs passed, 3 of 3 needed"]


def test_chi_square():
    assert testing._hypothesis.chi_square_test(numpy.array([98, 102]), numpy.array([100, 100]))
    assert not testing._hypothesis.chi_square_test(numpy.array([150, 50]),
                                                   numpy.array([100, 100]))


def test_stream_skips():
    with pytest.raises(pytest.skip.Exception, match="CUDA streams"):
        cupy.cuda.Stream()


def test_raw_kernel_skips():
    with pytest.raises(pytest.skip.Exception, match="CUDA C"):
        cupy.ElementwiseKernel("T x", "T y", "y = x", "copy")


def test_private_module_skips():
    from cupy._core import _accelerator
    with pytest.raises(pytest.skip.Exception, match="CUB and cuTENSOR"):
        _accelerator.get_routine_accelerators()


def test_device_zero_is_current():
    with cupy.cuda.Device(0) as d:
        assert d.id == 0
    assert not cupy.cuda.runtime.is_hip
    with pytest.raises(pytest.skip.Exception, match="device selection"):
        cupy.cuda.Device(1)


def test_nested_loops_over_one_name():
    seen = []

    @testing.for_dtypes([numpy.int8, numpy.int16])
    @testing.for_dtypes([numpy.float32])
    def f(dtype):
        seen.append(dtype)
    f()
    assert seen == [numpy.float32, numpy.float32]  # the inner loop's value, as CuPy's


def test_shaped_random_of_no_axes():
    a = testing.shaped_random((), numpy, numpy.float32)
    assert isinstance(a, numpy.ndarray) and a.shape == () and a.dtype == numpy.float32
    assert testing.shaped_random((), cupy).shape == ()
