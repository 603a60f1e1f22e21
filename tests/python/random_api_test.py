"""vkarray.random's distributions and methods: statistics (mean, variance, Kolmogorov-Smirnov
at n = 10^6, fixed seeds, significance 0.001), integers of every dtype, permutation, shuffle,
choice, state, bytes, the legacy functions, and numpy's errors."""

import math

import numpy as np
import pytest

import vkarray as vk
from random_testing import blocks, ref_integers

def ks_statistic(x, cdf):
    x = np.sort(x)
    n = len(x)
    f = cdf(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


KS_CRIT = 1.95 / math.sqrt(10**6)  # Kolmogorov-Smirnov, significance 0.001
_erf = np.frompyfunc(math.erf, 1, 1)


def normal_cdf(x):
    return 0.5 * (1 + _erf(x / math.sqrt(2)).astype(np.float64))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_statistics_at_a_million(dtype):
    n = 10**6
    rng = vk.random.default_rng(123)
    u = np.asarray(rng.random(n, dtype=dtype)).astype(np.float64)
    assert u.min() >= 0 and u.max() < 1
    assert abs(u.mean() - 0.5) < 5 * math.sqrt(1 / 12 / n)
    assert abs(u.var() - 1 / 12) < 5 * math.sqrt(1 / 180 / n)
    assert ks_statistic(u, lambda x: x) < KS_CRIT
    z = np.asarray(rng.standard_normal(n, dtype=dtype)).astype(np.float64)
    assert abs(z.mean()) < 5 / math.sqrt(n)
    assert abs(z.var() - 1) < 5 * math.sqrt(2 / n)
    assert ks_statistic(z, normal_cdf) < KS_CRIT
    e = np.asarray(rng.standard_exponential(n, dtype=dtype)).astype(np.float64)
    assert e.min() >= 0 and abs(e.mean() - 1) < 5 / math.sqrt(n)
    assert ks_statistic(e, lambda x: -np.expm1(-x)) < KS_CRIT
    k = np.asarray(rng.integers(0, 10, n))
    counts = np.bincount(k, minlength=10)
    chi2 = ((counts - n / 10) ** 2 / (n / 10)).sum()
    assert chi2 < 27.88  # chi-square, 9 degrees of freedom, significance 0.001


def test_uniform_normal_exponential_parameters():
    rng = vk.random.default_rng(4)
    u = np.asarray(rng.uniform(-2.0, 3.0, 5000))
    assert u.min() >= -2 and u.max() < 3 and u.dtype == np.float64
    lo = np.array([0.0, 10.0, 100.0])
    b = np.asarray(rng.uniform(lo, lo + 1, size=(200, 3)))
    assert ((b >= lo) & (b < lo + 1)).all()
    assert rng.uniform(lo, 5.0).shape == (3,)
    x = np.asarray(rng.normal(10.0, 0.5, 20000))
    assert abs(x.mean() - 10) < 0.05 and abs(x.std() - 0.5) < 0.02
    assert rng.normal(vk.asarray([1.0, 2.0]), 1.0).shape == (2,)
    assert rng.normal(size=()).shape == ()
    e = np.asarray(rng.exponential(3.0, (100, 100)))
    assert e.shape == (100, 100) and abs(e.mean() - 3) < 0.2
    out = vk.zeros(10, dtype=np.float32)
    rng.random(dtype=np.float32, out=out)
    assert (np.asarray(out) > 0).any()
    assert rng.random(0).shape == (0,)
    assert rng.standard_normal((2, 0, 3)).shape == (2, 0, 3)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32,
                                   np.uint32, np.int64, np.uint64])
def test_integers_every_dtype_hits_both_ends(dtype):
    rng = vk.random.default_rng(6)
    info = np.iinfo(dtype) if dtype != np.bool_ else None
    lo, hi = (0, 1) if info is None else (int(info.min), int(info.max))
    x = np.asarray(rng.integers(lo, hi, 5000, dtype=dtype, endpoint=True))
    assert x.dtype == dtype
    if dtype in (np.bool_, np.int8, np.uint8):
        assert x.min() == lo and x.max() == hi
    y = np.asarray(rng.integers(3, size=1000, dtype=dtype if dtype != np.bool_ else np.int8))
    assert set(np.unique(y)) == {0, 1, 2}


def test_permutation_shuffle_choice():
    rng = vk.random.default_rng(10)
    for n in [1, 7, 1000]:
        p = np.asarray(rng.permutation(n))
        np.testing.assert_array_equal(np.sort(p), np.arange(n))
    a = np.arange(20.0).reshape(5, 4)
    pa = np.asarray(rng.permutation(vk.asarray(a)))
    np.testing.assert_array_equal(np.sort(pa[:, 0]), a[:, 0])
    np.testing.assert_array_equal(pa[:, 1] - pa[:, 0], np.ones(5))
    pc = np.asarray(rng.permutation(vk.asarray(a), axis=1))
    np.testing.assert_array_equal(np.sort(pc, axis=1), a)
    x = vk.asarray(a)
    v = x[1:4]
    rng.shuffle(x)
    xs = np.asarray(x)
    np.testing.assert_array_equal(np.sort(xs[:, 0]), a[:, 0])
    np.testing.assert_array_equal(np.asarray(v), xs[1:4])  # in place: views see the shuffle
    c = np.asarray(rng.choice(10, 10, replace=False))
    np.testing.assert_array_equal(np.sort(c), np.arange(10))
    c = np.asarray(rng.choice(5, (3, 4)))
    assert c.shape == (3, 4) and c.min() >= 0 and c.max() < 5
    w = np.asarray(rng.choice(4, 20000, p=[0.1, 0.0, 0.6, 0.3]))
    counts = np.bincount(w, minlength=4) / 20000
    assert counts[1] == 0 and abs(counts[2] - 0.6) < 0.02 and abs(counts[0] - 0.1) < 0.01
    wo = np.asarray(rng.choice(4, 2, replace=False, p=[0.5, 0, 0.5, 0]))
    assert sorted(wo) == [0, 2]
    s = np.asarray(rng.choice(vk.asarray(a), 3, axis=1))
    assert s.shape == (5, 3) and set(s[0]) <= set(a[0])
    s = np.asarray(rng.choice(np.array([7, 8, 9]), 50))
    assert set(s) <= {7, 8, 9}
    assert rng.choice(0, 0).shape == (0,)
    assert rng.choice(vk.asarray(4), 3).shape == (3,)  # a 0-d array is an int, as numpy's
    assert rng.permutation(0).shape == (0,)
    base = vk.arange(10.0)
    rng.shuffle(base[::2])  # a view: only its elements move
    got = np.asarray(base)
    np.testing.assert_array_equal(got[1::2], np.arange(1.0, 10.0, 2))
    np.testing.assert_array_equal(np.sort(got[::2]), np.arange(0.0, 10.0, 2))
    empty = vk.zeros((0, 3))
    rng.shuffle(empty)
    assert empty.shape == (0, 3)


def test_state_round_trip():
    a = vk.random.default_rng(2)
    a.random(5)
    saved = a.state
    x = np.asarray(a.standard_normal(7))
    b = vk.random.default_rng(99)
    b.state = saved
    np.testing.assert_array_equal(np.asarray(b.standard_normal(7)), x)
    assert b.state == a.state
    with pytest.raises(ValueError, match="Philox4x32-10"):
        b.state = {"bit_generator": "PCG64"}


def test_bytes_are_the_uint32_stream():
    rng = vk.random.default_rng(19)
    key, c = rng.key, rng.counter
    b = rng.bytes(10)
    want = np.array(ref_integers(key, c, 3, 0, 2**32), dtype=np.uint32).tobytes()[:10]
    assert isinstance(b, bytes) and b == want


def test_legacy_functions():
    vk.random.seed(3)
    a = np.asarray(vk.random.rand(3, 4))
    vk.random.seed(3)
    np.testing.assert_array_equal(np.asarray(vk.random.random_sample((3, 4))), a)
    assert vk.random.randn(5).shape == (5,)
    r = np.asarray(vk.random.randint(2, 9, size=100))
    assert r.min() >= 2 and r.max() < 9
    assert vk.random.uniform(1, 2, 3).shape == (3,)
    assert vk.random.normal(0, 1, (2, 2)).shape == (2, 2)
    assert vk.random.random(4).shape == (4,)


def test_errors_match_numpy():
    rng = vk.random.default_rng(1)
    with pytest.raises(ValueError, match="low is out of bounds for int8"):
        rng.integers(-200, 5, dtype=np.int8)
    with pytest.raises(ValueError, match="high is out of bounds for int8"):
        rng.integers(0, 300, dtype=np.int8)
    with pytest.raises(ValueError, match="low >= high"):
        rng.integers(5, 5)
    with pytest.raises(ValueError, match="low > high"):
        rng.integers(5, 4, endpoint=True)
    with pytest.raises(TypeError, match="Unsupported dtype float64 for integers"):
        rng.integers(0, 5, dtype=np.float64)
    with pytest.raises(TypeError, match="Unsupported dtype float16 for random"):
        rng.random(3, dtype=np.float16)
    with pytest.raises(TypeError, match="Unsupported dtype int32 for standard_normal"):
        rng.standard_normal(3, dtype=np.int32)
    with pytest.raises(ValueError, match="negative dimension"):
        rng.random(-1)
    with pytest.raises(ValueError, match="scale < 0"):
        rng.normal(0, -1, 3)
    with pytest.raises(ValueError, match="scale < 0"):
        rng.exponential(-1, 3)
    with pytest.raises(OverflowError, match="range exceeds valid bounds"):
        rng.uniform(0, np.inf, 3)
    for a in [0, -1]:
        with pytest.raises(ValueError, match="a must be a positive integer unless no samples"):
            rng.choice(a, 3)
    with pytest.raises(ValueError, match="a cannot be empty unless no samples are taken"):
        rng.choice(np.array([]), 3)
    with pytest.raises(ValueError, match="Cannot take a larger sample than population"):
        rng.choice(5, 6, replace=False)
    with pytest.raises(ValueError, match="probabilities do not sum to 1"):
        rng.choice(3, 2, p=[0.5, 0.6, 0.1])
    with pytest.raises(ValueError, match="p must be 1-dimensional"):
        rng.choice(3, 2, p=[[0.5, 0.5, 0]])
    with pytest.raises(ValueError, match="a and p must have same size"):
        rng.choice(3, 2, p=[0.5, 0.5])
    with pytest.raises(ValueError, match="probabilities are not non-negative"):
        rng.choice(3, 2, p=[1.5, -0.5, 0])
    with pytest.raises(ValueError, match="probabilities contain NaN"):
        rng.choice(3, 2, p=[np.nan, 0.5, 0.5])
    with pytest.raises(ValueError, match="Fewer non-zero entries in p than size"):
        rng.choice(3, 3, replace=False, p=[0.5, 0.5, 0])
    with pytest.raises(np.AxisError):
        rng.permutation(vk.asarray(np.ones((2, 3))), axis=2)
    with pytest.raises(np.AxisError):
        rng.permutation(vk.asarray(np.array(5.0)))
    with pytest.raises(ValueError, match="expected non-negative integer"):
        vk.random.default_rng(-1)
    with pytest.raises(TypeError, match="seed must be integer"):
        vk.random.default_rng(1.5)
    with pytest.raises(ValueError, match="'method' argument must be either 'zig' or 'inv'"):
        rng.standard_exponential(3, method="box")
    with pytest.raises(TypeError, match="wrong type"):
        rng.random(out=vk.zeros(3, dtype=np.float32))
    with pytest.raises(ValueError, match="size must match out.shape"):
        rng.random(4, out=vk.zeros(3))
    counter = rng.counter
    with pytest.raises(ValueError):
        rng.integers(0, 300, 10, dtype=np.int8)
    assert rng.counter == counter  # a refused draw uses no blocks


def test_float64_needs_the_device_feature():
    ctx32 = vk.Context(devices=[0], disable_features=["float64"])
    rng = vk.random.default_rng(1, context=ctx32)
    with pytest.raises(TypeError, match="float64 needs"):
        rng.random(4)
    with pytest.raises(TypeError, match="float64 needs"):
        rng.standard_normal(4)
    assert rng.random(4, dtype=np.float32).shape == (4,)
    # The gamma sampler computes float32 draws in float32: no float64 on the device.
    shape = np.array([0.5, 3.0], dtype=np.float32)
    g = np.asarray(rng.standard_gamma(shape, size=(1000, 2), dtype=np.float32))
    # 0.3 is 5.5 standard errors of the mean (sqrt(3 / 1000)): false failure below 1e-7.
    assert g.dtype == np.float32 and abs(g[:, 1].mean() - 3.0) < 0.3
    with pytest.raises(TypeError, match="float64 needs"):
        rng.standard_gamma(2.0, 4)
    with pytest.raises(TypeError, match="float64 needs"):
        rng.poisson(2.0, 4)


def test_integers_with_array_bounds():
    rng = vk.random.default_rng(21)
    low = np.array([-5, 0, 100, -2**63], dtype=np.int64)
    high = np.array([5, 1, 1000, 2**63 - 1], dtype=np.int64)
    c = rng.counter
    got = np.asarray(rng.integers(low, high, size=(250, 4)))
    assert got.dtype == np.int64 and rng.counter == c + 1000
    b = blocks(rng.key, c, 0, 1000)
    for i in range(1000):
        x = sum(int(b[k, i]) << (32 * k) for k in range(4))
        lo, hi = int(low[i % 4]), int(high[i % 4])
        assert got.ravel()[i] == lo + (x * (hi - lo) >> 128), i
    # Equal bounds give the scalar form's values.
    r1, r2 = vk.random.default_rng(3), vk.random.default_rng(3)
    np.testing.assert_array_equal(np.asarray(r1.integers(7, 300, 500, dtype=np.uint16)),
                                  np.asarray(r2.integers(np.full(500, 7), 300, dtype=np.uint16)))
    full = np.asarray(rng.integers(vk.asarray([0, 0], dtype=np.uint64),
                                   np.array([2**64 - 1, 1], dtype=np.uint64), (3000, 2),
                                   dtype=np.uint64, endpoint=True))
    assert full[:, 0].max() > 2**63 and set(np.unique(full[:, 1])) == {0, 1}
    e = np.asarray(rng.integers([0, 10], [[15], [20]]))
    assert e.shape == (2, 2) and (e[:, 0] < np.array([15, 20])).all() and (e[:, 1] >= 10).all()
    with pytest.raises(ValueError, match="low >= high"):
        rng.integers([1, 5], [3, 5])
    with pytest.raises(ValueError, match="low > high"):
        rng.integers([1, 5], [3, 4], endpoint=True)
    with pytest.raises(ValueError, match="high is out of bounds for int8"):
        rng.integers([0], [129], dtype=np.int8)
    with pytest.raises(ValueError, match="low is out of bounds for uint8"):
        rng.integers([-1], 5, dtype=np.uint8)
    with pytest.raises(TypeError, match="must be integer arrays"):
        rng.integers([0.5], 5)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.uint8])
def test_cupys_dtype_keyword_casts_the_draw(dtype):
    g = vk.random.default_rng(7)
    h = vk.random.default_rng(7)
    for name, args in [("normal", (1.0, 2.0)), ("gamma", (3.0, 1.0)), ("noncentral_f", (1, 1, 1)),
                       ("binomial", (10, 0.5)), ("hypergeometric", (5, 5, 3)),
                       ("poisson", (4.0,))]:
        got = getattr(g, name)(*args, (3, 2), dtype)  # dtype positional after size, as CuPy's
        want = np.asarray(getattr(h, name)(*args, size=(3, 2))).astype(dtype)
        assert got.dtype == np.dtype(dtype) and got.shape == (3, 2)
        np.testing.assert_array_equal(np.asarray(got), want)
    legacy = vk.random.RandomState(3)
    assert legacy.binomial(4, 0.5, size=5, dtype=np.int16).dtype == np.int16
    assert legacy.random_sample(4, np.float32).dtype == np.float32
    assert legacy.standard_normal((2,), dtype=np.float32).dtype == np.float32
    assert legacy.multivariate_normal([0.0, 0.0], np.eye(2), 3, dtype=np.float32).dtype == \
        np.float32
    assert vk.random.normal(size=2).dtype == np.float64  # numpy's default without dtype=
    with pytest.raises(TypeError, match=r"\[normal\] dtype= must be a real dtype, got complex64"):
        g.normal(size=2, dtype=np.complex64)
