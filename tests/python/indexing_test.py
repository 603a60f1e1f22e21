"""Advanced indexing reads against numpy: integer-array gathers with numpy's broadcasting and
axis-placement rules, take and take_along_axis, boolean masks (read through a device count and
compaction), nonzero and its family, searchsorted, index bounds known on the host, and their
errors. Writes through the same indices: index_writes_test.py."""

import numpy as np
import pytest

import vkarray as vk
from indexing_testing import DTYPES, data, random_advanced_index, random_case


@pytest.mark.parametrize("seed", range(40))
def test_random_gathers_match_numpy(seed):
    r, rng, shape, _, ref = random_case(seed, seed)
    x = vk.asarray(ref)
    for _ in range(4):
        index = random_advanced_index(r, rng, shape)
        want = ref[index]
        got = x[index].get()
        assert got.shape == want.shape, (index, got.shape, want.shape)
        np.testing.assert_array_equal(got, want, err_msg=repr(index))
        # The same gather with the index arrays on the device (bounds checked there).
        dev = tuple(vk.asarray(i) if isinstance(i, np.ndarray) else i for i in index)
        np.testing.assert_array_equal(x[dev].get(), want, err_msg=repr(index))


def test_gather_fuses_with_elementwise_work():
    x = vk.asarray(np.arange(20, dtype=np.float32))
    x.eval()
    before = vk.kernel_count()
    y = (x[[3, 1, 4, 1, 5]] * 2 + 1)
    y.eval()
    assert vk.kernel_count() - before == 1  # host indices: checked on the host, one kernel
    np.testing.assert_array_equal(y.get(), np.arange(20, dtype=np.float32)[[3, 1, 4, 1, 5]] * 2 + 1)


def test_gather_reads_old_values_after_a_write():
    ref = np.arange(6.0)
    x = vk.asarray(ref)
    g = x[[5, 0]]
    x[:] = -1
    np.testing.assert_array_equal(g.get(), [5.0, 0.0])
    np.testing.assert_array_equal(x[[5, 0]].get(), [-1.0, -1.0])


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_take(mode, axis):
    rng = np.random.default_rng(1)
    ref = rng.standard_normal((4, 5)).astype(np.float32)
    n = ref.size if axis is None else ref.shape[axis]
    idx = rng.integers(-n, n, (2, 3)) if mode == "raise" else rng.integers(-3 * n, 3 * n, 7)
    want = np.take(ref, idx, axis=axis, mode=mode)
    np.testing.assert_array_equal(vk.take(vk.asarray(ref), idx, axis=axis, mode=mode).get(), want)
    np.testing.assert_array_equal(
        vk.take(vk.asarray(ref), vk.asarray(idx), axis=axis, mode=mode).get(), want)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_take_along_axis(axis):
    rng = np.random.default_rng(2)
    ref = rng.standard_normal((3, 4, 5))
    ishape = list(ref.shape)
    ishape[axis] = 6
    ishape[(axis + 1) % 3] = 1  # broadcasts against the array
    idx = rng.integers(0, ref.shape[axis], ishape)
    np.testing.assert_array_equal(vk.take_along_axis(vk.asarray(ref), idx, axis).get(),
                                  np.take_along_axis(ref, idx, axis))


@pytest.mark.parametrize("n", [0, 1, 7, 1023, 1024, 1025, 4096 * 3 + 5, 1 << 20])
def test_mask_reads_and_nonzero_across_scan_levels(n):
    rng = np.random.default_rng(n)
    ref = rng.standard_normal(n).astype(np.float32)
    x = vk.asarray(ref)
    np.testing.assert_array_equal(x[x > 0.3].get(), ref[ref > 0.3])
    np.testing.assert_array_equal(vk.flatnonzero(x > 0).get(), np.flatnonzero(ref > 0))
    assert vk.count_nonzero(x > 1) == np.count_nonzero(ref > 1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_nonzero_family(dtype):
    rng = np.random.default_rng(3)
    ref = data(rng, (3, 4, 5), dtype)
    ref.flat[::3] = 0
    x = vk.asarray(ref)
    for got, want in zip(vk.nonzero(x), np.nonzero(ref)):
        np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(vk.argwhere(x).get(), np.argwhere(ref))
    for got, want in zip(vk.where(x), np.where(ref)):
        np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(vk.extract(x, x).get(), np.extract(ref, ref))
    np.testing.assert_array_equal(vk.compress([1, 0, 1, 1], x, axis=1).get(),
                                  np.compress([1, 0, 1, 1], ref, axis=1))
    np.testing.assert_array_equal(vk.compress([0, 1], x).get(), np.compress([0, 1], ref))


def test_masks_of_leading_axes_and_mixed_with_other_indices():
    rng = np.random.default_rng(4)
    ref = rng.integers(0, 9, (4, 5, 6))
    x = vk.asarray(ref)
    m2 = ref[:, :, 0] > 3
    np.testing.assert_array_equal(x[m2].get(), ref[m2])
    np.testing.assert_array_equal(x[vk.asarray(m2)].get(), ref[m2])
    m1 = [True, False, True, True, False]
    np.testing.assert_array_equal(x[:, m1].get(), ref[:, m1])
    np.testing.assert_array_equal(x[2, m1, 1:].get(), ref[2, m1, 1:])
    m6 = [True, False, False, False, False, True]  # two indices: broadcast with [0, 3]
    np.testing.assert_array_equal(x[[0, 3], :, m6].get(), ref[[0, 3], :, m6])
    with pytest.raises(IndexError):  # numpy: "shape mismatch: indexing arrays could not ..."
        x[[0, 3], :, [True] * 6]


def test_index_arrays_from_arange_are_checked_without_the_device():
    # Nussinov's diagonal: i = idx[:n - d], j = i + d. Their bounds are known on the host
    # (ir/value_range.h), so the gathers launch nothing at the call; an index the host cannot
    # prove in range, or one read after a write, is still checked on the device and raises.
    n, d = 10, 3
    ref = np.arange(n * n).reshape(n, n)
    t = vk.asarray(ref)
    idx = vk.arange(n)
    i = idx[:n - d]
    j = i + d
    k = i[:, None] + idx[1:d][None, :]
    column = j[:, None]  # a view of a lazy array: j is computed here (its bounds noted)
    before = vk.kernel_count()
    picked = t[i, j]
    split = t[i[:, None], k] + t[k + 1, column]
    assert vk.kernel_count() == before
    ri = np.arange(n - d)
    rk = ri[:, None] + np.arange(1, d)[None, :]
    np.testing.assert_array_equal(picked.get(), ref[ri, ri + d])
    np.testing.assert_array_equal(split.get(), ref[ri[:, None], rk] + ref[rk + 1, (ri + d)[:, None]])
    with pytest.raises(IndexError, match="out of range"):
        t[i, i + d + 1]  # reaches n
    idx[0] = 50  # a write: the values known before no longer hold
    with pytest.raises(IndexError, match="out of range"):
        t[idx[:2]]


def test_errors_match_numpy():
    ref = np.arange(12).reshape(3, 4)
    x = vk.asarray(ref)
    for index in [([0, 3],), (slice(None), [4]), ([-4],), (vk.asarray(np.array([0, 9])),)]:
        with pytest.raises(IndexError):
            x[index]
    with pytest.raises(IndexError):
        x[np.array([0.5])]
    with pytest.raises(IndexError):
        x[np.ones((2, 2), bool)]  # mask of the wrong shape
    with pytest.raises(IndexError):
        x[[0, 1], [0, 1, 2]]  # index arrays that do not broadcast
    with pytest.raises(IndexError):
        vk.take(x, [12])
    with pytest.raises(IndexError):
        vk.take(x, vk.asarray(np.array([-13])))
    with pytest.raises(ValueError):
        vk.take(x, [0], mode="bogus")
    np.testing.assert_array_equal(x.get(), ref)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.uint16, np.int64,
                                   np.bool_, np.float16])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(dtype, side):
    rng = np.random.default_rng(8)
    a = np.sort(data(rng, 50, dtype))
    v = data(rng, (3, 7), dtype)
    if np.issubdtype(dtype, np.floating):
        a[-3:] = np.nan  # numpy sorts NaN last
        v[0, :2] = np.nan
    want = np.searchsorted(a, v, side=side)
    got = vk.searchsorted(vk.asarray(a), vk.asarray(v), side=side)
    np.testing.assert_array_equal(got.get(), want)
    assert vk.searchsorted(vk.asarray(a), v.flat[3], side=side) == np.searchsorted(a, v.flat[3],
                                                                                 side=side)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_complex_in_numpys_order(dtype, side):
    """By real part, then imaginary part; NaNs in either part sort last, as numpy's."""
    rng = np.random.default_rng(12)
    parts = np.array([0.0, 1.0, 2.0, -1.5, np.nan, np.inf, -np.inf])
    with np.errstate(invalid="ignore"):
        a = np.sort((rng.choice(parts, 60) + 1j * rng.choice(parts, 60)).astype(dtype))
        v = (rng.choice(parts, (4, 30)) + 1j * rng.choice(parts, (4, 30))).astype(dtype)
    got = vk.searchsorted(vk.asarray(a), vk.asarray(v), side=side)
    np.testing.assert_array_equal(got.get(), np.searchsorted(a, v, side=side))
    real = np.sort(rng.standard_normal(9))  # a real array searched for complex values
    np.testing.assert_array_equal(vk.searchsorted(vk.asarray(real), vk.asarray(v[0])).get(),
                                  np.searchsorted(real, v[0]))
    assert vk.searchsorted(vk.asarray(a[:0]), vk.asarray(v)).shape == v.shape


def test_searchsorted_of_more_values_than_65535_workgroups():
    # 256 threads a workgroup: more than 65535 * 256 values, within lavapipe's 128 MiB binding
    # of the int64 result.
    rng = np.random.default_rng(10)
    a = np.arange(-120, 120, 7, dtype=np.int8)
    v = rng.integers(-128, 128, 65535 * 256 + 40, dtype=np.int8)
    got = vk.searchsorted(vk.asarray(a), vk.asarray(v), side="right").get()
    np.testing.assert_array_equal(got, np.searchsorted(a, v, side="right"))


def test_searchsorted_with_sorter_and_errors():
    rng = np.random.default_rng(9)
    a = rng.standard_normal(20)
    order = np.argsort(a)
    v = rng.standard_normal(5)
    np.testing.assert_array_equal(vk.searchsorted(a, v, sorter=order).get(),
                                  np.searchsorted(a, v, sorter=order))
    with pytest.raises(ValueError):
        vk.searchsorted(vk.asarray(np.zeros((2, 2))), 1.0)
    with pytest.raises(ValueError):
        vk.searchsorted(a, v, side="middle")


def test_boolean_scalar_indices_add_an_axis_of_one_or_none():
    """numpy: a 0-d boolean index is an index array of shape (1,) or (0,) over a new axis, an
    advanced index that broadcasts and places with the others."""
    x = np.arange(24).reshape(2, 3, 4)
    d = vk.asarray(x)
    m = x[:, :, 0] > 5
    for idx in [True, False, np.False_, (0, True), (True, 0), (Ellipsis, False), (None, True),
                (True, True), (True, False), (slice(None), True), (slice(None), True, [0, 1]),
                ([0, 1], True), (0, slice(None), True), (np.array(True),), (vk.asarray(True),),
                (True, m), (m, True, 1)]:
        want = x[idx]
        got = d[idx]
        assert got.shape == want.shape, idx
        np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(vk.asarray(np.float32(3))[True].get(),
                                  np.array(np.float32(3))[True])
    y = x.copy()
    e = vk.asarray(y)
    for idx, value in [(True, 7), (False, 9), ((0, True), -1), ((Ellipsis, True, 1), 100)]:
        y[idx] = value
        e[idx] = value
        np.testing.assert_array_equal(e.get(), y)


def test_take_of_a_0d_array_along_axis_0():
    """numpy reads axis 0 (or -1) of a 0-d array as the axis of its one element."""
    x = np.array(5.0)
    d = vk.asarray(x)
    for indices, axis in [(0, 0), (-1, -1), ([0], 0), ([0, -1], -1)]:
        want = x.take(indices, axis=axis)
        got = d.take(indices, axis=axis)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(IndexError):
        d.take(1, axis=0)
    with pytest.raises(np.AxisError):
        d.take(0, axis=1)


def test_boolean_masks_must_match_the_axes_they_index():
    cases = [((3, 4), ([1, 0], [True, True])),
             ((2, 3, 4), ([True, True], [[True, True, False, False]])),
             ((2, 3, 4), np.empty((0, 1), bool)), ((2, 3, 4), (np.empty(0, bool),
                                                               np.empty((0, 2), bool))),
             ((0,), ([False],)), ((2, 3, 4), (slice(None), np.ones((3, 1), bool))),
             ((2, 3, 4), (slice(None), np.ones((3, 4), bool))),
             ((2, 3, 4), ([0, 1], np.ones(3, bool))),
             ((2, 3, 4), (np.ones(2, bool), 0, np.array([True, False, True, True]))),
             # numpy lets a mask dimension of extent 0 through whatever the axis' extent
             ((2, 3, 4), (slice(None), np.array([], bool))), ((2, 3, 4), np.empty((0, 0, 4), bool)),
             ((2, 3, 4), (np.empty((0, 3), bool), np.empty(0, bool)))]
    for shape, index in cases:
        x = np.arange(int(np.prod(shape))).reshape(shape)
        d = vk.asarray(x)
        try:
            want = x[index]
        except IndexError as e:  # a mask against other extents, or index arrays that differ
            with pytest.raises(IndexError, match=str(e).split(" ")[0]):
                d[index]
            with pytest.raises(IndexError, match=str(e).split(" ")[0]):
                d[index] = 0
            continue
        got = d[index]
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)
