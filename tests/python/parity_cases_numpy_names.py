"""Parity cases of numpy's names composed in vkarray's Python layer: comparisons, shape
queries, construction, selection, interpolation, convolution, calculus, sets, statistics."""

import numpy as np

from parity_registry import case, check

RNG = np.random.default_rng(5)
F = RNG.standard_normal((4, 6))
V = RNG.standard_normal(9)
W = RNG.standard_normal(4)
I = RNG.integers(-4, 5, (4, 6))
S = np.array([1.0, -np.inf, np.nan, np.inf, -0.0, 2.5])
Z = (RNG.standard_normal(5) + 1j * RNG.standard_normal(5))
c = case

c("newaxis", lambda xp, to: to(V)[xp.newaxis, :, xp.newaxis].shape)
c("pi", lambda xp, to: xp.pi)
c("e", lambda xp, to: xp.e)
c("inf", lambda xp, to: xp.inf)
c("nan", lambda xp, to: np.isnan(xp.nan))
c("isclose", lambda xp, to: xp.isclose(to(S), to(S + 1e-9), equal_nan=True))
c("isclose", lambda xp, to: xp.isclose(to(F), to(F * (1 + 1e-6)), rtol=1e-7))
c("allclose", lambda xp, to: xp.allclose(to(F), to(F + 1e-9)))
c("allclose", lambda xp, to: xp.allclose(to(S), to(S), equal_nan=False))
c("array_equal", lambda xp, to: xp.array_equal(to(S), to(S), equal_nan=True))
c("array_equal", lambda xp, to: xp.array_equal(to(F), to(F[:2])))
c("array_equiv", lambda xp, to: xp.array_equiv(to(F[:1]), to(np.repeat(F[:1], 3, 0))))


def _copyto(xp, to):
    dst = to(np.zeros((4, 6)))
    xp.copyto(dst, to(I), where=to(I > 0))
    return dst


c("copyto", _copyto)
c("shape", lambda xp, to: xp.shape(to(F)))
c("ndim", lambda xp, to: xp.ndim(to(F)))
c("size", lambda xp, to: xp.size(to(F), 1))
c("isscalar", lambda xp, to: (xp.isscalar(3.0), xp.isscalar(to(F))))
c("atleast_1d", lambda xp, to: xp.atleast_1d(to(np.float64(2))))
c("atleast_2d", lambda xp, to: xp.atleast_2d(to(V)))
c("atleast_3d", lambda xp, to: xp.atleast_3d(to(F)).shape)
c("promote_types", lambda xp, to: xp.promote_types(np.int8, np.uint8))
c("finfo", lambda xp, to: float(xp.finfo(np.float32).eps))
c("iinfo", lambda xp, to: int(xp.iinfo(np.int16).max))
c("issubdtype", lambda xp, to: xp.issubdtype(to(F).dtype, np.floating))
c("broadcast_shapes", lambda xp, to: xp.broadcast_shapes((4, 1), (1, 6)))
c("logspace", lambda xp, to: xp.logspace(0, 3, 7))
c("geomspace", lambda xp, to: xp.geomspace(1, 1000, 4))
c("geomspace", lambda xp, to: xp.geomspace(-2, -32, 5))
c("fromfunction", lambda xp, to: xp.fromfunction(lambda i, j: i * 10 + j, (3, 4)))
c("frombuffer", lambda xp, to: xp.frombuffer(b"\x01\x02\x03\x04", dtype=np.uint8))
c("fromiter", lambda xp, to: xp.fromiter(range(5), dtype=np.float32))
c("indices", lambda xp, to: xp.indices((2, 3)))
c("tri", lambda xp, to: xp.tri(3, 4, k=1))
c("select", lambda xp, to: xp.select([to(F) < -0.5, to(F) > 0.5], [to(F) * 2, to(I)], -1.0))
c("piecewise", lambda xp, to: xp.piecewise(to(V), [to(V) < 0, to(V) >= 0],
                                           [lambda x: -x, lambda x: x * x]))
c("choose", lambda xp, to: xp.choose(to(np.array([0, 2, 1, 0])),
                                     [to(W), to(W * 2), to(W * 3)]))


def _place(xp, to):
    a = to(F.copy())
    xp.place(a, to(F > 0), to(np.array([7.0, 8.0])))
    return a


def _putmask(xp, to):
    a = to(I.copy())
    xp.putmask(a, to(I < 0), to(np.array([100, 200, 300])))
    return a


c("place", _place)
c("putmask", _putmask)
c("append", lambda xp, to: xp.append(to(F), to(F[:1]), axis=0))
c("delete", lambda xp, to: xp.delete(to(F), [0, 4], axis=1))
c("delete", lambda xp, to: xp.delete(to(V), slice(1, 6, 2)))
c("rollaxis", lambda xp, to: xp.rollaxis(to(F.reshape(2, 3, 4)), 2, 1))
for _n in ["hanning", "hamming", "bartlett", "blackman"]:
    c(_n, lambda xp, to, _n=_n: getattr(xp, _n)(7))
c("sinc", lambda xp, to: xp.sinc(to(np.linspace(-2, 2, 9))))
c("angle", lambda xp, to: xp.angle(to(Z), deg=True))
c("nan_to_num", lambda xp, to: xp.nan_to_num(to(S), nan=-1.0))
c("fix", lambda xp, to: xp.fix(to(F * 3)))
c("iscomplex", lambda xp, to: xp.iscomplex(to(np.array([1 + 0j, 2j]))))
c("isreal", lambda xp, to: xp.isreal(to(np.array([1 + 0j, 2j]))))
c("isneginf", lambda xp, to: xp.isneginf(to(S)))
c("isposinf", lambda xp, to: xp.isposinf(to(S)))
c("iscomplexobj", lambda xp, to: (xp.iscomplexobj(to(Z)), xp.iscomplexobj(to(F))))
c("isrealobj", lambda xp, to: (xp.isrealobj(to(Z)), xp.isrealobj(to(F))))
XP = np.sort(RNG.uniform(0, 10, 8))
c("interp", lambda xp, to: xp.interp(to(np.linspace(-1, 11, 25)), to(XP), to(np.sin(XP))))
c("interp", lambda xp, to: xp.interp(to(np.array([-1.0, 5, 12])), to(XP), to(XP * 2),
                                     left=-5, right=99))
c("interp", lambda xp, to: xp.interp(to(np.linspace(0, 720, 13)), to(np.array([10.0, 100,
                                     200, 350])), to(np.arange(4.0)), period=360))
for _mode in ["full", "same", "valid"]:
    c("convolve", lambda xp, to, m=_mode: xp.convolve(to(V), to(W), mode=m))
    c("correlate", lambda xp, to, m=_mode: xp.correlate(to(V), to(W), mode=m))
c("convolve", lambda xp, to: xp.convolve(to(np.arange(5)), to(np.arange(3))))
c("correlate", lambda xp, to: xp.correlate(to(Z), to(Z[:2]), "full"))
c("gradient", lambda xp, to: xp.gradient(to(F), 0.5))
c("gradient", lambda xp, to: xp.gradient(to(V), edge_order=2))
PHASE = np.cumsum(RNG.uniform(0, 2.5, 12)) % (2 * np.pi)
c("unwrap", lambda xp, to: xp.unwrap(to(PHASE)))
c("cross", lambda xp, to: xp.cross(to(F[:, :3]), to(F[:, 3:])))
c("cross", lambda xp, to: xp.cross(to(F[:, :2]), to(F[:, 2:5])))
c("trapz", lambda xp, to: xp.trapz(to(F), dx=0.5))
c("trapezoid", lambda xp, to: xp.trapezoid(to(F), x=to(np.arange(6.0) ** 2)))
c("lexsort", lambda xp, to: xp.lexsort((to(I[0]), to(I[1]))))
c("digitize", lambda xp, to: xp.digitize(to(V), to(np.array([-1.0, 0, 0.5, 2]))))
c("digitize", lambda xp, to: xp.digitize(to(V), to(np.array([2.0, 0, -1])), right=True))
c("histogram2d", lambda xp, to: xp.histogram2d(to(V), to(V[::-1]), bins=(3, 4)))
c("cov", lambda xp, to: xp.cov(to(F)))
c("cov", lambda xp, to: xp.cov(to(F), rowvar=False, bias=True))
c("corrcoef", lambda xp, to: xp.corrcoef(to(F)))
c("union1d", lambda xp, to: xp.union1d(to(I[0]), to(I[1])))
c("intersect1d", lambda xp, to: xp.intersect1d(to(I[0]), to(I[1])))
c("intersect1d", lambda xp, to: xp.intersect1d(to(np.array([1, 1, 3, 4, 3, 3, 0])),
                                               to(np.array([[3, 1], [2, 1], [0, 9]])),
                                               return_indices=True))
c("intersect1d", lambda xp, to: xp.intersect1d(to(np.array([5, 1, 3])), to(np.array([3, 9, 5])),
                                               assume_unique=True, return_indices=True))
c("setdiff1d", lambda xp, to: xp.setdiff1d(to(I[0]), to(I[1])))
c("setxor1d", lambda xp, to: xp.setxor1d(to(I[0]), to(I[1])))
c("trim_zeros", lambda xp, to: xp.trim_zeros(to(np.array([0, 0, 3, 0, 2, 0]))))
c("polyval", lambda xp, to: xp.polyval(to(np.array([2.0, -1, 3])), to(V)))
# index helpers
c("tril_indices", lambda xp, to: xp.tril_indices(4, -1, 5))
c("triu_indices", lambda xp, to: xp.triu_indices(3, 1))
c("tril_indices_from", lambda xp, to: xp.tril_indices_from(to(F)))
c("triu_indices_from", lambda xp, to: xp.triu_indices_from(to(F), k=2))
c("diag_indices", lambda xp, to: xp.diag_indices(3, 3))
c("diag_indices_from", lambda xp, to: xp.diag_indices_from(to(np.zeros((3, 3)))))
c("ix_", lambda xp, to: to(F)[xp.ix_(to(np.array([0, 2])), to(np.array([1, 3, 5])))])
c("ix_", lambda xp, to: xp.ix_(to(np.array([True, False, True])), to(np.array([1, 0]))))
c("mgrid", lambda xp, to: xp.mgrid[0:3, 1:7:2])
c("mgrid", lambda xp, to: xp.mgrid[-1:1:5j])
c("ogrid", lambda xp, to: xp.ogrid[0:3, 0:1:4j])


def _fill_diagonal(xp, to):
    a = to(np.zeros((5, 3)))
    xp.fill_diagonal(a, to(np.array([1.0, 2.0])), wrap=True)
    b = to(np.zeros((3, 3, 3), np.int32))
    xp.fill_diagonal(b, 7)
    return a, b


def _put_along_axis(xp, to):
    a = to(F.copy())
    xp.put_along_axis(a, to(np.argmax(F, axis=1)[:, None]), -9.0, axis=1)
    return a


c("fill_diagonal", _fill_diagonal)
c("put_along_axis", _put_along_axis)
c("insert", lambda xp, to: xp.insert(to(F), 2, to(np.arange(4.0)), axis=1))
c("insert", lambda xp, to: xp.insert(to(F), [1, 1, 4], 0.5, axis=0))
c("insert", lambda xp, to: xp.insert(to(V), -2, 7.0))
c("resize", lambda xp, to: xp.resize(to(W), (3, 5)))
c("vander", lambda xp, to: xp.vander(to(np.array([1, 2, 3, 5])), 3))
c("vander", lambda xp, to: xp.vander(to(W), increasing=True))
c("vander", lambda xp, to: xp.vander(to(np.array([1.5, -2, 3], np.float32)), 4))
c("vander", lambda xp, to: xp.vander(to(np.array([1 + 1j, 2], np.complex64))))
# printing, planning and the rest
c("set_printoptions", lambda xp, to: (xp.set_printoptions(precision=3),
                                      xp.array_str(to(W)), xp.set_printoptions(precision=8)))
c("get_printoptions", lambda xp, to: xp.get_printoptions()["precision"])


def _printoptions(xp, to):
    with xp.printoptions(precision=2, suppress=True):
        return str(to(F))


c("printoptions", _printoptions)
check("array_repr", lambda: _repr_check())
c("array_str", lambda xp, to: xp.array_str(to(F), precision=2))
c("array2string", lambda xp, to: xp.array2string(to(W), separator=", "))
c("einsum_path", lambda xp, to: xp.einsum_path("ij,jk,kl->il", to(F), to(F.T), to(F),
                                               optimize="greedy")[0])
c("real_if_close", lambda xp, to: xp.real_if_close(to(Z.real + 1e-18j)))
c("real_if_close", lambda xp, to: xp.real_if_close(to(Z)))
c("asarray_chkfinite", lambda xp, to: xp.asarray_chkfinite([1.0, 2.0]))
c("common_type", lambda xp, to: xp.common_type(to(I), to(F.astype(np.float32))))
c("sort_complex", lambda xp, to: xp.sort_complex(to(np.array([3, 1, 2]))))
c("sort_complex", lambda xp, to: xp.sort_complex(to(Z)))
for _t in (np.bool_, np.int8, np.uint16, np.float16, np.float32):  # numpy: bhBH -> complex64
    c("sort_complex", lambda xp, to, t=_t: xp.sort_complex(to(np.array([3, 0, 1], t))))
c("histogram_bin_edges", lambda xp, to: xp.histogram_bin_edges(to(V), bins=4))
c("apply_along_axis", lambda xp, to: xp.apply_along_axis(lambda r: r[::-1] * 2, 1, to(F)))
c("apply_along_axis", lambda xp, to: xp.apply_along_axis(lambda r: r.sum(), 0, to(F)))
c("polyadd", lambda xp, to: xp.polyadd(to(np.array([1.0, 2])), to(np.array([3.0, 4, 5]))))
c("polysub", lambda xp, to: xp.polysub(to(np.array([1.0, 2, 3])), to(np.array([3.0, 4]))))
c("polymul", lambda xp, to: xp.polymul(to(np.array([1.0, 2])), to(np.array([3.0, 4, 5]))))
c("polyder", lambda xp, to: xp.polyder(to(np.array([1, 2, 3, 4])), 2))
c("polyint", lambda xp, to: xp.polyint(to(np.array([3.0, 2, 1])), 2, k=[1.0, 2.0]))


def _repr_check():
    import vkarray as vk
    x = vk.asarray(F)
    assert vk.array_repr(x) == repr(F)[:-1] + f", device='{x.device}')" == repr(x)
c("polyfit", lambda xp, to: xp.polyfit(to(V), to(3 * V ** 2 - V + 0.5), 2), rtol=1e-10)
c("polyfit", lambda xp, to: xp.polyfit(to(np.arange(6.0)), to(F.T), 1), rtol=1e-10)
c("block", lambda xp, to: xp.block([[to(np.eye(2)), to(np.zeros((2, 3)))],
                                    [to(np.ones((1, 2))), to(np.full((1, 3), 4.0))]]))
c("block", lambda xp, to: xp.block([to(V), to(W), 1.0]))
NANS = np.where(np.arange(24).reshape(4, 6) % 4 == 1, np.nan, F)
NANS[2] = np.nan  # an all-NaN row
c("nanquantile", lambda xp, to: xp.nanquantile(to(NANS), 0.3, axis=1))
c("nanquantile", lambda xp, to: xp.nanquantile(to(NANS), to(np.array([0.0, 0.5, 1.0])),
                                               axis=0, keepdims=True))
c("nanquantile", lambda xp, to: xp.nanquantile(to(I), 0.25))
c("nanpercentile", lambda xp, to: xp.nanpercentile(to(NANS), 40.0))
c("nanpercentile", lambda xp, to: xp.nanpercentile(to(NANS), [10, 90], axis=(0, 1)))
c("i0", lambda xp, to: xp.i0(to(np.linspace(-20, 20, 41))))
c("i0", lambda xp, to: xp.i0(to(np.arange(-3, 12))))
c("kaiser", lambda xp, to: xp.kaiser(9, 14.0))
SAMPLE = RNG.standard_normal((40, 3))
c("histogramdd", lambda xp, to: xp.histogramdd(to(SAMPLE), bins=(2, 3, 4)))
c("histogramdd", lambda xp, to: xp.histogramdd([to(V), to(V[::-1])], bins=[
    to(np.array([-2.0, 0, 0.5, 3])), 3], density=True))
c("histogramdd", lambda xp, to: xp.histogramdd(to(SAMPLE[:, :2]), bins=3,
                                               range=[(-1, 1), (0, 2)], weights=to(SAMPLE[:, 2])))
c("histogram2d", lambda xp, to: xp.histogram2d(to(V), to(V ** 2), bins=to(np.linspace(-2, 2, 5))))
c("histogram2d", lambda xp, to: xp.histogram2d(to(V), to(V ** 2), bins=to(np.arange(-2, 3))))
c("histogramdd", lambda xp, to: xp.histogramdd([to(V), to(V[::-1])], bins=[
    to(np.array([-2, 0, 1, 3], np.int32)), 3], density=True))
c("asfortranarray", lambda xp, to: xp.asfortranarray(to(F)))
c("asfortranarray", lambda xp, to: xp.asfortranarray(to(I), np.float32))
c("require", lambda xp, to: xp.require(to(F), np.float32, ["F", "W"]))
c("mask_indices", lambda xp, to: xp.mask_indices(4, xp.triu, 1))
c("r_", lambda xp, to: xp.r_[to(V), 0, 1:3, to(W)])
c("r_", lambda xp, to: xp.r_["0,2,0", to(V), to(V)])
c("c_", lambda xp, to: xp.c_[to(V), to(V), 1:10])
c("base_repr", lambda xp, to: xp.base_repr(-35, 36, 2))
c("binary_repr", lambda xp, to: xp.binary_repr(-5, 8))
c("fromstring", lambda xp, to: xp.fromstring("1, 2.5, -3", sep=","))
c("loadtxt", lambda xp, to: xp.loadtxt(["1 2", "3 4.5"]))
c("genfromtxt", lambda xp, to: xp.genfromtxt(["1,2", "3,"], delimiter=","))


def _file_round_trip():
    """What vkarray's writers write, numpy and vkarray's readers read back."""
    import os
    import tempfile

    import vkarray as vk
    with tempfile.TemporaryDirectory() as d:
        vk.save(os.path.join(d, "f.npy"), vk.asarray(F))
        np.testing.assert_array_equal(np.load(os.path.join(d, "f.npy")), F)
        vk.savez(os.path.join(d, "a.npz"), vk.asarray(F), i=vk.asarray(I))
        vk.savez_compressed(os.path.join(d, "c.npz"), i=vk.asarray(I))
        with vk.load(os.path.join(d, "a.npz")) as f:
            np.testing.assert_array_equal(f["arr_0"].get(), F)
            np.testing.assert_array_equal(f["i"].get(), I)
        np.testing.assert_array_equal(vk.load(os.path.join(d, "c.npz"))["i"].get(), I)
        vk.savetxt(os.path.join(d, "t.txt"), vk.asarray(F))
        np.testing.assert_array_equal(vk.loadtxt(os.path.join(d, "t.txt")).get(),
                                      np.loadtxt(os.path.join(d, "t.txt")))
        I.tofile(os.path.join(d, "i.bin"))
        np.testing.assert_array_equal(vk.fromfile(os.path.join(d, "i.bin"), I.dtype).get(),
                                      I.ravel())


for _name in ("save", "savez", "savez_compressed", "savetxt", "load", "fromfile"):
    check(_name, _file_round_trip)
