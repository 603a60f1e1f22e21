"""roll, tile, repeat and pad (vkarray/_reorder.py) against numpy: values over several dtypes,
edge cases, numpy's exception types and kernel counts.

numpy here is 1.24, which pads wide reflect/symmetric/wrap regions inconsistently (fixed in
1.25); those cases are checked against a periodic reference instead.
"""

import numpy as np
import pytest

import vkarray as vk
from shaping_testing import DTYPES, sample, check, same_error, kernels, device


# ---------------------------------------------------------------------------------------------
# roll, tile, repeat


@pytest.mark.parametrize("dtype", DTYPES)
def test_roll(dtype):
    x = sample((3, 4, 2), dtype)
    d = device(x)
    for shift, axis in [(1, None), (-5, None), (2, 0), (-1, -1), (7, 1), ((1, 2), (0, 1)),
                        ((1, -1, 1), (0, 1, 2)), (3, (0, 1)), ((1, 1), (1, 1)), (0, 0), (4, 1),
                        (np.int64(2), np.int32(-2))]:
        check(vk.roll(d, shift, axis), np.roll(x, shift, axis))
    check(vk.roll(x[..., 0].T, 1, 0), np.roll(x[..., 0].T, 1, 0))
    check(vk.roll(np.float32(3), 2), np.roll(np.float32(3), 2))
    check(vk.roll(np.zeros((0, 3), dtype), 2, 1), np.roll(np.zeros((0, 3), dtype), 2, 1))


def test_roll_errors_and_kernels():
    x = np.ones((2, 3))
    for shift, axis in [(1, 2), (1, -3), ((1, 2), (0, 1, 1)), (((1,),), 0)]:
        same_error(lambda: np.roll(x, shift, axis), lambda: vk.roll(x, shift, axis))
    d = device(x)
    assert kernels(lambda: vk.roll(d, 1, 0)) == 1  # a gather
    assert kernels(lambda: vk.roll(d, (1, 1), (0, 1))) == 1
    assert kernels(lambda: vk.roll(d, 1)) == 1  # axis=None of 2-d: the flat gather, computed
    assert kernels(lambda: vk.roll(d, 3, 1)) == 1  # nothing moves: a lazy copy
    r = vk.roll(d, 2, 0)
    assert r is not d


@pytest.mark.parametrize("dtype", DTYPES)
def test_tile(dtype):
    for shape, reps in [((2, 3), 2), ((2, 3), (2, 1)), ((2, 3), (3, 1, 2)), ((3,), (2, 2)),
                        ((), 3), ((), ()), ((2, 1, 2), (2,)), ((2, 3), (0, 2)), ((0, 2), 3),
                        ((1,), (1, 1))]:
        x = sample(shape, dtype)
        check(vk.tile(device(x), reps), np.tile(x, reps))
    x = sample((2, 3), dtype)
    check(vk.tile(device(x).T, (2, 2)), np.tile(x.T, (2, 2)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat(dtype):
    x = sample((3, 2), dtype)
    d = device(x)
    for repeats, axis in [(2, None), (3, 0), (2, 1), (2, -1), (0, 0), (1, None),
                          ([1, 0, 2], 0), ([2, 2, 1], -2), ((0, 3), 1), (np.array([2]), 0),
                          ([1, 2, 0, 1, 1, 3], None), (np.array([1, 1, 1]), 0), ([0, 0], 1)]:
        check(vk.repeat(d, repeats, axis), np.repeat(x, repeats, axis))
    check(vk.repeat(d.T, 2, 0), np.repeat(x.T, 2, 0))
    check(vk.repeat(np.float32(2), 3), np.repeat(np.float32(2), 3))
    check(vk.repeat(np.float32(2), [2], axis=-1), np.repeat(np.float32(2), [2], axis=-1))
    check(vk.repeat(vk.asarray(x) + x, vk.asarray([1, 2]), 1), np.repeat(x + x, [1, 2], 1))


def test_tile_repeat_errors_and_kernels():
    x = np.ones((2, 3))
    for call in [lambda m: m.repeat(x, 2, axis=2), lambda m: m.repeat(x, -1),
                 lambda m: m.repeat(x, [1, -1], axis=0), lambda m: m.repeat(x, [1, 2], axis=1),
                 lambda m: m.repeat(np.float32(1), 2, axis=1),
                 lambda m: m.repeat(x, [[1, 2]], axis=0)]:
        same_error(lambda: call(np), lambda: call(vk))
    with pytest.raises(TypeError):  # numpy 2 casts repeats with 'safe' (1.24 truncated 1.5)
        vk.repeat(x, 1.5)
    with pytest.raises(ValueError):
        vk.tile(x, (-1, 2))
    d = device(sample((3, 4), "float32"))
    assert kernels(lambda: vk.tile(d, (2, 3))) == 1
    assert kernels(lambda: vk.tile(d * 2 + 1, (2, 1, 3))) == 1  # the lazy input fuses
    assert kernels(lambda: vk.repeat(d, 3, axis=1)) == 1
    assert kernels(lambda: vk.repeat(d - 1, 2)) == 1
    assert kernels(lambda: vk.repeat(d, [1, 1, 2], axis=0)) == 2  # one per run of equal counts


# ---------------------------------------------------------------------------------------------
# pad


def periodic_pad(x, widths, mode):
    """numpy >= 1.25's pad for the modes that copy x: an index map per axis."""
    index = []
    for n, (lo, hi) in zip(x.shape, widths):
        j = np.arange(-lo, n + hi)
        if mode == "wrap":
            m = j % n
        elif mode == "symmetric":
            m = j % (2 * n)
            m = np.where(m < n, m, 2 * n - 1 - m)
        elif mode == "edge" or n == 1:
            m = np.clip(j, 0, n - 1)
        else:
            p = 2 * (n - 1)
            m = j % p
            m = np.where(m < n, m, p - m)
        index.append(m)
    return x[np.ix_(*index)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
def test_pad_modes(dtype, mode):
    x = sample((3, 4), dtype)
    d = device(x)
    for width in [1, (1, 2), ((0, 2), (3, 1)), ((2,), (1,)), 0, ((1, 1), (0, 0))]:
        check(vk.pad(d, width, mode), np.pad(x, width, mode))
    check(vk.pad(d.T, ((1, 0), (2, 1)), mode), np.pad(x.T, ((1, 0), (2, 1)), mode))
    x3 = sample((2, 3, 2), dtype)
    check(vk.pad(x3, ((1, 1), (1, 2), (2, 1)), mode), np.pad(x3, ((1, 1), (1, 2), (2, 1)), mode))
    check(vk.pad(x[0], 2, mode), np.pad(x[0], 2, mode))
    one = sample((1, 1), dtype)
    check(vk.pad(one, 2, mode), np.pad(one, 2, mode))


@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap"])
def test_pad_wide_periodic(mode):
    """Widths several times the input, where numpy 1.24 itself is wrong for some widths."""
    rng = np.random.default_rng(5)
    for _ in range(12):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 5, ndim))
        widths = [tuple(int(w) for w in rng.integers(0, 10, 2)) for _ in range(ndim)]
        x = rng.integers(0, 100, shape).astype(np.int32)
        check(vk.pad(x, widths, mode), periodic_pad(x, widths, mode))
    # numpy >= 1.25: np.pad([1, 2, 3], (2, 4), "wrap")
    check(vk.pad(np.array([1, 2, 3]), (2, 4), "wrap"), np.array([2, 3, 1, 2, 3, 1, 2, 3, 1]))


def test_pad_constant_values_and_edge_cases():
    x = sample((2, 3), "int32")
    for cv in [7, 2.9, (1, 2), ((1, 2), (3, 4)), [[5], [6]], np.int8(-3)]:
        check(vk.pad(x, ((1, 2), (2, 1)), constant_values=cv),
              np.pad(x, ((1, 2), (2, 1)), constant_values=cv))
    f = sample((2, 3), "float32")
    check(vk.pad(f, 1, "constant", constant_values=np.nan),
          np.pad(f, 1, "constant", constant_values=np.nan))
    check(vk.pad(np.float32(3), 2), np.pad(np.float32(3), 2))  # 0-d: nothing to pad
    e = np.zeros((0, 2), np.float32)
    check(vk.pad(e, 1), np.pad(e, 1))
    check(vk.pad(e, ((0, 0), (1, 1)), "edge"), np.pad(e, ((0, 0), (1, 1)), "edge"))
    p = vk.pad(f, ((1, 0), (0, 2)), "empty")
    assert p.shape == (3, 5) and p.dtype == np.float32
    np.testing.assert_array_equal(p.get()[1:, :3], f)


PAD_DTYPES = ["int8", "uint8", "int64", "float16", "float32", "float64", "complex64"]
PAD_WIDTHS = [1, (2, 3), ((1, 2), (0, 3)), 4]


@pytest.mark.parametrize("dtype", PAD_DTYPES)
@pytest.mark.parametrize("mode, kwargs", [
    ("maximum", {}), ("minimum", {"stat_length": 2}),
    ("maximum", {"stat_length": ((1, 3), (2, 0))}),
    ("mean", {}), ("mean", {"stat_length": (2, 3)}), ("median", {}), ("median", {"stat_length": 3}),
    ("linear_ramp", {}), ("linear_ramp", {"end_values": (-4, 5)}),
    ("reflect", {"reflect_type": "odd"}), ("symmetric", {"reflect_type": "odd"}),
    ("symmetric", {"reflect_type": "even"})])
def test_pad_modes_from_the_padded_values(dtype, mode, kwargs):
    """Integer-valued data: statistics of the input are exact or rounded once, as numpy's."""
    if mode == "median" and dtype == "complex64":
        return  # numpy's median of complex numbers sorts them; a separate matter
    if mode == "maximum" and kwargs.get("stat_length") == ((1, 3), (2, 0)):
        same_error(lambda: np.pad(sample((3, 4), "int32"), 1, mode, **kwargs),
                   lambda: vk.pad(sample((3, 4), "int32"), 1, mode, **kwargs))
        return
    for shape in [(5,), (3, 4), (2, 3, 4)]:
        x = (np.arange(np.prod(shape)).reshape(shape) * 3 % 7 + 1).astype(dtype)
        for width in PAD_WIDTHS:
            if isinstance(width, tuple) and isinstance(width[0], tuple) and len(shape) != 2:
                continue
            with np.errstate(all="ignore"):
                want = np.pad(x, width, mode, **kwargs)
            got = vk.pad(device(x), width, mode, **kwargs)
            if mode == "mean" and want.dtype.kind in "fc" and x.ndim > 1:
                # later axes average padded means: sums of inexact values, a few ulps apart
                # (vkarray's compensated sums against numpy's pairwise ones, reduce_test.py)
                assert got.dtype == want.dtype
                np.testing.assert_allclose(got.get(), want, rtol=4 * np.finfo(want.dtype).eps)
            else:
                check(got, want)


def test_pad_with_a_function():
    def tens(vector, width, axis, kwargs):
        vector[:width[0]] = kwargs.get("value", 10)
        vector[vector.shape[0] - width[1]:] = kwargs.get("value", 10)

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    check(vk.pad(device(x), 2, tens), np.pad(x, 2, tens))
    check(vk.pad(device(x), ((1, 0), (0, 2)), tens, value=-1),
          np.pad(x, ((1, 0), (0, 2)), tens, value=-1))
    with pytest.raises(ValueError, match=r"\[pad\] reflect_type must be 'even' or 'odd'"):
        vk.pad(device(x), 1, "reflect", reflect_type="sideways")
    with pytest.raises(ValueError, match=r"stat_length of 0 yields no value"):
        vk.pad(device(x), 1, "maximum", stat_length=0)


def test_pad_errors_and_kernels():
    x = np.ones((2, 3))
    for call in [lambda m: m.pad(x, -1), lambda m: m.pad(x, ((1, 2, 3),)),
                 lambda m: m.pad(x, 1.5), lambda m: m.pad(x, 1, "nonsense"),
                 lambda m: m.pad(x, 1, "edge", constant_values=2),
                 lambda m: m.pad(np.ones((0, 2)), 1, "wrap"),
                 lambda m: m.pad(x, ((1, 1), (1, 1), (1, 1)))]:
        same_error(lambda: call(np), lambda: call(vk))
    d = device(sample((3, 4), "float32"))
    assert kernels(lambda: vk.pad(d, 1)) == 2  # the fill, the input
    # The input, one per side; the first axis's two sides are recorded together with the
    # input's write (write.h, step 3) and run as one kernel.
    assert kernels(lambda: vk.pad(d, 1, constant_values=(1, 2))) == 4
    for mode in ["edge", "reflect", "symmetric", "wrap"]:
        assert kernels(lambda: vk.pad(d, 1, mode)) == 5  # the input, then one per side


def test_roll_fuses_with_its_consumers():
    a = np.arange(7 * 1000, dtype=np.float32).reshape(7, 1000)
    x = vk.asarray(a)
    vk.eval(x)
    before = vk.kernel_count()
    got = np.asarray(vk.roll(x, 1, axis=0) - vk.roll(x, (2, -3), axis=(0, 1)))
    assert vk.kernel_count() - before == 1
    np.testing.assert_array_equal(got, np.roll(a, 1, 0) - np.roll(a, (2, -3), (0, 1)))
    got = np.asarray(vk.roll(x, 1, axis=0) + vk.roll(x, -1, axis=1) + vk.roll(x, (2, -3),
                                                                        axis=(0, 1)) - x)
    np.testing.assert_array_equal(
        got, np.roll(a, 1, 0) + np.roll(a, -1, 1) + np.roll(a, (2, -3), (0, 1)) - a)
    v = vk.asarray(a[0])
    vk.eval(v)
    before = vk.kernel_count()
    got = np.asarray(vk.roll(v, -1) * vk.roll(v, 2) - v)  # 1-d, axis=None
    assert vk.kernel_count() - before == 1
    np.testing.assert_array_equal(got, np.roll(a[0], -1) * np.roll(a[0], 2) - a[0])
    b = np.arange(2 * 3 * 4 * 5, dtype=np.int64).reshape(2, 3, 4, 5)
    for shift, axis in [((1, 2), (0, 3)), ((1, -1, 2), (1, 2, 3)), ((1, 1), (1, 2)), (-7, 2)]:
        np.testing.assert_array_equal(np.asarray(vk.roll(vk.asarray(b), shift, axis)),
                                      np.roll(b, shift, axis))


@pytest.mark.parametrize("shift, axis", [(3, None), ((1, -2), (0, 1)), (-4, 1)])
def test_roll_of_an_array_too_large_to_gather(monkeypatch, shift, axis):
    from vkarray import _reorder
    monkeypatch.setattr(_reorder, "_gather_fits", lambda x: False)  # the assignments' path
    a = np.arange(5 * 33, dtype=np.int16).reshape(5, 33)
    np.testing.assert_array_equal(np.asarray(vk.roll(vk.asarray(a), shift, axis)),
                                  np.roll(a, shift, axis))
