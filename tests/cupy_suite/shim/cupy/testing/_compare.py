"""The numpy_cupy_* decorators: run a test once with numpy and once with vkarray and compare."""

import functools
import inspect

import numpy

import vkarray

from . import _array


def _drop_params(wrapper, impl, names):
    """Gives `wrapper` the signature of `impl` without `names`: pytest reads a test's
    signature to find its fixtures, and the injected arguments are not fixtures."""
    functools.update_wrapper(wrapper, impl)
    sig = inspect.signature(impl)
    wrapper.__signature__ = sig.replace(
        parameters=[p for n, p in sig.parameters.items() if n not in names])
    return wrapper


def _call(impl, args, kw, name, xp):
    """(result, error) of one call: an Exception is returned, not raised, so that the two
    libraries' errors can be compared; skips and timeouts (BaseException) propagate."""
    kw = dict(kw)
    kw[name] = xp
    try:
        return impl(*args, **kw), None
    except Exception as e:
        return None, e


def _accepted(accept_error):
    if accept_error is True:
        return (Exception,)
    if not accept_error:
        return ()
    if isinstance(accept_error, type):
        return (accept_error,)
    return tuple(accept_error)


def _check_errors(v_err, n_err, accept_error):
    """Both or one of the libraries raised: the test passes only when both raised errors of
    related types (one a subclass of the other) that the test accepts."""
    if v_err is None:
        raise AssertionError(
            f"numpy raised {type(n_err).__name__}: {n_err}\nbut vkarray did not") from n_err
    if n_err is None:
        raise v_err
    both = (f"vkarray {type(v_err).__name__}: {v_err}\n"
            f"numpy {type(n_err).__name__}: {n_err}")
    if not isinstance(n_err, _accepted(accept_error)):
        raise AssertionError(f"both raised, and the test accepts no error:\n{both}") from v_err
    if not (isinstance(v_err, type(n_err)) or isinstance(n_err, type(v_err))):
        raise AssertionError(f"different errors:\n{both}") from v_err


def _is_device_array(x):
    return isinstance(x, vkarray.ndarray)


def _pairs(v, n, path="result"):
    """Yields (vkarray value, numpy value, where) for every array leaf of two results of the
    same structure; raises AssertionError when their kinds differ. numpy's ndarray must be
    matched by a vkarray ndarray (a host copy is a different kind of result); numpy's scalars
    (numpy.generic) by a vkarray ndarray of 0 dimensions or a numpy scalar."""
    if isinstance(n, (tuple, list)):
        if not isinstance(v, (tuple, list)) or len(v) != len(n):
            raise AssertionError(f"{path}: numpy returned a {type(n).__name__} of {len(n)}, "
                                 f"vkarray {type(v).__name__} {_short(v)}")
        for i, (vi, ni) in enumerate(zip(v, n)):
            yield from _pairs(vi, ni, f"{path}[{i}]")
        return
    if isinstance(n, numpy.poly1d):  # compared by their coefficients, as CuPy's testing does
        if not isinstance(v, vkarray.poly1d):
            raise AssertionError(f"{path}: numpy returned numpy.poly1d, vkarray "
                                 f"{type(v).__module__}.{type(v).__name__}")
        yield from _pairs(v.coeffs, n.coeffs, f"{path}.coeffs")
        return
    if isinstance(n, numpy.ndarray):
        if not _is_device_array(v):
            raise AssertionError(f"{path}: numpy returned numpy.ndarray, vkarray "
                                 f"{type(v).__module__}.{type(v).__name__}")
        yield v, n, path
        return
    if isinstance(n, numpy.generic):
        if not (_is_device_array(v) and v.ndim == 0) and not isinstance(v, numpy.generic):
            raise AssertionError(f"{path}: numpy returned a scalar {type(n).__name__}, "
                                 f"vkarray {type(v).__module__}.{type(v).__name__}")
        yield v, n, path
        return
    if n is None or v is None:
        if n is not v:
            raise AssertionError(f"{path}: numpy returned {_short(n)}, vkarray {_short(v)}")
        return
    # Python scalars and other values: the same type and an equal (or close) value.
    if type(n) is not type(v) and not (_is_device_array(v) and v.ndim == 0
                                       and isinstance(n, (bool, int, float, complex))):
        raise AssertionError(f"{path}: numpy returned {type(n).__name__} {_short(n)}, "
                             f"vkarray {type(v).__name__} {_short(v)}")
    yield v, n, path


def _short(x):
    s = repr(x)
    return s if len(s) < 200 else s[:200] + "..."


def _tolerance(tol, dtype):
    """A tolerance, or a dict of tolerances keyed by dtype with a 'default' entry."""
    if not isinstance(tol, dict):
        return tol
    for key, value in tol.items():
        if key != "default" and numpy.dtype(key) == dtype:
            return value
    return tol["default"]


def _compare_results(v, n, check, type_check, contiguous_check, strides_check):
    for va, na, where in _pairs(v, n):
        vh = numpy.asarray(_array.to_host(va))
        nh = numpy.asarray(na)
        if type_check and vh.dtype != nh.dtype:
            raise AssertionError(f"{where}: dtype differs: vkarray {vh.dtype}, numpy {nh.dtype}")
        if contiguous_check and isinstance(na, numpy.ndarray) and _is_device_array(va):
            if na.flags.c_contiguous and not _array.c_contiguous(va):
                raise AssertionError(f"{where}: numpy's result is C-contiguous, vkarray's "
                                     f"is not")
        if strides_check and isinstance(na, numpy.ndarray):
            if _array.strides(va) != na.strides:
                raise AssertionError(f"{where}: strides differ: vkarray {_array.strides(va)}, "
                                     f"numpy {na.strides}")
        try:
            check(vh, nh)
        except AssertionError as e:
            raise AssertionError(f"{where}: {e}") from None


def _decorator(check, name, type_check, accept_error, contiguous_check, strides_check):
    import cupy  # the shim package: tests compare `xp is cupy`

    def decorator(impl):
        def test_func(*args, **kw):
            v, v_err = _call(impl, args, kw, name, cupy)
            n, n_err = _call(impl, args, kw, name, numpy)
            if v_err is not None or n_err is not None:
                _check_errors(v_err, n_err, accept_error)
                return
            _compare_results(v, n, check, type_check, contiguous_check, strides_check)
        return _drop_params(test_func, impl, {name})
    return decorator


def numpy_cupy_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True, name="xp",
                        type_check=True, accept_error=False, sp_name=None, scipy_name=None,
                        contiguous_check=True, *, _check_sparse_format=True):
    """Results of numpy and vkarray agree within rtol and atol (each a number or a dict of
    them keyed by dtype, with 'default'), with the same dtype when type_check."""
    if sp_name is not None or scipy_name is not None:
        raise NotImplementedError("sp_name/scipy_name: cupyx.scipy is not part of this run")

    def check(v, n):
        dtype = v.dtype if type_check else numpy.promote_types(v.dtype, n.dtype)
        _array.assert_allclose(v, n, _tolerance(rtol, dtype), _tolerance(atol, dtype),
                               err_msg, verbose)
    return _decorator(check, name, type_check, accept_error, contiguous_check, False)


def numpy_cupy_array_almost_equal(decimal=6, err_msg="", verbose=True, name="xp",
                                  type_check=True, accept_error=False, sp_name=None,
                                  scipy_name=None):
    def check(v, n):
        _array.assert_array_almost_equal(v, n, decimal, err_msg, verbose)
    return _decorator(check, name, type_check, accept_error, False, False)


def numpy_cupy_array_almost_equal_nulp(nulp=1, name="xp", type_check=True,
                                       accept_error=False, sp_name=None, scipy_name=None):
    def check(v, n):
        numpy.testing.assert_array_almost_equal_nulp(v, n, nulp)
    return _decorator(check, name, type_check, accept_error, False, False)


def numpy_cupy_array_max_ulp(maxulp=1, dtype=None, name="xp", type_check=True,
                             accept_error=False, sp_name=None, scipy_name=None):
    def check(v, n):
        numpy.testing.assert_array_max_ulp(v, n, maxulp, dtype)
    return _decorator(check, name, type_check, accept_error, False, False)


def numpy_cupy_array_equal(err_msg="", verbose=True, name="xp", type_check=True,
                           accept_error=False, sp_name=None, scipy_name=None,
                           strides_check=False):
    """Results of numpy and vkarray are equal (NaNs in the same places), with the same dtype
    when type_check and the same strides when strides_check."""
    def check(v, n):
        numpy.testing.assert_array_equal(v, n, err_msg, verbose)
    return _decorator(check, name, type_check, accept_error, False, strides_check)


def numpy_cupy_array_list_equal(err_msg="", verbose=True, name="xp", sp_name=None,
                                scipy_name=None):
    def check(v, n):
        numpy.testing.assert_array_equal(v, n, err_msg, verbose)
    return _decorator(check, name, False, False, False, False)


def numpy_cupy_array_less(err_msg="", verbose=True, name="xp", type_check=True,
                          accept_error=False, sp_name=None, scipy_name=None):
    def check(v, n):
        numpy.testing.assert_array_less(v, n, err_msg, verbose)
    return _decorator(check, name, type_check, accept_error, False, False)


def numpy_cupy_equal(name="xp", sp_name=None, scipy_name=None):
    """The two results are plain values (not arrays) that compare equal."""
    import cupy

    def decorator(impl):
        def test_func(*args, **kw):
            v, v_err = _call(impl, args, kw, name, cupy)
            n, n_err = _call(impl, args, kw, name, numpy)
            if v_err is not None or n_err is not None:
                _check_errors(v_err, n_err, False)
                return
            if v != n:
                raise AssertionError(f"results differ: vkarray {_short(v)}, numpy {_short(n)}")
        return _drop_params(test_func, impl, {name})
    return decorator


def numpy_cupy_raises(name="xp", sp_name=None, scipy_name=None, accept_error=Exception):
    """Both libraries raise related errors (an old CuPy decorator, kept for old tests)."""
    import cupy

    def decorator(impl):
        def test_func(*args, **kw):
            _, v_err = _call(impl, args, kw, name, cupy)
            _, n_err = _call(impl, args, kw, name, numpy)
            if v_err is None and n_err is None:
                raise AssertionError("neither numpy nor vkarray raised")
            _check_errors(v_err, n_err, accept_error)
        return _drop_params(test_func, impl, {name})
    return decorator
