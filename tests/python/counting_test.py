"""unique (and the array API's unique_*), bincount, histogram, isin and in1d against numpy
1.24: values, dtypes, NaN handling, numpy's exception types, determinism."""

import math

import numpy as np
import pytest

import vkarray as vk
from sort_test import data, same

DTYPES = ["bool", "int8", "uint16", "int32", "uint64", "float16", "float32", "float64",
          "complex64"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (1000,), (4097,), (30, 40), ()])
def test_unique(dtype, shape):
    a = data(shape, dtype, seed=sum(shape) + 1)
    x = vk.asarray(a)
    got = np.asarray(vk.unique(x))
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(got, np.unique(a))  # -0.0 or 0.0: numpy's sort is unstable
    got = vk.unique(x, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    assert len(got) == 4
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w)
        assert np.asarray(g).dtype == w.dtype
    values, index, inverse, counts = want
    r = vk.unique_all(x)
    np.testing.assert_array_equal(np.asarray(r.values), values)
    np.testing.assert_array_equal(np.asarray(r.indices), index)
    np.testing.assert_array_equal(np.asarray(r.inverse_indices), inverse.reshape(a.shape))
    np.testing.assert_array_equal(np.asarray(r.counts), counts)
    np.testing.assert_array_equal(np.asarray(vk.unique_values(x)), values)
    c = vk.unique_counts(x)
    np.testing.assert_array_equal(np.asarray(c.counts), counts)
    i = vk.unique_inverse(x)
    assert i.inverse_indices.shape == a.shape
    np.testing.assert_array_equal(np.asarray(i.inverse_indices), inverse.reshape(a.shape))


def test_unique_nans_collapse_and_selected_outputs():
    a = np.array([np.nan, 2, np.nan, -0.0, 0.0, 2, np.nan])
    x = vk.asarray(a)
    np.testing.assert_array_equal(np.asarray(vk.unique(x)), np.unique(a))
    v, c = vk.unique(x, return_counts=True)
    np.testing.assert_array_equal(np.asarray(c), np.unique(a, return_counts=True)[1])
    v, i = vk.unique(x, return_index=True)
    np.testing.assert_array_equal(np.asarray(i), np.unique(a, return_index=True)[1])


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 4097])
@pytest.mark.parametrize("dtype", ["int32", "uint8", "int64", "bool"])
def test_bincount(n, dtype):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 40 if dtype != "bool" else 2, n).astype(dtype)
    x = vk.asarray(a)
    same(vk.bincount(x), np.bincount(a))
    same(vk.bincount(x, minlength=60), np.bincount(a, minlength=60))
    w = rng.standard_normal(n)
    same(vk.bincount(x, weights=vk.asarray(w)), np.bincount(a, weights=w))  # exactly: in order
    w32 = rng.standard_normal(n).astype(np.float32)
    same(vk.bincount(x, weights=w32), np.bincount(a, weights=w32))


def test_bincount_errors():
    for np_call, vk_call in [
        (lambda: np.bincount(np.array([1, -3, 2])), lambda: vk.bincount(vk.asarray([1, -3, 2]))),
        (lambda: np.bincount(np.array([1.0])), lambda: vk.bincount(vk.asarray([1.0]))),
        (lambda: np.bincount(np.array([1], np.uint64)),
         lambda: vk.bincount(vk.asarray(np.array([1], np.uint64)))),
        (lambda: np.bincount(np.array([[1]])), lambda: vk.bincount(vk.asarray([[1]]))),
        (lambda: np.bincount(np.array([1]), minlength=-1),
         lambda: vk.bincount(vk.asarray([1]), minlength=-1)),
        (lambda: np.bincount(np.array([1]), weights=np.array([1.0, 2.0])),
         lambda: vk.bincount(vk.asarray([1]), weights=[1.0, 2.0])),
    ]:
        with pytest.raises(Exception) as np_err:
            np_call()
        with pytest.raises(type(np_err.value)) as vk_err:
            vk_call()
    with pytest.raises(ValueError, match="-3"):
        vk.bincount(vk.asarray([1, -3, 2]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "float16"])
@pytest.mark.parametrize("bins", [1, 10, 33])
@pytest.mark.parametrize("rng_", [None, (-1.0, 2.5), (0.1, 0.7)])
def test_histogram_uniform(dtype, bins, rng_):
    g = np.random.default_rng(bins)
    a = (g.standard_normal(4097) * 3).astype(dtype)
    x = vk.asarray(a)
    h, e = vk.histogram(x, bins=bins, range=rng_)
    wh, we = np.histogram(a, bins=bins, range=rng_)
    same(h, wh)
    same(e, we)
    w = g.integers(0, 5, a.shape).astype(np.float64)
    same(vk.histogram(x, bins=bins, range=rng_, weights=w)[0],
         np.histogram(a, bins=bins, range=rng_, weights=w)[0])
    dh, _ = vk.histogram(x, bins=bins, range=rng_, density=True)
    with np.errstate(invalid="ignore"):  # no value in range: 0/0, NaN in both
        wd = np.histogram(a, bins=bins, range=rng_, density=True)[0]
    np.testing.assert_array_equal(np.asarray(dh), wd)


def test_histogram_edges_constant_and_errors():
    a = np.array([0.0, 1, 1, 2, 3, 10, 4, np.inf, -5])
    x = vk.asarray(a)
    for edges in [[0, 1, 2, 10], np.array([-5.0, 0.5, 0.5, 4]), [1, 2]]:
        h, e = vk.histogram(x, bins=edges)
        wh, we = np.histogram(a, bins=edges)
        same(h, wh)
        same(e, we)
    same(vk.histogram(x, bins=[0, 3, 11], weights=np.arange(9.0))[0],
         np.histogram(a, bins=[0, 3, 11], weights=np.arange(9.0))[0])
    c = np.full(5, 3.0)
    for got, want in zip(vk.histogram(vk.asarray(c), bins=4), np.histogram(c, bins=4)):
        same(got, want)
    for got, want in zip(vk.histogram(vk.asarray(np.zeros(0)), bins=3),
                         np.histogram(np.zeros(0), bins=3)):
        same(got, want)
    ints = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int32)
    for got, want in zip(vk.histogram(vk.asarray(ints), bins=4), np.histogram(ints, bins=4)):
        same(got, want)
    for np_call, vk_call in [
        (lambda: np.histogram(a), lambda: vk.histogram(x)),  # autodetected range not finite
        (lambda: np.histogram(a, bins=0), lambda: vk.histogram(x, bins=0)),
        (lambda: np.histogram(a, range=(3, 1)), lambda: vk.histogram(x, range=(3, 1))),
        (lambda: np.histogram(a, bins=[3, 1]), lambda: vk.histogram(x, bins=[3, 1])),
        (lambda: np.histogram(a, weights=[1.0]), lambda: vk.histogram(x, weights=[1.0])),
    ]:
        with pytest.raises(Exception) as np_err:
            np_call()
        with pytest.raises(type(np_err.value)):
            vk_call()


@pytest.mark.parametrize("dtype", ["int32", "float32", "uint8", "float64", "bool", "complex64",
                                   "complex128"])
@pytest.mark.parametrize("n", [0, 1, 7, 1000])
def test_isin(dtype, n):
    a = data((n, 3), dtype, seed=n)
    t = data((max(n // 2, 1),), dtype, seed=n + 100)
    x = vk.asarray(a)
    same(vk.isin(x, t), np.isin(a, t))
    same(vk.isin(x, vk.asarray(t), invert=True), np.isin(a, t, invert=True))
    same(vk.in1d(x, t), np.in1d(a, t))
    same(vk.isin(x, np.array([], dtype)), np.isin(a, np.array([], dtype)))
    mixed = np.array([1.5, 2.0, np.nan, -0.0])
    same(vk.isin(x, mixed), np.isin(a, mixed))


def test_deterministic_weighted_sums():
    g = np.random.default_rng(5)
    a = g.integers(0, 3, 4097)
    w = g.standard_normal(4097) * 1e10
    first = np.asarray(vk.bincount(vk.asarray(a), weights=w))
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(vk.bincount(vk.asarray(a), weights=w)), first)
    np.testing.assert_array_equal(first, np.bincount(a, weights=w))


def test_histogram_counts_its_bins_without_reading_their_range():
    # Bins known to lie in [0, nbins]: the bins as int32, the count and the counts' dtype; no
    # minimum and maximum of the bins (bincount's two reductions and their read-back).
    a = np.random.default_rng(3).standard_normal(100000)
    x = vk.asarray(a)
    vk.eval(vk.histogram(x, 100, (-4, 4))[0])
    before = vk.kernel_count()
    h = vk.histogram(x, 100, (-4, 4))[0]
    vk.eval(h)
    assert vk.kernel_count() - before == 3
    same(h, np.histogram(a, 100, (-4, 4))[0])


@pytest.mark.parametrize("ballot", [True, False])
def test_weights_sorted_with_their_bins(ballot):
    # Bins up to 2^17 - 1: bin indices vary in 17 bits, three 8-bit passes (the third writes
    # into the buffer the weights started in), or five 4-bit ones on a device without subgroup
    # ballots, where the weights are gathered through the sorting permutation instead. Each
    # bin's weights are summed in input order: exactly numpy's sums.
    ctx = None if ballot else vk.Context(disable_features=["subgroup_ballot"])
    g = np.random.default_rng(8)
    a = np.concatenate([g.integers(0, 2**17, 30000), g.integers(0, 50, 20000)])
    for w in (g.standard_normal(a.size), g.standard_normal(a.size).astype(np.float32),
              g.integers(-9, 9, a.size)):
        x, wv = vk.asarray(a, context=ctx), vk.asarray(w, context=ctx)
        same(vk.bincount(x, weights=wv), np.bincount(a, weights=w))
        same(wv, w)  # the weights are left as they were
    # A histogram's bins are int32 keys: the same two ways.
    s = g.standard_normal(a.size)
    for bins in (7, 5000):
        got = vk.histogram(vk.asarray(s, context=ctx), bins, (-3, 3),
                           weights=vk.asarray(w, context=ctx))[0]
        np.testing.assert_allclose(np.asarray(got), np.histogram(s, bins, (-3, 3), weights=w)[0],
                                   rtol=1e-12, atol=0)


def test_weighted_counts_on_every_replica(ctx3):
    # Each replica holds its own bins and weights; the sort moves each replica's weights.
    g = np.random.default_rng(12)
    n = 20000
    a = [np.concatenate([g.integers(0, 700, n - 1), [699]]) for _ in range(3)]
    w = [g.standard_normal(n) for _ in range(3)]
    x = vk.asarray(np.zeros(n, np.int64), context=ctx3)
    wv = vk.asarray(np.zeros(n), context=ctx3)
    for r in range(3):
        x.write(a[r], r)
        wv.write(w[r], r)
    got = vk.bincount(x, weights=wv).read()
    hist = vk.histogram(wv, 30, (-3, 3), weights=wv)[0].read()
    for r in range(3):
        np.testing.assert_array_equal(got[r], np.bincount(a[r], weights=w[r]))
        np.testing.assert_allclose(hist[r], np.histogram(w[r], 30, (-3, 3), weights=w[r])[0],
                                   rtol=1e-12, atol=0)


@pytest.mark.parametrize("n", [65535, 65536, 200003])
def test_weighted_bins_longer_than_one_loop(n):
    # One bin holding every element, and three bins of ~n/3: more elements per bin than one
    # llvmpipe invocation may iterate over (65535), so bins are summed in 256 blocks and a
    # tree, not in numpy's order: both sums are within (n - 1) u sum|w| of the exact one.
    w = np.random.default_rng(n).standard_normal(n)
    bound = 2 * (n - 1) * 2.0**-53 * np.abs(w).sum()
    for a in (np.zeros(n, np.int64), np.arange(n) % 3):
        got = np.asarray(vk.bincount(vk.asarray(a), weights=w))
        np.testing.assert_allclose(got, np.bincount(a, weights=w), rtol=0, atol=bound)
        exact = [math.fsum(w[a == k]) for k in range(a.max() + 1)]
        np.testing.assert_allclose(got, exact, rtol=0, atol=bound / 2)


@pytest.mark.parametrize("shape,axis", [((6, 4), 0), ((6, 4), 1), ((5, 3, 2), 1), ((5, 3, 2), -1),
                                        ((3, 0, 2), 0), ((3, 0, 2), 1), ((0, 3), 0), ((7,), 0)])
@pytest.mark.parametrize("dtype", ["int32", "float64", "bool"])
def test_unique_along_an_axis(shape, axis, dtype):
    """The unique slices in lexicographic order, first indices, inverse and counts."""
    a = np.random.default_rng(len(shape) + axis).integers(0, 2, shape).astype(dtype)
    got = vk.unique(vk.asarray(a), True, True, True, axis=axis)
    want = np.unique(a, True, True, True, axis=axis)
    for g, w in zip(got, want):
        same(g, w)
    same(vk.unique(vk.asarray(a), axis=axis), np.unique(a, axis=axis))
    with pytest.raises(np.AxisError):
        vk.unique(vk.asarray(a), axis=len(shape))


@pytest.mark.parametrize("bins", [1, 4096, 4097, 100000])
def test_bincount_counts_in_shared_memory_or_in_the_output(bins):
    # Up to 4096 bins a workgroup counts in shared memory, more straight into the output; both
    # with integer atomics, so the counts equal numpy's exactly.
    rng = np.random.default_rng(bins)
    a = rng.integers(0, bins, 300007)
    a[:1000] = bins - 1  # many hits on one bin
    x = vk.asarray(a)
    same(vk.bincount(x), np.bincount(a))
    same(vk.bincount(x[5:]), np.bincount(a[5:]))   # a view that starts inside its buffer
    same(vk.bincount(x[::3]), np.bincount(a[::3]))  # a strided view
    same(vk.bincount(x, minlength=bins + 5), np.bincount(a, minlength=bins + 5))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bins,rng_", [(1000, (0.1, 0.7)), (7, (-3.0, 1e-3)), (333, None)])
def test_histogram_values_on_and_beside_the_edges(dtype, bins, rng_):
    # Equal bins are found from the value's offset and corrected against the edges: values on
    # an edge and one ulp to either side land in numpy's bins.
    base = np.random.default_rng(bins).uniform(-0.5, 1.0, 5000).astype(dtype)
    _, edges = np.histogram(base, bins, rng_)
    edges = edges.astype(dtype)
    a = np.concatenate([base, edges, np.nextafter(edges, np.inf), np.nextafter(edges, -np.inf),
                        np.array([np.nan, np.inf, -np.inf], dtype) if rng_ else []]).astype(dtype)
    counts, e = vk.histogram(vk.asarray(a), bins, rng_)
    want_counts, want_edges = np.histogram(a, bins, rng_)
    same(counts, want_counts)
    same(e, want_edges)


def test_unique_equal_nan_false_keeps_every_nan():
    for x in [np.array([1., np.nan, 2, np.nan, 1, -0.0, 0.0]),
              np.array([[np.nan, 1 + 1j], [np.nan, 1 + 1j]]), np.array([], np.float32)]:
        for flags in [{}, {"return_index": True},
                      {"return_index": True, "return_inverse": True, "return_counts": True}]:
            want = np.unique(x, equal_nan=False, **flags)
            got = vk.unique(vk.asarray(x), equal_nan=False, **flags)
            want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
            for w, g in zip(want, got):
                assert g.dtype == w.dtype and g.shape == w.shape
                np.testing.assert_array_equal(g.get(), w)
