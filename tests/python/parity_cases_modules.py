"""Parity cases of vkarray.linalg, vkarray.fft and vkarray.random, and checks of the names
with no value-for-value numpy counterpart: dtypes, contexts, buffers, devices, evaluation."""

import numpy as np

import vkarray as vk
from parity_registry import case, check

RNG = np.random.default_rng(3)
M = RNG.standard_normal((4, 4)) + 4 * np.eye(4)
SPD = M @ M.T
R = RNG.standard_normal((5, 3))
B = RNG.standard_normal((4, 2))
V = RNG.standard_normal(8)
X = RNG.standard_normal((3, 8)) + 1j * RNG.standard_normal((3, 8))
c = case
LA = 1e-10  # factorizations: backward-stable algorithms other than LAPACK's

c("linalg.norm", lambda xp, to: xp.linalg.norm(to(M), ord=1))
c("linalg.vector_norm", lambda xp, to: xp.linalg.vector_norm(to(R), axis=0, ord=3))
c("linalg.matrix_norm", lambda xp, to: xp.linalg.matrix_norm(to(M), ord="fro"))
c("linalg.solve", lambda xp, to: xp.linalg.solve(to(M), to(B)), rtol=LA)
c("linalg.inv", lambda xp, to: xp.linalg.inv(to(M)), rtol=LA)
c("linalg.det", lambda xp, to: xp.linalg.det(to(M)), rtol=LA)
c("linalg.slogdet", lambda xp, to: tuple(xp.linalg.slogdet(to(M))), rtol=LA)
c("linalg.cholesky", lambda xp, to: xp.linalg.cholesky(to(SPD)), rtol=LA)
c("linalg.qr", lambda xp, to: abs(xp.linalg.qr(to(R))[1]), rtol=LA)
c("linalg.eigh", lambda xp, to: (lambda w, v: (w, abs(v)))(*xp.linalg.eigh(to(SPD))), rtol=LA)
c("linalg.eigvalsh", lambda xp, to: xp.linalg.eigvalsh(to(SPD)), rtol=LA)
c("linalg.svd", lambda xp, to: xp.linalg.svd(to(R), compute_uv=False), rtol=LA)
c("linalg.svd", lambda xp, to: (lambda u, s, vh: (abs(u), s, abs(vh)))(
    *xp.linalg.svd(to(R), full_matrices=False)), rtol=LA)
c("linalg.svdvals", lambda xp, to: xp.linalg.svdvals(to(R)), rtol=LA)
c("linalg.lstsq", lambda xp, to: xp.linalg.lstsq(to(R), to(V[:5]), rcond=None)[0], rtol=LA)
c("linalg.pinv", lambda xp, to: xp.linalg.pinv(to(R)), rtol=LA)
c("linalg.matrix_power", lambda xp, to: xp.linalg.matrix_power(to(M), 3), rtol=LA)
c("linalg.matrix_rank", lambda xp, to: int(xp.linalg.matrix_rank(to(R @ R.T))))
c("linalg.trace", lambda xp, to: xp.linalg.trace(to(M), offset=1))
c("linalg.cross", lambda xp, to: xp.linalg.cross(to(R), to(R[::-1])))
c("linalg.outer", lambda xp, to: xp.linalg.outer(to(V), to(V[:3])))
c("linalg.diagonal", lambda xp, to: xp.linalg.diagonal(to(M)))
c("linalg.matmul", lambda xp, to: xp.linalg.matmul(to(M), to(B)))
c("linalg.tensordot", lambda xp, to: xp.linalg.tensordot(to(M), to(B), axes=1))
c("linalg.vecdot", lambda xp, to: xp.linalg.vecdot(to(R), to(R)))
c("linalg.matrix_transpose", lambda xp, to: xp.linalg.matrix_transpose(to(R)))
check("linalg.LinAlgError", lambda: _raises_linalg_error())
check("linalg.solve_triangular", lambda: _solve_triangular())


def _raises_linalg_error():
    assert vk.linalg.LinAlgError is np.linalg.LinAlgError
    try:
        vk.linalg.inv(vk.zeros((2, 2)))
    except np.linalg.LinAlgError:
        return
    raise AssertionError("inv of a singular matrix did not raise LinAlgError")


def _solve_triangular():
    L = np.tril(M)
    x = vk.linalg.solve_triangular(vk.asarray(L), vk.asarray(B), lower=True).get()
    np.testing.assert_allclose(x, np.linalg.solve(L, B), rtol=LA)


for _n in ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"]:
    c(f"fft.{_n}", lambda xp, to, _n=_n: getattr(xp.fft, _n)(to(X)), rtol=LA)
for _n in ["rfft", "rfft2", "rfftn", "ihfft"]:
    c(f"fft.{_n}", lambda xp, to, _n=_n: getattr(xp.fft, _n)(to(X.real)), rtol=LA)
for _n in ["irfft", "irfft2", "irfftn", "hfft"]:
    c(f"fft.{_n}", lambda xp, to, _n=_n: getattr(xp.fft, _n)(to(X[:, :5])), rtol=LA)
c("fft.fft", lambda xp, to: xp.fft.fft(to(V), n=11, norm="ortho"), rtol=LA)
c("fft.fftfreq", lambda xp, to: xp.fft.fftfreq(9, d=0.5))
c("fft.rfftfreq", lambda xp, to: xp.fft.rfftfreq(10))
c("fft.fftshift", lambda xp, to: xp.fft.fftshift(to(X), axes=1))
c("fft.ifftshift", lambda xp, to: xp.fft.ifftshift(to(V)))


def _stats(sample, reference, tol):
    """A sample drawn by vkarray against numpy's draw of the same distribution: shape, dtype,
    and mean and standard deviation within `tol` (4000 draws)."""
    got = sample.get() if isinstance(sample, vk.ndarray) else np.asarray(sample)
    assert got.shape == reference.shape and got.dtype == reference.dtype, (got, reference)
    assert abs(got.mean() - reference.mean()) < tol and abs(got.std() - reference.std()) < tol


N = 4000
NG = np.random.default_rng(0)
for _name, _draw, _ref in [
    ("random.random", lambda: vk.random.random(N), NG.random(N)),
    ("random.random_sample", lambda: vk.random.random_sample(N), NG.random(N)),
    ("random.rand", lambda: vk.random.rand(N), NG.random(N)),
    ("random.randn", lambda: vk.random.randn(N), NG.standard_normal(N)),
    ("random.standard_normal", lambda: vk.random.standard_normal(N), NG.standard_normal(N)),
    ("random.normal", lambda: vk.random.normal(2.0, 3.0, N), NG.normal(2.0, 3.0, N)),
    ("random.uniform", lambda: vk.random.uniform(-1, 5, N), NG.uniform(-1, 5, N)),
    ("random.exponential", lambda: vk.random.exponential(2.0, N), NG.exponential(2.0, N)),
    ("random.randint", lambda: vk.random.randint(0, 10, N), NG.integers(0, 10, N)),
    ("random.default_rng", lambda: vk.random.default_rng(1).normal(size=N),
     NG.normal(size=N)),
    ("random.Generator", lambda: vk.random.Generator(vk.random.SeedSequence(2)).random(N),
     NG.random(N)),
    ("random.choice", lambda: vk.random.choice(10, N), NG.choice(10, N)),
]:
    check(_name, lambda d=_draw, r=_ref: _stats(d(), r, 0.15 * max(1.0, float(r.std()))))


def _seeded_repeats():
    vk.random.seed(7)
    a = vk.random.rand(5).get()
    vk.random.seed(7)
    np.testing.assert_array_equal(vk.random.rand(5).get(), a)
    g1 = vk.random.Generator(vk.random.SeedSequence(5)).random(6).get()
    g2 = vk.random.Generator(vk.random.SeedSequence(5)).random(6).get()
    np.testing.assert_array_equal(g1, g2)
    assert not np.array_equal(g1, vk.random.Generator(vk.random.SeedSequence(6)).random(6).get())


def _permutations():
    p = vk.random.permutation(50).get()
    np.testing.assert_array_equal(np.sort(p), np.arange(50))
    x = vk.arange(30)
    vk.random.shuffle(x)
    np.testing.assert_array_equal(np.sort(x.get()), np.arange(30))


check("random.seed", _seeded_repeats)
check("random.SeedSequence", _seeded_repeats)
check("random.permutation", _permutations)
check("random.shuffle", _permutations)

for _n in ["bool_", "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
           "uint64", "float16", "float32", "float64", "complex64", "complex128"]:
    c(_n, lambda xp, to, _n=_n: xp.ones(3, dtype=getattr(xp, _n)))
c("dtype", lambda xp, to: xp.dtype("float32").itemsize)


def _contexts():
    ctx = vk.context()
    assert isinstance(ctx, vk.Context) and ctx.num_replicas >= 1
    assert isinstance(ctx.replicas[0], vk.Replica)
    assert [d["index"] for d in vk.list_devices()] == list(range(len(vk.list_devices())))
    x = vk.asarray(np.arange(4.0), context=ctx)
    np.testing.assert_array_equal(x.read(0), np.arange(4.0))
    vk.synchronize()


def _make_context():
    old = vk.context()
    try:
        ctx = vk.make_context(devices=[0])
        assert vk.context() is ctx
        np.testing.assert_array_equal((vk.arange(3) * 2).get(), np.arange(3) * 2)
    finally:
        vk.set_context(old)
    assert vk.context() is old


def _buffers():
    data = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = vk.asbuffer(data)
    assert isinstance(b, vk.Buffer)
    np.testing.assert_array_equal(b.read(0), data)
    b2 = vk.Buffer((2, 3), np.int32)
    b2.write(data * 2)
    np.testing.assert_array_equal(b2.read(0), data * 2)


def _arrays_and_evaluation():
    x = vk.asarray(np.arange(5.0))
    assert isinstance(x, vk.ndarray) and type(x) is vk.ndarray
    before = vk.kernel_count()
    y = (x * 2 + 1).sum()
    vk.eval(y)
    assert vk.kernel_count() > before and float(y) == float((np.arange(5.0) * 2 + 1).sum())


def _gemm_config():
    cfg = vk.gemm_config()
    vk.set_gemm_config(cfg)
    try:
        assert vk.gemm_config() == cfg
        a = np.arange(6.0).reshape(2, 3)
        np.testing.assert_allclose(vk.matmul(vk.asarray(a), vk.asarray(a.T)).get(), a @ a.T)
    finally:
        vk.set_gemm_config(None)  # an override applies to every dtype: leave none behind


def _gemm_split():
    # Three K ranges summed by a second kernel: the product is numpy's (exact small integers).
    a = np.arange(40.0).reshape(4, 10)
    vk.set_gemm_split(3)
    try:
        before = vk.kernel_count()
        got = vk.matmul(vk.asarray(a), vk.asarray(a.T)).get()
        assert vk.kernel_count() - before == 2
        np.testing.assert_array_equal(got, a @ a.T)
    finally:
        vk.set_gemm_split(None)


def _jit():
    # A recorded formula against numpy's for a second input (tests/python/jit_test.py has more).
    f = vk.jit(lambda a, b: vk.sqrt(a * a + b) - a[::-1])
    for seed in (1, 2):
        a, b = np.random.default_rng(seed).uniform(0, 1, (2, 9))
        np.testing.assert_allclose(f(vk.asarray(a), vk.asarray(b)).get(),
                                   np.sqrt(a * a + b) - a[::-1], rtol=1e-14)


def _devices():
    d = vk.devices()
    assert d == [vk.Device(vk.context())] and vk.asarray([1.0]).device == d[0]


def _from_dlpack():
    a = np.arange(5, dtype=np.float32)
    x = vk.from_dlpack(a)
    np.testing.assert_array_equal(np.from_dlpack(x), a)


for _name, _fn in [("Context", _contexts), ("Replica", _contexts), ("context", _contexts),
                   ("list_devices", _contexts), ("synchronize", _contexts),
                   ("make_context", _make_context), ("set_context", _make_context),
                   ("Buffer", _buffers), ("asbuffer", _buffers),
                   ("ndarray", _arrays_and_evaluation), ("eval", _arrays_and_evaluation),
                   ("kernel_count", _arrays_and_evaluation), ("gemm_config", _gemm_config),
                   ("set_gemm_config", _gemm_config), ("set_gemm_split", _gemm_split),
                   ("Device", _devices), ("jit", _jit),
                   ("devices", _devices), ("from_dlpack", _from_dlpack)]:
    check(_name, _fn)

T4 = RNG.standard_normal((6, 2, 3)) + np.eye(6).reshape(6, 2, 3)
c("linalg.multi_dot", lambda xp, to: xp.linalg.multi_dot([to(V[:4]), to(M), to(B), to(B.T)]),
  rtol=LA)
c("linalg.multi_dot", lambda xp, to: xp.linalg.multi_dot([to(R), to(R.T), to(R)]), rtol=LA)
c("linalg.cond", lambda xp, to: xp.linalg.cond(to(M)), rtol=LA)
c("linalg.cond", lambda xp, to: xp.linalg.cond(to(M), "fro"), rtol=LA)
c("linalg.cond", lambda xp, to: xp.linalg.cond(to(M), -2), rtol=LA)
c("linalg.tensorsolve", lambda xp, to: xp.linalg.tensorsolve(to(T4), to(V[:6])), rtol=LA)
c("linalg.tensorinv", lambda xp, to: xp.linalg.tensorinv(to(T4), ind=1), rtol=LA)
