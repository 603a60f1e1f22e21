"""vkarray.random against a host reference (random_testing.py): Philox-4x32-10 and the
documented transforms, numpy's SeedSequence keys, and independence from the launch split, shape
and replica count. Statistics, the other methods and errors: random_api_test.py."""

import numpy as np
import pytest

import vkarray as vk
from random_testing import philox, ref_integers, ref_normal, ref_random, words

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


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("start", [0, 1, 2, 3, 5])
def test_lazy_slices_of_a_draw_read_their_own_elements(dtype, start):
    # A slice of an unevaluated draw starts anywhere in a block: vectorized lanes then read
    # words of two blocks (or of one block but at an offset), never the block of lane 0.
    rng = vk.random.default_rng(31)
    n = 1030
    x = rng.random(n, dtype=dtype)
    want = ref_random(rng.key, 0, n, dtype)
    np.testing.assert_array_equal(np.asarray(x[start:start + 1017]), want[start:start + 1017])
    np.testing.assert_array_equal(np.asarray(x[start::3]), want[start::3])
    np.testing.assert_array_equal(np.asarray(x[start:] * 2 + 1), want[start:] * 2 + 1)


@pytest.mark.parametrize("start", [1, 2, 3, 6])
def test_float32_normals_of_lazy_slices_equal_the_whole_draw(start):
    # Lanes of a vectorized kernel read their units from shared blocks when a slice starts a
    # block's half, each its own otherwise: the same routine gives the same bits either way.
    rng = vk.random.default_rng(8)
    z = rng.standard_normal(1030, dtype=np.float32)
    whole = np.asarray(z)
    np.testing.assert_array_equal(np.asarray(z[start:]), whole[start:])
    np.testing.assert_array_equal(np.asarray(z[start::2]), whole[start::2])


def test_float32_normals_are_close_to_the_exact_transform_of_their_uniforms():
    # kernels/glsl/random.cc (kNormal32): r cos(2 pi u2) and r sin(2 pi u2), r = sqrt(-2 ln(1 -
    # u1)), within 2.3e-7 times max(1, |z|) of the exact (float64) values on 10^6 pairs.
    rng = vk.random.default_rng(2)
    n = 1 << 18
    z = np.asarray(rng.standard_normal(n, dtype=np.float32)).astype(np.float64)
    u = (words(rng.key, 0, 0, n) >> 8).astype(np.float64) * 2.0**-24
    r, t = np.sqrt(-2 * np.log1p(-u[0::2])), 2 * np.pi * u[1::2]
    exact = np.stack([r * np.cos(t), r * np.sin(t)], axis=1).ravel()
    assert np.max(np.abs(z - exact) / np.maximum(1, np.abs(exact))) < 3e-7
    assert rng.counter == n // 4
    # The law: mean 0, variance 1 within 5 standard errors.
    assert abs(z.mean()) < 5 / np.sqrt(n) and abs(z.var() - 1) < 5 * np.sqrt(2 / n)


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
