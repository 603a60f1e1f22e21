"""vkarray.random against a host reference: Philox-4x32-10 and the documented transforms
written in numpy here, numpy's SeedSequence keys, independence from the launch split, shape
and replica count, statistics (mean, variance, Kolmogorov-Smirnov at n = 10^6, fixed seeds,
significance 0.001), and numpy's errors."""

import math

import numpy as np
import pytest

import vkarray as vk

MASK = np.uint64(0xFFFFFFFF)


def philox(c0, c1, k0, k1):
    """Random123's philox4x32_R(10) of counters (c0, c1, 0, 0), as uint64 arrays of words."""
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    for r in range(10):
        if r:
            k0 = (k0 + 0x9E3779B9) & 0xFFFFFFFF
            k1 = (k1 + 0xBB67AE85) & 0xFFFFFFFF
        p0 = np.uint64(0xD2511F53) * c0
        p1 = np.uint64(0xCD9E8D57) * c2
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0), p1 & MASK,
                          (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1), p0 & MASK)
    return np.stack([c0, c1, c2, c3])


def blocks(key, counter, first, n):
    """Blocks counter + first .. counter + first + n - 1 of the stream, shape (4, n)."""
    b = np.uint64(counter) + np.arange(first, first + n, dtype=np.uint64)
    return philox(b & MASK, b >> np.uint64(32), key & 0xFFFFFFFF, key >> 32)


def words(key, counter, first, n):
    """32-bit words first .. first + n - 1 of the stream."""
    b0, b1 = first // 4, (first + n + 3) // 4
    return blocks(key, counter, b0, b1 - b0).T.ravel()[first - 4 * b0:][:n].astype(np.uint32)


def units(key, counter, first, n):
    """64-bit units: words 2j (low) and 2j + 1 (high)."""
    w = words(key, counter, 2 * first, 2 * n).astype(np.uint64)
    return w[0::2] | (w[1::2] << np.uint64(32))


def ref_random(key, counter, n, dtype):
    if dtype == np.float32:
        return ((words(key, counter, 0, n) >> 8).astype(np.float32) * np.float32(2.0**-24))
    return (units(key, counter, 0, n) >> np.uint64(11)).astype(np.float64) * 2.0**-53


def ref_normal(key, counter, n, dtype):
    if dtype == np.float32:
        w = words(key, counter, 0, 2 * n)
        u = (w >> 8).astype(np.float32) * np.float32(2.0**-24)
    else:
        u = (units(key, counter, 0, 2 * n) >> np.uint64(11)).astype(np.float64) * 2.0**-53
    u1, u2 = u[0::2], u[1::2]
    t = np.dtype(dtype).type
    return np.sqrt(t(-2.0) * np.log1p(-u1)) * np.cos(t(2 * np.pi) * u2)


def ref_integers(key, counter, n, low, r):
    b = blocks(key, counter, 0, n)
    out = []
    for i in range(n):
        x = sum(int(b[k, i]) << (32 * k) for k in range(4))
        out.append(low + (x * r >> 128))
    return out


def test_philox_reference_known_answers():
    # Random123 kat_vectors (philox4x32 10): counter (0,0,0,0), key (0,0).
    got = philox(np.array([0], np.uint64), np.array([0], np.uint64), 0, 0)[:, 0]
    assert [int(v) for v in got] == [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**40 + 7, [1, 2, 3], 2**100])
def test_keys_are_numpy_seedsequence_states(seed):
    want = np.random.SeedSequence(seed).generate_state(2)
    rng = vk.random.default_rng(seed)
    assert rng.key == int(want[0]) | int(want[1]) << 32
    ss = vk.random.SeedSequence(seed)
    np.testing.assert_array_equal(ss.generate_state(8),
                                  np.random.SeedSequence(seed).generate_state(8))
    kids = ss.spawn(3)
    np_kids = np.random.SeedSequence(seed).spawn(3)
    for k, nk in zip(kids, np_kids):
        assert k.spawn_key == nk.spawn_key
        np.testing.assert_array_equal(k.generate_state(4), nk.generate_state(4))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [1, 7, 1000, 4099])
def test_random_stream_equals_reference(dtype, n):
    rng = vk.random.default_rng(2024)
    x = np.asarray(rng.random(n, dtype=dtype))
    assert x.dtype == dtype
    np.testing.assert_array_equal(x, ref_random(rng.key, 0, n, dtype))
    words_per = 1 if dtype == np.float32 else 2
    assert rng.counter == (n * words_per + 3) // 4
    y = np.asarray(rng.random(n, dtype=dtype))  # the next draw starts at the next block
    np.testing.assert_array_equal(
        y, ref_random(rng.key, (n * words_per + 3) // 4, n, dtype))


@pytest.mark.parametrize("dtype,rtol", [(np.float64, 1e-13), (np.float32, 4e-6)])
def test_normal_and_exponential_streams_equal_reference(dtype, rtol):
    rng = vk.random.default_rng(77)
    n = 1001
    z = np.asarray(rng.standard_normal(n, dtype=dtype))
    assert z.dtype == dtype
    np.testing.assert_allclose(z, ref_normal(rng.key, 0, n, dtype), rtol=rtol, atol=rtol)
    c = rng.counter
    e = np.asarray(rng.standard_exponential(n, dtype=dtype))
    u = ref_random(rng.key, c, n, dtype)
    np.testing.assert_allclose(e, -np.log1p(-u), rtol=rtol, atol=rtol)


def test_integers_stream_equals_reference():
    rng = vk.random.default_rng(5)
    for low, high, dtype in [(-3, 10, np.int64), (0, 2**64, np.uint64), (-2**63, 2**63, np.int64),
                             (0, 3 * 2**40, np.int64), (-128, 128, np.int8), (0, 2, np.bool_)]:
        c = rng.counter
        got = np.asarray(rng.integers(low, high, 300, dtype=dtype))
        assert got.dtype == dtype
        want = ref_integers(rng.key, c, 300, low, high - low)
        np.testing.assert_array_equal(got, np.array(want, dtype=object).astype(dtype))
        assert rng.counter == c + 300


def test_large_draw_equals_its_pieces_and_any_shape():
    n = 1000003
    rng = vk.random.default_rng(31)
    whole = np.asarray(rng.random(n, dtype=np.float32))
    cuts = [0, 1, 7, 1000, 4096, 500001, n]
    w = words(rng.key, 0, 0, n)
    pieces = [(words(rng.key, 0, a, b - a) >> 8).astype(np.float32) * np.float32(2.0**-24)
              for a, b in zip(cuts[:-1], cuts[1:])]
    np.testing.assert_array_equal(whole, np.concatenate(pieces))
    np.testing.assert_array_equal(pieces[2], (w[7:1000] >> 8).astype(np.float32) / 2**24)
    # The same stream through a 2-d shape, and read through a strided view.
    rng2 = vk.random.default_rng(31)
    grid = rng2.random((1000, 1000), dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(grid).ravel(), whole[:1000000])
    np.testing.assert_array_equal(np.asarray(grid[::3, 5]), whole[5:1000000:3000])


def test_reductions_of_draws_read_every_element_at_its_position():
    rng = vk.random.default_rng(12)
    n = 1000003
    want = ref_random(rng.key, 0, n, np.float64)
    got = float(vk.sum(rng.random(n) * vk.arange(n, dtype=np.float64)))
    assert abs(got - (want * np.arange(n)).sum()) <= 1e-12 * abs(got)
    c = rng.counter
    grid = ref_random(rng.key, c, 300 * 1001, np.float64).reshape(300, 1001)
    cols = np.asarray(rng.random((300, 1001)).sum(axis=0))
    np.testing.assert_allclose(cols, grid.sum(axis=0), rtol=1e-13)
    c = rng.counter
    grid = ref_random(rng.key, c, 300 * 1001, np.float64).reshape(300, 1001)
    np.testing.assert_allclose(np.asarray(vk.max(rng.random((300, 1001)), axis=1)),
                               grid.max(axis=1), rtol=0)


def test_draws_fuse_into_one_kernel():
    rng = vk.random.default_rng(8)
    y = rng.random(1000) * 2 + 1
    before = vk.kernel_count()
    vk.eval(y)
    assert vk.kernel_count() - before == 1
    s = vk.sum(rng.standard_normal(1000, dtype=np.float32))
    before = vk.kernel_count()
    vk.eval(s)
    assert vk.kernel_count() - before == 1
    assert ((np.asarray(y) >= 1) & (np.asarray(y) < 3)).all()


def test_several_streams_in_one_kernel():
    r1, r2 = vk.random.default_rng(1), vk.random.default_rng(2)
    n = 1003
    fused = r1.random(n, dtype=np.float32) + r2.random(n, dtype=np.float32) \
        + r1.integers(0, 10, n)
    before = vk.kernel_count()
    vk.eval(fused)
    assert vk.kernel_count() - before == 1  # three streams, one kernel
    # A fourth stream passes lavapipe's 128 push-constant bytes: the scheduler splits.
    got = np.asarray(fused + r2.standard_normal(n))
    want = (ref_random(r1.key, 0, n, np.float32) + ref_random(r2.key, 0, n, np.float32)
            + np.array(ref_integers(r1.key, (n + 3) // 4, n, 0, 10))
            + ref_normal(r2.key, (n + 3) // 4, n, np.float64))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_replicas_share_the_stream_unless_asked(ctx2):
    shared = vk.random.default_rng(9, context=ctx2).random(100)
    both = shared.read()
    np.testing.assert_array_equal(both[0], both[1])
    np.testing.assert_array_equal(both[0], np.asarray(vk.random.default_rng(9).random(100)))
    own = vk.random.default_rng(9, context=ctx2, per_replica=True).random(100)
    rows = own.read()
    assert not np.array_equal(rows[0], rows[1])
    kids = vk.random.default_rng(9).spawn(2)
    assert not np.array_equal(np.asarray(kids[0].random(8)), np.asarray(kids[1].random(8)))


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
