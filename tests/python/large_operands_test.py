"""Every library kernel family on operands larger than a binding: scans, compaction, sorts,
searches, scatters, counting and linear algebra address such operands (runtime/launch.h:
choose_interface, kernels/glsl/indexing.h: operand_buffer) instead of binding them. A context
that binds at most 4 KiB (Context(max_storage_buffer_range=)) takes those paths with small
arrays; one search runs past lavapipe's own 128 MiB. Elementwise kernels, reductions and
matrix products: tests/python/fusion_limits_test.py; the FFT: tests/python/fft_large_test.py.
Each result is checked against numpy."""

import numpy as np
import pytest

import vkarray as vk

LIMIT = 4096


@pytest.fixture(scope="module")
def small():
    """A context whose kernels bind at most LIMIT bytes of a buffer."""
    ctx = vk.Context(max_storage_buffer_range=LIMIT)
    assert ctx.devices[0]["max_storage_buffer_range"] == LIMIT
    return ctx


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(11)
    return {
        "f": rng.standard_normal((40, 500)).astype(np.float32),  # 80 KB
        "u": rng.integers(0, 4, 30_000).astype(np.uint8),
        "i": rng.integers(-1000, 1000, 20_000).astype(np.int64),
    }


def test_the_option_and_its_errors():
    with pytest.raises(ValueError, match="at least 1024"):
        vk.Context(max_storage_buffer_range=512)
    with pytest.raises(TypeError, match="max_storage_buffer_range"):
        vk.Context(max_storage_buffer_range=1.5)
    ctx = vk.Context(max_storage_buffer_range="8K")
    assert ctx.devices[0]["max_storage_buffer_range"] == 8192
    # Generated kernels address an operand past it.
    a = vk.asarray(np.arange(4096, dtype=np.float32), context=ctx)
    with vk.profile(context=ctx) as prof:
        np.testing.assert_array_equal(np.asarray(a * 2), np.arange(4096, dtype=np.float32) * 2)
        names = [r.name for r in prof.records]
    assert any(n.endswith("_bda") for n in names), names


def test_scans(small, data):
    f = data["f"]
    a = vk.asarray(f, context=small)
    for axis in (None, 0, 1):
        np.testing.assert_allclose(np.asarray(vk.cumsum(a, axis=axis)),
                                   np.cumsum(f.astype(np.float64), axis=axis), rtol=1e-4,
                                   atol=1e-3)
    np.testing.assert_allclose(np.asarray(vk.cumprod(a[:, :20] * 0.5 + 1, axis=1)),
                               np.cumprod(f[:, :20] * 0.5 + 1, axis=1), rtol=1e-5)
    np.testing.assert_array_equal(np.asarray(vk.cummax(a, axis=1)),
                                  np.maximum.accumulate(f, axis=1))
    u = data["u"]
    np.testing.assert_array_equal(np.asarray(vk.cumsum(vk.asarray(u, context=small),
                                                       dtype=vk.uint8)),
                                  np.cumsum(u, dtype=np.uint8))


def test_compaction(small, data):
    u, f = data["u"], data["f"]
    uv, fv = vk.asarray(u, context=small), vk.asarray(f, context=small)
    np.testing.assert_array_equal(np.asarray(vk.nonzero(uv)[0]), np.nonzero(u)[0])
    rows, cols = vk.nonzero(fv > 1)
    want = np.nonzero(f > 1)
    np.testing.assert_array_equal(np.asarray(rows), want[0])
    np.testing.assert_array_equal(np.asarray(cols), want[1])
    np.testing.assert_array_equal(np.asarray(fv[fv > 1]), f[f > 1])
    np.testing.assert_array_equal(np.asarray(vk.unique(uv)), np.unique(u))


def test_sorts_and_searches(small, data):
    f, i = data["f"], data["i"]
    fv, iv = vk.asarray(f, context=small), vk.asarray(i, context=small)
    np.testing.assert_array_equal(np.asarray(vk.sort(fv.reshape(-1))), np.sort(f.reshape(-1)))
    np.testing.assert_array_equal(np.asarray(vk.sort(fv, axis=0)), np.sort(f, axis=0))
    np.testing.assert_array_equal(np.asarray(vk.argsort(iv, kind="stable")),
                                  np.argsort(i, kind="stable"))
    s = np.sort(i)
    np.testing.assert_array_equal(np.asarray(vk.searchsorted(vk.sort(iv), iv[:3000])),
                                  np.searchsorted(s, i[:3000]))


def test_scatters_and_counts(small, data):
    i, u = data["i"], data["u"]
    x = np.zeros(30_000, np.float32)
    xv = vk.asarray(x, context=small)
    idx = (np.abs(i) * 7) % 30_000
    xv[vk.asarray(idx, context=small)] = vk.asarray(np.arange(idx.size, dtype=np.float32),
                                                    context=small)
    x[idx] = np.arange(idx.size, dtype=np.float32)
    # Repeated indices: numpy keeps the last write, as vkarray does.
    np.testing.assert_array_equal(np.asarray(xv), x)
    np.testing.assert_array_equal(np.asarray(vk.bincount(vk.asarray(u, context=small))),
                                  np.bincount(u))


def test_linear_algebra(small):
    rng = np.random.default_rng(12)
    m = rng.standard_normal((60, 60))  # 28.8 KB
    spd = m @ m.T + 60 * np.eye(60)
    mv, sv = vk.asarray(m, context=small), vk.asarray(spd, context=small)
    np.testing.assert_allclose(np.asarray(vk.linalg.solve(mv, mv[:, :3])),
                               np.linalg.solve(m, m[:, :3]), rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(np.asarray(vk.linalg.cholesky(sv)), np.linalg.cholesky(spd),
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(np.asarray(vk.linalg.eigvalsh(sv)), np.linalg.eigvalsh(spd),
                               rtol=1e-10)
    np.testing.assert_allclose(np.asarray(vk.linalg.svd(mv, compute_uv=False)),
                               np.linalg.svd(m, compute_uv=False), rtol=1e-10)
    q, r = vk.linalg.qr(mv)
    np.testing.assert_allclose(np.asarray(q @ r), m, rtol=1e-10, atol=1e-10)


def test_a_search_in_an_array_past_lavapipes_binding():
    """searchsorted in 2**25 + 4096 int32 numbers (128 MiB + 16 KiB), made on the device."""
    n = (1 << 25) + 4096
    big = vk.arange(n, dtype=vk.int32)
    assert big.nbytes > 1 << 27
    q = np.random.default_rng(13).integers(-5, n + 5, 1000).astype(np.int32)
    got = np.asarray(vk.searchsorted(big, vk.asarray(q)))
    np.testing.assert_array_equal(got, np.clip(q, 0, n))
