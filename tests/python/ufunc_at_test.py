"""ufunc.at and ufunc.reduceat against numpy's: at applies op once per occurrence of an index,
in order (np.add.at(a, [0, 0, 1], 1) adds twice to a[0]), for every index form numpy takes, on
the device; reduceat follows numpy's segments, including indices[i] >= indices[i + 1] (the
single element indices[i]) and the last segment running to the end."""

import numpy as np
import pytest

import vkarray as vk
from ufunc_testing import same

RNG = np.random.default_rng(3)


def check_at(name, a, indices, b=None, vk_indices=None):
    want = a.copy()
    args = () if b is None else (b,)
    with np.errstate(all="ignore"):
        getattr(np, name).at(want, indices, *args)
    x = vk.asarray(a)
    vargs = () if b is None else (vk.asarray(b) if isinstance(b, np.ndarray) else b,)
    before = vk.kernel_count()
    assert getattr(vk, name).at(x, indices if vk_indices is None else vk_indices, *vargs) is None
    assert vk.kernel_count() > before  # computed on the device
    same(x, want)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.int8, np.float64, np.uint8])
def test_repeated_indices_apply_each_time(dtype):
    a = np.arange(6).astype(dtype)
    check_at("add", a, [0, 0, 1], 1)  # a[0] += 1 twice
    check_at("add", a, [0, 0, 1, 5, 0], np.arange(5).astype(dtype))
    check_at("multiply", a + 1, [2, 2, 2, 4], 2)
    check_at("maximum", a, [1, 1, 3], np.array([7, 2, 1]).astype(dtype))
    check_at("minimum", a, [5, 5], np.array([3, 4]).astype(dtype))
    check_at("subtract", a, [0, 0, 1], np.array([1, 2, 3]).astype(dtype))
    if np.dtype(dtype).kind in "iu":
        check_at("bitwise_or", a, [3, 3, 3], np.array([1, 2, 8]).astype(dtype))
        check_at("bitwise_xor", a, [3, 3], np.array([5, 5]).astype(dtype))
    check_at("power", a, [2, 2], 2)  # not reorderable: one occurrence per round
    check_at("negative", a.astype(np.int16) if dtype == np.uint8 else a, [0, 0, 1])


def test_index_forms_numpy_takes():
    m = np.arange(24).reshape(4, 6).astype(np.float32)
    check_at("add", m, (slice(None), [0, 0, 5]), 1.5)
    check_at("add", m, ([0, 0, 3], [1, 1, 2]), np.array([10, 20, 30], np.float32))
    check_at("add", m, 2, np.arange(6, dtype=np.float32))
    check_at("add", m, (1, [0, 0]), 1)
    check_at("add", m, [[0, 1], [1, 1]], 1)
    check_at("add", m, [True, False, True, False], 1)
    check_at("add", m, Ellipsis, 1)
    check_at("add", m, slice(1, 3), np.ones(6, np.float32))
    check_at("add", m[0], [-1, -1, -6], 1)
    check_at("add", m[0], np.array([0, 0], np.uint8), 1,
             vk_indices=vk.asarray(np.array([0, 0], np.uint8)))


def test_casts_each_application_as_numpy():
    """An int array and float values: each application is rounded back to int, so the values
    must not be combined first."""
    a = np.arange(5)
    check_at("add", a, [0, 0, 1], 1.5)
    check_at("add", a, [0, 0], np.array([0.6, 0.6]))
    check_at("logical_and", np.array([1.0, 2.0, 0.0]), [0, 0, 1], np.array([1.0, 0.0, 1.0]))


def test_views_and_many_axes_write_through():
    base = np.arange(48, dtype=np.float64).reshape(6, 8)
    x = vk.asarray(base)
    v = x[:, ::2]  # not contiguous
    vk.add.at(v, ([0, 0, 5], [1, 1, 3]), 1)
    want = base.copy()
    np.add.at(want[:, ::2], ([0, 0, 5], [1, 1, 3]), 1)
    same(x, want)
    a4 = np.arange(48, dtype=np.int64).reshape(2, 3, 4, 2)  # more axes than a scatter takes
    check_at("add", a4, ([1, 1, 0], [2, 2, 0], [3, 3, 1], [0, 0, 1]), 7)
    check_at("multiply", a4, (0, slice(None), [1, 1]), 3)


def test_many_repeats_use_the_segmented_scan():
    bins = np.zeros(97, np.int64)
    idx = RNG.integers(0, 97, 20000)
    check_at("add", bins, idx, 1)
    w = RNG.standard_normal(20000)
    check_at("add", np.zeros(97), idx, w)
    check_at("maximum", np.zeros(97, np.float32), idx, w.astype(np.float32))


def test_at_errors_are_numpys():
    x = vk.asarray(np.arange(5.0))
    with pytest.raises(IndexError):
        vk.add.at(x, [0, 5], 1)
    with pytest.raises(ValueError, match=r"\[add\.at\] array is not broadcastable"):
        vk.add.at(x, [0, 0], vk.asarray([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match=r"second operand needed"):
        vk.add.at(x, [0])
    with pytest.raises(ValueError, match=r"second operand provided when ufunc is unary"):
        vk.negative.at(x, [0], 1)
    with pytest.raises(ValueError, match=r"Only single output ufuncs"):
        vk.divmod.at(x, [0], 1)
    with pytest.raises(TypeError, match=r"a must be a vkarray.ndarray"):
        vk.add.at(np.zeros(3), [0], 1)
    with pytest.raises(ValueError, match=r"read-only"):
        vk.add.at(vk.broadcast_to(x, (2, 5)), [0], 1)
    np.testing.assert_array_equal(x.get(), np.arange(5.0))


@pytest.mark.parametrize("indices", [[0, 4, 1, 5], [0, 4, 4, 7], [3, 0], [0], [7], [2, 2, 2],
                                     [0, 1, 2, 3, 4, 5, 6, 7], [6, 5, 4, 3]], ids=str)
@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "multiply", "bitwise_or"])
def test_reduceat_segments(name, indices):
    a = RNG.integers(1, 9, 8)
    x = vk.asarray(a)
    same(getattr(vk, name).reduceat(x, indices), getattr(np, name).reduceat(a, indices))


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.bool_, np.complex64])
def test_reduceat_axes_dtypes_and_out(dtype):
    a = (RNG.standard_normal((5, 7)) * 4).astype(dtype)
    x = vk.asarray(a)
    for axis, idx in ((0, [0, 3, 1]), (1, [0, 2, 2, 6]), (-1, [5, 1])):
        same(vk.add.reduceat(x, idx, axis=axis), np.add.reduceat(a, idx, axis=axis))
        same(vk.add.reduceat(x, vk.asarray(idx), axis=axis, dtype=np.complex128),
             np.add.reduceat(a, idx, axis=axis, dtype=np.complex128))
    wide = np.result_type(a.dtype, np.float64)
    out = vk.zeros((3, 7), wide)
    assert vk.add.reduceat(x, [0, 3, 1], out=out) is out
    same(out, np.add.reduceat(a, [0, 3, 1], out=np.zeros((3, 7), wide)))
    same(vk.add.reduceat(x, []), np.add.reduceat(a, []))


def test_reduceat_long_segments_and_errors():
    a = RNG.standard_normal(10000)
    idx = np.sort(RNG.choice(10000, 40, replace=False))
    same(vk.add.reduceat(vk.asarray(a), idx), np.add.reduceat(a, idx), rtol=1e-12)
    same(vk.maximum.reduceat(vk.asarray(a), idx[::-1]), np.maximum.reduceat(a, idx[::-1]))
    x = vk.asarray(np.arange(8))
    for bad in ([0, 8], [0, -1]):
        with pytest.raises(IndexError):
            np.add.reduceat(np.arange(8), bad)
        with pytest.raises(IndexError, match=r"out-of-bounds in add\.reduceat \[0, 8\)"):
            vk.add.reduceat(x, bad)
    with pytest.raises(TypeError, match=r"Cannot cast array data from dtype\('float64'\)"):
        vk.add.reduceat(x, np.array([0.0, 4.0]))
    with pytest.raises(ValueError, match=r"reduceat only supported for binary functions"):
        vk.sin.reduceat(x, [0])


def test_reduceat_along_a_middle_axis_is_c_ordered():
    x = np.random.default_rng(0).random((3, 4, 5))
    i = np.random.default_rng(1).integers(0, 4, 20).astype(np.int32)
    got = vk.add.reduceat(vk.asarray(x), vk.asarray(i), axis=1)
    want = np.add.reduceat(x, i, axis=1)
    assert got.strides == want.strides
    np.testing.assert_allclose(got.get(), want, rtol=1e-12)
