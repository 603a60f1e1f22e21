"""cupy.testing's assert_* helpers: numpy.testing's, on vkarray arrays copied to the host."""

import numpy

import vkarray


def to_host(x):
    """A numpy value for a vkarray array (and for lists or tuples of them); others as given."""
    if isinstance(x, vkarray.ndarray):
        return numpy.asarray(x)
    if isinstance(x, (list, tuple)) and any(isinstance(e, vkarray.ndarray) for e in x):
        return type(x)(to_host(e) for e in x)
    return x


def c_contiguous(x):
    """Whether a vkarray array is C-contiguous, or True when vkarray does not say (no
    ndarray.flags yet): the contiguity check is then not applied."""
    flags = getattr(x, "flags", None)
    return True if flags is None else bool(flags["C_CONTIGUOUS"])


def strides(x):
    return tuple(x.strides)


def assert_allclose(actual, desired, rtol=1e-7, atol=0, err_msg="", verbose=True):
    numpy.testing.assert_allclose(to_host(actual), to_host(desired), rtol=rtol, atol=atol,
                                  err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    numpy.testing.assert_array_almost_equal(to_host(x), to_host(y), decimal=decimal,
                                            err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal_nulp(x, y, nulp=1):
    numpy.testing.assert_array_almost_equal_nulp(to_host(x), to_host(y), nulp=nulp)


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    numpy.testing.assert_array_max_ulp(to_host(a), to_host(b), maxulp=maxulp, dtype=dtype)


def assert_array_equal(x, y, err_msg="", verbose=True, strides_check=False, **kwargs):
    if strides_check:
        sx = strides(x) if isinstance(x, vkarray.ndarray) else numpy.asarray(x).strides
        sy = strides(y) if isinstance(y, vkarray.ndarray) else numpy.asarray(y).strides
        if sx != sy:
            raise AssertionError(f"strides differ: {sx} and {sy}\n{err_msg}")
    numpy.testing.assert_array_equal(to_host(x), to_host(y), err_msg=err_msg,
                                     verbose=verbose, **kwargs)


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """Two sequences of arrays of the same length, equal array by array."""
    if len(xlist) != len(ylist):
        raise AssertionError(f"lengths differ: {len(xlist)} and {len(ylist)}")
    for x, y in zip(xlist, ylist):
        numpy.testing.assert_array_equal(to_host(x), to_host(y), err_msg=err_msg,
                                         verbose=verbose)


def assert_array_less(x, y, err_msg="", verbose=True):
    numpy.testing.assert_array_less(to_host(x), to_host(y), err_msg=err_msg, verbose=verbose)


def assert_almost_equal(actual, desired, decimal=7, err_msg="", verbose=True):
    numpy.testing.assert_almost_equal(to_host(actual), to_host(desired), decimal=decimal,
                                      err_msg=err_msg, verbose=verbose)
