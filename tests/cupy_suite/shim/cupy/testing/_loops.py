"""The for_* decorators: run a test once per dtype, order or axis, as one pytest item."""

import functools
import inspect
import itertools
import os

import numpy
import pytest

_SIGNED = (numpy.int8, numpy.int16, numpy.int32, numpy.int64)
_UNSIGNED = (numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64)
_INT = _SIGNED + _UNSIGNED
_FLOAT = (numpy.float16, numpy.float32, numpy.float64)
_COMPLEX = (numpy.complex64, numpy.complex128)


def _wraps_partial(wrapped, *names):
    """functools.wraps for a wrapper that supplies the arguments `names` itself: the wrapper
    shows wrapped's signature without them (pytest would take them for fixtures)."""
    def decorator(wrapper):
        functools.update_wrapper(wrapper, wrapped)
        sig = inspect.signature(wrapped)
        wrapper.__signature__ = sig.replace(
            parameters=[p for n, p in sig.parameters.items() if n not in names])
        return wrapper
    return decorator


def _label(case):
    def name(v):
        return getattr(v, "__name__", None) or repr(v)
    return ", ".join(f"{k}={name(v)}" for k, v in case.items())


def _run_cases(impl, args, kw, cases):
    """Calls impl once per case (a dict of keyword arguments). Every case runs; the first
    failure is raised with a note naming each failing case. Skipped cases are ignored unless
    all are skipped; skips and timeouts of the run itself (BaseException) propagate."""
    failures, skipped, first_skip = [], 0, None
    for case in cases:
        try:
            impl(*args, **{**kw, **case})  # an inner loop over the same name wins, as CuPy's
        except pytest.skip.Exception as e:
            skipped += 1
            first_skip = first_skip or e
        except Exception as e:
            failures.append((case, e))
    if failures:
        err = failures[0][1]
        err.add_note(f"failed for {len(failures)} of {len(cases)} cases: "
                     + "; ".join(_label(c) for c, _ in failures))
        raise err
    if cases and skipped == len(cases):
        raise first_skip


def _for(name_values):
    """A decorator running the test over the cases [{name: value, ...}, ...]."""
    def make(cases):
        names = set().union(*(c.keys() for c in cases)) if cases else set()

        def decorator(impl):
            @_wraps_partial(impl, *names)
            def test_func(*args, **kw):
                _run_cases(impl, args, kw, cases)
            return test_func
        return decorator
    return make(name_values)


def _types(dtypes):
    """Scalar types from a string of type characters or a list of types or dtypes."""
    return [numpy.dtype(d).type for d in dtypes]


def for_dtypes(dtypes, name="dtype"):
    return _for([{name: t} for t in _types(dtypes)])


def _all(no_float16=False, no_bool=False, no_complex=False):
    types = [] if no_bool else [numpy.bool_]
    types += [t for t in _FLOAT if not (no_float16 and t is numpy.float16)]
    types += list(_INT)
    if not no_complex:
        types += list(_COMPLEX)
    return types


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False, no_complex=False):
    return for_dtypes(_all(no_float16, no_bool, no_complex), name)


def for_float_dtypes(name="dtype", no_float16=False):
    return for_dtypes([t for t in _FLOAT if not (no_float16 and t is numpy.float16)], name)


def for_signed_dtypes(name="dtype"):
    return for_dtypes(_SIGNED, name)


def for_unsigned_dtypes(name="dtype"):
    return for_dtypes(_UNSIGNED, name)


def for_int_dtypes(name="dtype", no_bool=False):
    return for_dtypes(([] if no_bool else [numpy.bool_]) + list(_INT), name)


def for_complex_dtypes(name="dtype"):
    return for_dtypes(_COMPLEX, name)


def _combinations(types, n, full):
    """Tuples of n types: all of them when full (or CUPY_TEST_FULL_COMBINATION=1), else 2m of
    them for m types: each type with itself, and each type with types half the list away, so
    that every type meets itself and others in every position (deterministic, unlike a random
    sample, so that runs are reproducible)."""
    if full is None:
        full = os.environ.get("CUPY_TEST_FULL_COMBINATION", "0") == "1"
    if full or n == 1:
        return list(itertools.product(types, repeat=n))
    m = len(types)
    step = m // 2 + 1
    same = [(t,) * n for t in types]
    mixed = [tuple(types[(i + k * step) % m] for k in range(n)) for i in range(m)]
    return same + [c for c in mixed if c not in same]


def for_dtypes_combination(types, names=("dtype",), full=None):
    combos = _combinations(_types(types), len(names), full)
    return _for([dict(zip(names, c)) for c in combos])


def for_all_dtypes_combination(names=("dtype",), no_float16=False, no_bool=False, full=None,
                               no_complex=False):
    return for_dtypes_combination(_all(no_float16, no_bool, no_complex), names, full)


def for_signed_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_SIGNED, names, full)


def for_unsigned_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_UNSIGNED, names, full)


def for_int_dtypes_combination(names=("dtype",), no_bool=False, full=None):
    return for_dtypes_combination(([] if no_bool else [numpy.bool_]) + list(_INT), names, full)


def for_float_dtypes_combination(names=("dtype",), no_float16=False, full=None):
    types = [t for t in _FLOAT if not (no_float16 and t is numpy.float16)]
    return for_dtypes_combination(types, names, full)


def for_orders(orders, name="order"):
    return _for([{name: o} for o in orders])


def for_CF_orders(name="order"):
    return for_orders([None, "C", "F", "c", "f"], name)


def for_contiguous_axes(name="axis"):
    """Runs the test with every run of axes contiguous in memory for the instance's
    `self.shape` and `self.order` ('C': trailing axes (n-1,), (n-2, n-1), ...; 'F': leading
    axes (0,), (0, 1), ...)."""
    def decorator(impl):
        @_wraps_partial(impl, name)
        def test_func(self, *args, **kw):
            ndim = len(self.shape)
            order = getattr(self, "order", "C")
            if order in ("c", "C"):
                axes = [tuple(range(ndim - k, ndim)) for k in range(1, ndim + 1)]
            else:
                axes = [tuple(range(k)) for k in range(1, ndim + 1)]
            _run_cases(impl, (self,) + args, kw, [{name: a} for a in axes])
        return test_func
    return decorator
