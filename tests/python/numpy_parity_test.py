"""The numpy-parity suite: every public name of vkarray (and of vkarray.linalg, .fft and
.random) has at least one case comparing it with numpy (or, for names numpy lacks, a check
against numpy data); test_every_public_name_has_a_case fails when a name has none. Each
comparison also runs through numpy's own functions on vkarray arrays (the protocols)."""

import warnings

import numpy as np
import pytest

import parity_cases_arrays  # noqa: F401  (registers cases)
import parity_cases_elementwise  # noqa: F401
import parity_cases_modules  # noqa: F401
import parity_cases_numpy_names  # noqa: F401
import parity_cases_random  # noqa: F401
import parity_cases_devices  # noqa: F401
import parity_cases_numpy_more  # noqa: F401
import parity_cases_numpy_utilities  # noqa: F401
import vkarray as vk
from parity_registry import CASES, NP


def public_names():
    names = set(vk.__all__)
    for sub in ("linalg", "fft", "random"):
        names |= {f"{sub}.{n}" for n in getattr(vk, sub).__all__}
    return names


def test_every_public_name_has_a_case():
    missing = sorted(public_names() - set(CASES))
    assert not missing, f"public names without a numpy-parity case: {missing}"
    stale = sorted(set(CASES) - public_names())
    assert not stale, f"parity cases for names that are not public: {stale}"


def _host(value):
    if isinstance(value, vk.ndarray):
        return value.get()
    if isinstance(value, (tuple, list)) and not isinstance(value, np.ndarray):
        return type(value)(_host(v) for v in value) if not hasattr(value, "_fields") else \
            tuple(_host(v) for v in value)
    return value


def _compare(got, want, rtol, where):
    if isinstance(want, (tuple, list)) and not isinstance(want, np.ndarray):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, rtol, f"{where}[{i}]")
        return
    if isinstance(want, (np.ndarray, np.generic)) or isinstance(got, np.ndarray):
        g, w = np.asarray(got), np.asarray(want)
        assert g.shape == w.shape, f"{where}: shape {g.shape} != numpy's {w.shape}"
        assert g.dtype == w.dtype, f"{where}: dtype {g.dtype} != numpy's {w.dtype}"
        if w.dtype.kind in "fc":
            tol = rtol if rtol is not None else 16 * np.finfo(w.dtype).eps
            finite = np.isfinite(w)
            scale = np.max(np.abs(w[finite])) if finite.any() else 0.0
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol * scale, err_msg=where)
        else:
            np.testing.assert_array_equal(g, w, err_msg=where)
        return
    if isinstance(want, float) and isinstance(got, float):
        assert got == pytest.approx(want, rel=rtol or 1e-15, nan_ok=True), where
        return
    assert got == want and type(got) is type(want), f"{where}: {got!r} != numpy's {want!r}"


HOST_CONVERSIONS = {"asarray", "array", "asanyarray", "ascontiguousarray", "asarray_chkfinite",
                    "r_", "c_"}  # numpy's index objects build numpy arrays: no dispatch
# numpy 1.24 functions that never reach __array_function__ with a vkarray argument, so numpy
# runs them on a host copy: C functions without dispatch (require, asfortranarray,
# fastCopyAndTranspose), classes (vectorize, poly1d), poly and roots, whose dispatchers
# return the array itself (numpy iterates it into host scalars), and as_strided, which has no
# dispatcher (numpy views a host copy).
NUMPY_UNDISPATCHED = {"require", "asfortranarray", "fastCopyAndTranspose", "vectorize", "poly",
                      "roots", "poly1d", "as_strided"}


def _check_on_device(name, got, want):
    """Array results must be vkarray arrays (no silent host copy)."""
    if isinstance(want, np.ndarray) and want.ndim > 0:
        assert isinstance(got, vk.ndarray), f"{name}: got {type(got).__name__}, not on the device"
    elif isinstance(want, (tuple, list)) and not hasattr(want, "_fields"):
        for i, (g, w) in enumerate(zip(got, want)):
            _check_on_device(f"{name}[{i}]", g, w)


CASE_LIST = [(name, i, c) for name in sorted(CASES) for i, c in enumerate(CASES[name])]


@pytest.mark.parametrize("name,index,case", CASE_LIST,
                         ids=[f"{n}-{i}" for n, i, _ in CASE_LIST])
def test_parity(name, index, case):
    if case.check:
        case.fn()
        return
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's all-NaN-slice notices
        want = _host(case.fn(NP, lambda a: a))
    got = case.fn(vk, vk.asarray)
    _check_on_device(name, got, want)
    _compare(_host(got), want, case.rtol, name)


@pytest.mark.parametrize("name,index,case", [c for c in CASE_LIST if not c[2].check],
                         ids=[f"{n}-{i}" for n, i, c in CASE_LIST if not c.check])
def test_parity_through_numpy(name, index, case):
    """The same case with numpy's functions called on vkarray arrays: __array_function__ and
    __array_ufunc__ must bring them to vkarray with numpy's results."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = _host(case.fn(NP, lambda a: a))
    uploads = []

    def to(a):
        uploads.append(a)
        return vk.asarray(a)

    got = case.fn(NP, to)
    # numpy's creation functions have no array argument to dispatch on, and its conversion
    # functions download (numpy.asarray(x) is the explicit host copy): those stay numpy's.
    if uploads and name not in HOST_CONVERSIONS | NUMPY_UNDISPATCHED:
        _check_on_device(name, got, want)
    _compare(_host(got), want, case.rtol, name)
