"""The array API standard's (2023.12) additions against numpy or the spec's stated values:
finfo, iinfo, isdtype, the inspection namespace, logaddexp, unstack, device=/copy= on the
creation functions, to_device, and the keywords descending=, correction=, min=/max=."""

import numpy as np
import pytest

import vkarray as vk

ALL_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
              "float16", "float32", "float64", "complex64", "complex128"]
API_DTYPES = [d for d in ALL_DTYPES if d != "float16"]
KINDS = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
         "real floating": "f", "complex floating": "c", "numeric": "iufc"}
SIZES = [1, 7, 1000, 4097]


def test_version_and_newaxis():
    assert vk.__array_api_version__ == "2023.12"
    assert vk.newaxis is None
    x = vk.arange(6).reshape(2, 3)
    assert x[:, vk.newaxis].shape == (2, 1, 3)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo(dtype):
    ref = np.finfo(dtype)
    for arg in (getattr(vk, dtype), vk.zeros(2, dtype)):
        f = vk.finfo(arg)
        assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == (
            ref.bits, float(ref.eps), float(ref.max), float(ref.min), float(ref.smallest_normal))
        for v in (f.eps, f.max, f.min, f.smallest_normal):
            assert type(v) is float
        assert type(f.bits) is int
        assert f.dtype == ref.dtype  # complex64's limits are float32's


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32",
                                   "int64", "uint64"])
def test_iinfo(dtype):
    ref = np.iinfo(dtype)
    for arg in (getattr(vk, dtype), vk.zeros(2, dtype)):
        i = vk.iinfo(arg)
        assert (i.bits, i.min, i.max) == (ref.bits, int(ref.min), int(ref.max))
        assert type(i.max) is int and type(i.min) is int and i.dtype == np.dtype(dtype)


def test_info_numpy_fields():
    """numpy's other finfo/iinfo fields stay reachable (numpy code reads them)."""
    assert vk.finfo(vk.float32).tiny == np.finfo(np.float32).tiny
    assert vk.finfo(vk.float64).precision == np.finfo(np.float64).precision
    assert vk.iinfo(vk.uint16).kind == "u"


def test_info_bad_dtypes():
    with pytest.raises(ValueError, match=r"\[finfo\] int32"):
        vk.finfo(vk.int32)
    with pytest.raises(ValueError, match=r"\[iinfo\] float32"):
        vk.iinfo(vk.float32)
    with pytest.raises(TypeError, match=r"\[finfo\]"):
        vk.finfo("not a dtype")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_isdtype(dtype):
    dt = np.dtype(dtype)
    for kind, letters in KINDS.items():
        got = vk.isdtype(getattr(vk, dtype), kind)
        assert type(got) is bool and got == (dt.kind in letters), kind
    for other in ALL_DTYPES:
        assert vk.isdtype(dt, getattr(vk, other)) == (dt == np.dtype(other))
    assert vk.isdtype(dt, ("bool", "numeric"))
    assert vk.isdtype(dt, ("signed integer", vk.uint8)) == (dt.kind == "i" or dt == np.uint8)
    with pytest.raises(ValueError, match=r"\[dtypes\] unknown kind 'floats'"):
        vk.isdtype(dt, "floats")


def test_inspection_namespace():
    info = vk.__array_namespace_info__()
    assert info.capabilities() == {"boolean indexing": True, "data-dependent shapes": True}
    assert info.default_device() == vk.ones(1).device
    assert str(info.default_device()) == "vulkan:0"
    assert info.default_device() in info.devices()
    assert info.default_dtypes() == {"real floating": vk.float64, "complex floating":
                                     vk.complex128, "integral": vk.int64, "indexing": vk.int64}
    assert info.default_dtypes()["real floating"] == vk.asarray(1.0).dtype
    assert info.default_dtypes()["indexing"] == vk.nonzero(vk.ones(2))[0].dtype
    assert sorted(info.dtypes()) == sorted(API_DTYPES)
    for kind, letters in KINDS.items():
        d = info.dtypes(kind=kind, device=info.default_device())
        assert sorted(d) == sorted(n for n in API_DTYPES if np.dtype(n).kind in letters)
        assert all(v is getattr(vk, n) for n, v in d.items())
    assert sorted(info.dtypes(kind=("bool", "complex floating"))) == ["bool", "complex128",
                                                                        "complex64"]
    with pytest.raises(ValueError, match=r"\[dtypes\] unknown kind"):
        info.dtypes(kind="float")
    with pytest.raises(ValueError, match=r"unknown device 'cuda:0'"):
        info.dtypes(device="cuda:0")


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("n", SIZES)
def test_logaddexp(dtype, n):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 30).astype(dtype)
    b = (rng.standard_normal(n) * 30).astype(dtype)
    special = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0, np.inf, -np.inf], dtype)
    a[: min(n, 8)] = special[: min(n, 8)]
    b[: min(n, 8)] = special[::-1][: min(n, 8)]
    b[n // 2] = a[n // 2]  # equal operands
    got = vk.logaddexp(vk.asarray(a), vk.asarray(b))
    with np.errstate(all="ignore"):
        want = np.logaddexp(a, b)
    assert got.dtype == want.dtype
    tol = {"float16": 2e-3, "float32": 2e-6, "float64": 1e-14}[dtype]
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)
    assert (np.isnan(got.get()) == np.isnan(want)).all()
    with np.errstate(all="ignore"):
        assert np.logaddexp(vk.asarray(a), vk.asarray(b)).dtype == want.dtype  # on the device


def test_logaddexp_promotion_and_errors():
    i = np.arange(-3, 4, dtype=np.int8)
    got = vk.logaddexp(vk.asarray(i), 2)
    want = np.logaddexp(i, 2)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=2e-3)
    f = np.linspace(-2, 2, 5, dtype=np.float32)
    assert vk.logaddexp(vk.asarray(f), 1.5).dtype == np.float32
    np.testing.assert_allclose(vk.logaddexp(f.astype(np.float64), vk.asarray(f)).get(),
                               np.logaddexp(f.astype(np.float64), f), rtol=1e-14)
    with pytest.raises(TypeError, match=r"\[logaddexp\]"):
        vk.logaddexp(vk.ones(2, vk.complex64), vk.ones(2, vk.complex64))


def test_unstack():
    a = np.arange(24).reshape(2, 3, 4)
    for axis in (0, 1, 2, -1, -3):
        got = vk.unstack(vk.asarray(a), axis=axis)
        want = [np.take(a, i, axis=axis) for i in range(a.shape[axis])]
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.get(), w)
    assert vk.unstack(vk.zeros((0, 3))) == ()
    with pytest.raises(np.AxisError, match=r"\[unstack\] axis 3"):
        vk.unstack(vk.asarray(a), axis=3)
    with pytest.raises(ValueError, match=r"\[unstack\] cannot unstack a 0-d array"):
        vk.unstack(vk.asarray(1.0))


def test_creation_device_keyword():
    dev = vk.ones(1).device
    for x in (vk.asarray([1, 2], device=dev), vk.zeros(3, device=dev),
              vk.ones((2, 2), vk.int8, device=dev), vk.empty(4, device=dev),
              vk.full(3, 7, device=dev), vk.arange(5, device=dev),
              vk.linspace(0, 1, 5, device=dev), vk.eye(3, device=dev),
              vk.zeros_like(vk.ones(2), device=dev), vk.full_like(vk.ones(2), 3, device=dev)):
        assert x.device == dev
    np.testing.assert_array_equal(vk.full_like(vk.ones(3, vk.int16), 5).get(),
                                  np.full_like(np.ones(3, np.int16), 5))
    np.testing.assert_array_equal(vk.eye(3, 4, k=1, device=dev).get(), np.eye(3, 4, k=1))
    np.testing.assert_array_equal(vk.arange(1, 10, 3, device=dev).get(), np.arange(1, 10, 3))
    np.testing.assert_array_equal(vk.linspace(0, 1, num=7, endpoint=False).get(),
                                  np.linspace(0, 1, num=7, endpoint=False))
    for k in (2**63, -(2**70), 3, -3, 4):  # a diagonal beyond the matrix: all zeros
        np.testing.assert_array_equal(vk.eye(3, 4, k=k).get(), np.eye(3, 4, k=max(-9, min(9, k))))
    assert vk.eye(0, k=2**63).shape == (0, 0)
    with pytest.raises(ValueError, match=r"\[zeros\] unknown device 'vulkan:99'"):
        vk.zeros(3, device="vulkan:99")


def test_asarray_copy():
    a = vk.arange(4)
    assert vk.asarray(a) is a and vk.asarray(a, copy=False) is a
    b = vk.asarray(a, copy=True)
    assert b is not a
    b[0] = 10
    assert int(a[0]) == 0 and int(b[0]) == 10
    with pytest.raises(ValueError, match=r"\[asarray\] copy=False, but list data"):
        vk.asarray([1, 2], copy=False)
    with pytest.raises(ValueError, match=r"copy=False, but converting int64 to float32"):
        vk.asarray(a, vk.float32, copy=False)
    np.testing.assert_array_equal(vk.asarray(np.arange(3), copy=True).get(), np.arange(3))


def test_to_device_and_astype_device(ctx2):
    a = vk.arange(5)
    assert a.to_device(a.device) is a
    other = vk.zeros(1, context=ctx2).device
    assert str(other) == "vulkan:0,0"
    b = a.to_device(ctx2)
    assert b.device == other
    np.testing.assert_array_equal(b.get(), np.arange(5))
    c = vk.astype(a, vk.float32, device=ctx2)
    assert c.device == other and c.dtype == np.float32
    with pytest.raises(ValueError, match=r"\[to_device\] .*stream"):
        a.to_device(a.device, stream=1)


def _descending_order(v):
    """The stable descending order of v's elements (Python's sort is stable), NaNs first as
    the reversal of an ascending sort with NaNs last puts them (the spec leaves NaN order to
    the implementation)."""
    key = [(bool(np.isnan(x)), x) if v.dtype.kind == "f" else (False, x) for x in v.tolist()]
    return sorted(range(len(v)), key=key.__getitem__, reverse=True)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32", "float64"])
@pytest.mark.parametrize("n", SIZES)
def test_sort_descending(dtype, n):
    rng = np.random.default_rng(n)
    v = rng.integers(0, 5, n).astype(dtype)  # many ties
    if np.dtype(dtype).kind == "f" and n > 3:
        v[[1, n // 2]] = np.nan
    order = _descending_order(v)
    np.testing.assert_array_equal(vk.argsort(vk.asarray(v), descending=True).get(), order)
    np.testing.assert_array_equal(vk.sort(vk.asarray(v), descending=True).get(), v[order])
    np.testing.assert_array_equal(vk.sort(vk.asarray(v)).get(), np.sort(v))


def test_sort_descending_axis():
    a = np.random.default_rng(1).integers(0, 4, (3, 5, 6)).astype(np.int32)
    for axis in (0, 1, -1):
        got = vk.argsort(vk.asarray(a), axis=axis, descending=True).get()
        want = np.apply_along_axis(_descending_order, axis, a)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(vk.sort(vk.asarray(a), axis=axis, descending=True).get(),
                                      np.take_along_axis(a, want, axis))
    with pytest.raises(np.AxisError):
        vk.sort(vk.asarray(1), descending=True)


@pytest.mark.parametrize("fn", ["std", "var"])
def test_correction(fn):
    a = np.random.default_rng(0).standard_normal((4, 7))
    for corr in (0, 1, 2.5):
        for axis in (None, 0, 1):
            got = getattr(vk, fn)(vk.asarray(a), axis=axis, correction=corr)
            want = getattr(np, fn)(a, axis=axis, ddof=corr)
            np.testing.assert_allclose(np.asarray(got.get() if hasattr(got, "get") else got),
                                       want, rtol=1e-12)
    with pytest.raises(ValueError, match=rf"\[{fn}\] ddof=1 and correction=1"):
        getattr(vk, fn)(vk.asarray(a), ddof=1, correction=1)


def test_clip_keywords():
    a = np.arange(-5, 6, dtype=np.int32)
    x = vk.asarray(a)
    np.testing.assert_array_equal(vk.clip(x, min=-2, max=3).get(), np.clip(a, -2, 3))
    np.testing.assert_array_equal(vk.clip(x, max=1).get(), np.clip(a, None, 1))
    np.testing.assert_array_equal(vk.clip(x, a_min=0, a_max=None).get(), np.clip(a, 0, None))
    np.testing.assert_array_equal(vk.clip(x, -1, 1).get(), np.clip(a, -1, 1))
    lo, hi = np.full(11, -1, np.int32), np.arange(11, dtype=np.int32) - 3
    np.testing.assert_array_equal(vk.clip(x, vk.asarray(lo), vk.asarray(hi)).get(),
                                  np.clip(a, lo, hi))
    with pytest.raises(TypeError, match=r"\[clip\] min and a_min"):
        vk.clip(x, 1, a_min=2)


def test_list_results():
    """broadcast_arrays and meshgrid return lists, as numpy 1.24 and the array API 2023.12."""
    a, b = np.arange(3), np.arange(4).reshape(4, 1)
    got = vk.broadcast_arrays(vk.asarray(a), vk.asarray(b))
    want = np.broadcast_arrays(a, b)
    assert type(got) is type(want) is list
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.get(), w)
    assert type(vk.meshgrid(vk.asarray(a), vk.asarray(a))) is list


def test_nonzero_0d_is_an_error():
    for v in (True, 0, 2.5):
        with pytest.raises(ValueError, match=r"\[nonzero\] calling nonzero on a 0-d array"):
            vk.nonzero(vk.asarray(v))
    np.testing.assert_array_equal(vk.nonzero(vk.asarray(True).reshape(1))[0].get(), [0])


SIGNED = ["int8", "int16", "int32", "int64"]


@pytest.mark.parametrize("n", [1, 7, 1000])
def test_floor_divide_remainder_mixed_signed(n):
    """Mixed-width signed operands (one converted in the kernel) floor toward -inf: lavapipe
    once compiled the sign test of a sign-extended divisor as unsigned."""
    rng = np.random.default_rng(n)
    for da in SIGNED:
        for db in SIGNED:
            a = rng.integers(-100, 100, n).astype(da)
            b = rng.integers(-100, 100, n).astype(db)
            b[b == 0] = 3
            for fn in ("floor_divide", "remainder"):
                got = getattr(vk, fn)(vk.asarray(a), vk.asarray(b))
                want = getattr(np, fn)(a, b)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(got.get(), want, err_msg=f"{fn} {da} {db}")


def test_empty_mask_dimensions():
    """A mask dimension of 0 selects nothing whatever the extent it covers (numpy)."""
    a = np.arange(12.0).reshape(3, 4)
    for ks in [(0,), (0, 4), (3, 0), (0, 0)]:
        m = np.zeros(ks, bool)
        got = vk.asarray(a)[vk.asarray(m)]
        assert got.shape == a[m].shape and got.dtype == a.dtype
    for ks in [(0, 5), (2, 0)]:
        with pytest.raises(IndexError):
            vk.asarray(a)[vk.asarray(np.zeros(ks, bool))]
