"""Counts the numpy-level operations a program issues: what an eager library (numpy, CuPy,
PyTorch) runs as one kernel each.

``CountingNumpy()`` is a stand-in for the numpy module whose arrays are ``CountingArray``s.
Counted once each, at the outermost level (numpy's own calls inside a function are not): every
ufunc call (operators included: ``a + b`` is np.add), ufunc method (``x.sum()`` is
np.add.reduce), numpy function (np.sum, np.where, np.roll, np.histogram, ...), creation
function, random draw, ``astype``/``copy``, slice assignment, and indexing with arrays. Basic
slicing, reshapes and transposes are views: not counted. Arithmetic on numpy scalars (0-d
results such as ``np.dot(r, r)``) runs on the host and is not counted either.
"""

import types

import numpy


class Counter:
    ops = 0


def _plain(x):
    """x with every CountingArray in it (lists and tuples included) viewed as numpy.ndarray."""
    if isinstance(x, CountingArray):
        return x.view(numpy.ndarray)
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(v) for v in x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def _wrap(x):
    if type(x) is numpy.ndarray:
        return x.view(CountingArray)
    if isinstance(x, tuple):
        return tuple(_wrap(v) for v in x)
    if isinstance(x, list):
        return [_wrap(v) for v in x]
    return x


def _has_array(x):
    if isinstance(x, (numpy.ndarray, numpy.generic)):
        return True
    return isinstance(x, (list, tuple)) and any(_has_array(v) for v in x)


def _counted(fn):
    def call(*args, **kwargs):
        result = fn(*_plain(args), **_plain(kwargs))
        if _has_array(result):
            Counter.ops += 1
        return _wrap(result)
    return call


class CountingArray(numpy.ndarray):
    """numpy.ndarray that counts what is done with it (see the module's docstring)."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        Counter.ops += 1
        return _wrap(getattr(ufunc, method)(*_plain(inputs), **_plain(kwargs)))

    def __array_function__(self, func, types_, args, kwargs):
        Counter.ops += 1
        return _wrap(func(*_plain(args), **_plain(kwargs)))

    def __getitem__(self, key):
        plain = self.view(numpy.ndarray)
        keys = key if isinstance(key, tuple) else (key,)
        if any(isinstance(k, (numpy.ndarray, list)) for k in keys):
            Counter.ops += 1
        return _wrap(plain[_plain(key)])

    def __setitem__(self, key, value):
        Counter.ops += 1
        self.view(numpy.ndarray)[_plain(key)] = _plain(value)

    def astype(self, *args, **kwargs):
        Counter.ops += 1
        return _wrap(self.view(numpy.ndarray).astype(*args, **kwargs))

    def copy(self, *args, **kwargs):
        Counter.ops += 1
        return _wrap(self.view(numpy.ndarray).copy(*args, **kwargs))


class _Proxy:
    """A module (or random Generator) whose callables count and return CountingArrays."""

    def __init__(self, target):
        self._target = target

    def __getattr__(self, name):
        attr = getattr(self._target, name)
        if isinstance(attr, types.ModuleType):
            return _Proxy(attr)
        if isinstance(attr, type) or not callable(attr):
            return attr
        if name == "default_rng":
            return lambda *a, **k: _Proxy(attr(*a, **k))
        return _counted(attr)


def CountingNumpy():  # noqa: N802  (stands for the numpy module)
    return _Proxy(numpy)


def count_ops(module, data):
    """The numpy-level operations of ``module.kernel`` on ``data`` (host values from
    ``module.initialize``)."""
    data = [_wrap(d) if isinstance(d, numpy.ndarray) else d for d in data]
    Counter.ops = 0
    module.kernel(CountingNumpy(), *data)
    return Counter.ops
