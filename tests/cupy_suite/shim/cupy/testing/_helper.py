"""The remaining helpers of cupy.testing: alias test bases, assert_warns, function-call checks."""

import inspect
import unittest

import numpy


class NumpyAliasTestBase(unittest.TestCase):
    """Base of tests that cupy.<func> (the class' `func` attribute) matches numpy.<func>."""

    @property
    def cupy_func(self):
        import cupy
        return getattr(cupy, self.func)

    @property
    def numpy_func(self):
        return getattr(numpy, self.func)


class NumpyAliasBasicTestBase(NumpyAliasTestBase):
    """The two functions have the same signature and name."""

    def test_argspec(self):
        assert inspect.signature(self.cupy_func) == inspect.signature(self.numpy_func)

    def test_name(self):
        assert self.cupy_func.__name__ == self.numpy_func.__name__


class NumpyAliasValuesTestBase(NumpyAliasTestBase):
    """The two functions return equal values for `self.args`."""

    def test_values(self):
        assert self.cupy_func(*self.args) == self.numpy_func(*self.args)


assert_warns = numpy.testing.assert_warns


class AssertFunctionIsCalled:
    """CuPy's check that a CuPy-internal function (a dotted path) ran: such tests test CuPy's
    implementation, not numpy's behaviour, and skip here (skips.py)."""

    def __init__(self, mock_mod, **kwargs):
        self.target = mock_mod

    def __enter__(self):
        from skips import skip
        skip("cupy-internals")

    def __exit__(self, *exc):
        return False
