"""Test data of cupy.testing (shaped_arange, shaped_random, ...) and fixed random seeds."""

import functools
import math
import unittest

import numpy


def _to_xp(host, xp, order):
    if xp is None:
        import cupy
        xp = cupy
    if order in (None, "C", "c", "K", "k", "A", "a"):
        return xp.array(host)
    return xp.array(host, order=order)


def _sequence(values, dtype):
    """1, 2, ... as dtype: bool alternates False, True; complex has equal real and imaginary
    parts."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return values % 2 == 0
    if dtype.kind == "c":
        return (values + values * 1j).astype(dtype)
    return values.astype(dtype)


def shaped_arange(shape, xp=None, dtype=numpy.float32, order="C"):
    """An array of the shape holding 1, 2, ..., prod(shape) in C order."""
    n = math.prod(shape)
    return _to_xp(_sequence(numpy.arange(1, n + 1), dtype).reshape(shape), xp, order)


def shaped_reverse_arange(shape, xp=None, dtype=numpy.float32):
    """An array of the shape holding prod(shape), ..., 2, 1 in C order."""
    n = math.prod(shape)
    return _to_xp(_sequence(numpy.arange(n, 0, -1), dtype).reshape(shape), xp, "C")


def shaped_linspace(start, stop, shape, xp=None, dtype=numpy.float32):
    n = math.prod(shape)
    host = numpy.linspace(start, stop, n, dtype=numpy.dtype(dtype)).reshape(shape)
    return _to_xp(host, xp, "C")


def shaped_random(shape, xp=None, dtype=numpy.float32, scale=10, seed=0, order="C"):
    """An array of the shape of values drawn uniformly from [0, scale) by numpy with the
    seed (the same values for numpy and vkarray); bool: 0 or 1; complex: both parts drawn."""
    rs = numpy.random.RandomState(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        host = rs.randint(2, size=shape).astype(dtype)
    elif dtype.kind == "c":
        host = numpy.asarray((rs.rand(*shape) + 1j * rs.rand(*shape)) * scale).astype(dtype)
    else:  # rand() of shape () is a Python float
        host = numpy.asarray(rs.rand(*shape) * scale).astype(dtype)
    return _to_xp(host, xp, order)


def shaped_sparse_random(*args, **kwargs):
    from skips import skip
    skip("cupyx.scipy")


def generate_seed():
    """A seed for a random generator, drawn from numpy's global generator (which fix_random
    fixes)."""
    return int(numpy.random.randint(0, 2**31 - 1))


_FIXED_SEED = 0


def _seed_all():
    import vkarray
    numpy.random.seed(_FIXED_SEED)
    vkarray.random.seed(_FIXED_SEED)


def _fixed(func):
    @functools.wraps(func)
    def wrapper(*args, **kw):
        state = numpy.random.get_state()
        _seed_all()
        try:
            return func(*args, **kw)
        finally:
            numpy.random.set_state(state)
    return wrapper


def fix_random():
    """numpy's and vkarray's global generators start from a fixed seed in each test (for a
    unittest class: from setUp to tearDown), and numpy's state is restored after."""
    def decorator(obj):
        if not isinstance(obj, type):
            return _fixed(obj)
        if issubclass(obj, unittest.TestCase):
            set_up, tear_down = obj.setUp, obj.tearDown

            def setUp(self):
                self._vka_numpy_state = numpy.random.get_state()
                _seed_all()
                set_up(self)

            def tearDown(self):
                try:
                    tear_down(self)
                finally:
                    numpy.random.set_state(self._vka_numpy_state)
            obj.setUp, obj.tearDown = setUp, tearDown
            return obj
        for name in dir(obj):
            if name.startswith("test"):
                attr = getattr(obj, name)
                if callable(attr):
                    setattr(obj, name, _fixed(attr))
        return obj
    return decorator
