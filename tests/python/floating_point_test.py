"""numpy's floating-point routines on vkarray against numpy, bit for bit: frexp, ldexp,
nextafter and spacing over every real dtype, with zeros, subnormals, the largest finite
values, infinities and NaN; their dtypes, out= and errors; numpy's ufuncs reaching them."""

import warnings

import numpy as np
import pytest

import vkarray as vk
from parity import (DTYPES, edge_values, flush_subnormals, flushed_matches,
                    may_flush_subnormals, random_values)

REAL = [d for d in DTYPES if np.dtype(d).kind != "c"]


def inputs(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    x = np.concatenate([edge_values(dtype), random_values(dtype, 200, rng)])
    if np.dtype(dtype).kind == "f":
        fi = np.finfo(dtype)
        sub = np.array([fi.smallest_subnormal, fi.tiny / 3, fi.tiny - fi.smallest_subnormal,
                        fi.max, fi.tiny], dtype)
        wide = quiet(np.ndarray.astype, rng.standard_normal(200) * 10.0 ** rng.integers(
            -30, 30, 200), dtype)
        x = np.concatenate([x, sub, -sub, wide])
    return x


def same(got, want):
    got = got.get() if isinstance(got, vk.ndarray) else got
    assert got.dtype == want.dtype and got.shape == want.shape
    ok = (got == want) & (np.signbit(got) == np.signbit(want)) if want.dtype.kind == "f" \
        else got == want
    if want.dtype.kind == "f":
        ok |= np.isnan(got) & np.isnan(want)
        # A device that flushes subnormal results (docs/accuracy.md) may give a subnormal
        # result's flushed form; subnormal inputs are read exactly (on their bits).
        if may_flush_subnormals(want.dtype):
            ok |= flushed_matches(got, flush_subnormals(want, want.dtype))
    bad = np.nonzero(~ok)[0]
    assert bad.size == 0, f"{bad.size} differ, first: {got[bad[:5]]} != {want[bad[:5]]}"


def quiet(fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


@pytest.mark.parametrize("dtype", REAL, ids=[np.dtype(d).name for d in REAL])
def test_frexp_and_spacing_bit_for_bit(dtype):
    x = inputs(dtype)
    m, e = vk.frexp(vk.asarray(x))
    wm, we = np.frexp(x)
    same(m, wm)
    same(e, we)
    same(vk.spacing(vk.asarray(x)), quiet(np.spacing, x))
    back = vk.ldexp(m, e)  # frexp's parts recompose x exactly
    same(back, quiet(np.ldexp, wm, we))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_frexp_is_one_lazy_expression(dtype):
    x = vk.asarray(inputs(dtype))
    m, e = vk.frexp(x * 3)
    assert m.is_lazy and e.is_lazy
    before = vk.kernel_count()
    vk.eval(m, e)
    assert vk.kernel_count() - before == 1


def test_out_dtypes_and_errors():
    x = np.array([0.75, -6.0, 1e-300, np.inf])
    mo, eo = vk.zeros(4), vk.zeros(4, vk.int32)
    r = vk.frexp(vk.asarray(x), mo, eo)
    assert r[0] is mo and r[1] is eo
    same(eo, np.frexp(x)[1])
    o = vk.zeros(4)
    assert vk.ldexp(vk.asarray(x), 3, out=o) is o
    same(o, np.ldexp(x, 3))
    assert vk.spacing(vk.asarray(x), dtype=vk.float32).dtype == np.float32
    for fn, args in [(vk.ldexp, (np.ones(2, np.complex64), 1)), (vk.ldexp, (np.ones(2), 0.5)),
                     (vk.frexp, (np.ones(2, np.complex128),)),
                     (vk.spacing, (np.ones(2, np.complex64),)),
                     (vk.nextafter, (np.ones(2, np.complex64), np.ones(2, np.complex64)))]:
        with pytest.raises(TypeError, match=fn.__name__):
            fn(*[vk.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
    assert not hasattr(vk, "frexp_exponent")  # a primitive of frexp, not a numpy name


@pytest.mark.parametrize("xdtype,edtype", [(np.int8, np.int16), (np.bool_, np.uint8),
                                           (np.int32, np.int64), (np.float16, np.int64),
                                           (np.float32, np.uint16), (np.uint64, np.int8)])
def test_ldexp_mixed_dtypes(xdtype, edtype):
    x = inputs(xdtype)[:40]
    e = np.resize(np.array([0, 1, 3, -2, 7, 100, -100, 15], dtype=edtype)
                  if np.dtype(edtype).kind == "i" else np.array([0, 1, 3, 7, 100], edtype), 40)
    same(vk.ldexp(vk.asarray(x), vk.asarray(e)), quiet(np.ldexp, x, e))


def test_numpys_ufuncs_reach_them():
    x = vk.asarray(np.array([0.5, 3.0, -1e-310]))
    m, e = np.frexp(x)
    assert isinstance(m, vk.ndarray) and isinstance(e, vk.ndarray)
    assert isinstance(np.ldexp(x, 2), vk.ndarray) and isinstance(np.spacing(x), vk.ndarray)
    assert isinstance(np.nextafter(x, 1.0), vk.ndarray)
    same(np.nextafter(x, 1.0), np.nextafter(x.get(), 1.0))
