"""Parity cases of the numpy names that make vkarray a drop-in namespace beyond the array
functions: ndarray's companion types, scalar type names, floating-point routines, bit
packing, polynomials, error handling, functional helpers and input/output."""

import numpy as np
import pytest

import vkarray as vk
from parity_registry import case, check

RNG = np.random.default_rng(22)
F = RNG.standard_normal((4, 6))
c = case


def _flatiter():
    for host in (F, F.T, F[::2, 1::2]):
        it = vk.asarray(host).flat
        assert isinstance(it, vk.flatiter) and type(it).__name__ == "flatiter"
        assert [float(v) for v in it] == [float(v) for v in host.flat]
        np.testing.assert_array_equal(np.asarray(it), np.asarray(host.flat))


check("flatiter", _flatiter)


# floating-point routines
X = np.array([0.0, -0.0, 0.75, -6.5, 1e-310, 3e300, np.inf, np.nan])
c("frexp", lambda xp, to: xp.frexp(to(X)))
c("frexp", lambda xp, to: xp.frexp(to(F.astype(np.float32))))
c("ldexp", lambda xp, to: xp.ldexp(to(X), to(np.array([1, -3, 0, 7, 40, 30, -2, 1]))))
c("ldexp", lambda xp, to: xp.ldexp(to(F.astype(np.float16)), 3))
c("nextafter", lambda xp, to: xp.nextafter(to(X), to(X[::-1])))
c("nextafter", lambda xp, to: xp.nextafter(to(F.astype(np.float32)), 0.0))
c("spacing", lambda xp, to: xp.spacing(to(X)))
c("spacing", lambda xp, to: xp.spacing(to(F.astype(np.float16))))


# scalar type names: numpy's own objects, so arrays made with them have numpy's dtypes
for _name in ["byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "uint", "intp",
              "uintp", "longlong", "ulonglong", "half", "single", "double", "float_", "csingle",
              "singlecomplex", "cdouble", "cfloat", "complex_"]:
    c(_name, lambda xp, to, n=_name: xp.arange(5).astype(getattr(xp, n)))
    c(_name, lambda xp, to, n=_name: xp.zeros((2, 3), dtype=getattr(xp, n)))
_DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float64, np.complex64]
for _name in ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact",
              "floating", "complexfloating", "flexible", "character"]:
    c(_name, lambda xp, to, n=_name: [xp.issubdtype(to(np.ones(2, d)).dtype, getattr(xp, n))
                                      for d in _DTYPES])

# dtype routines
c("min_scalar_type", lambda xp, to: [xp.min_scalar_type(v) for v in
                                     (10, -3, 300.0, 1e50, to(F), to(np.array(70000)),
                                      to(np.array(-2.5)), np.float32(1.0))])
c("find_common_type", lambda xp, to: [xp.find_common_type([xp.float32, xp.int64], []),
                                      xp.find_common_type([xp.int8], [xp.float64]),
                                      xp.find_common_type([to(F).dtype], [xp.complex64])])
c("issctype", lambda xp, to: [xp.issctype(v) for v in
                              (np.int32, np.float64, np.dtype("f"), 1.0, to(F), "f")])
c("obj2sctype", lambda xp, to: [xp.obj2sctype(v) for v in
                                (np.int32, "f", to(F), to(F.astype(np.complex64)), [1, 2])])
c("sctype2char", lambda xp, to: [xp.sctype2char(v) for v in
                                 (np.int32, np.float64, to(F), to(np.arange(3, dtype=np.uint8)))])
c("issubsctype", lambda xp, to: [xp.issubsctype(to(F), np.floating),
                                  xp.issubsctype(to(np.arange(3)), np.floating),
                                  xp.issubsctype(np.int8, np.integer)])
c("issubclass_", lambda xp, to: [xp.issubclass_(np.int8, np.integer),
                                  xp.issubclass_(1, int), xp.issubclass_(np.float64, float)])
c("mintypecode", lambda xp, to: [xp.mintypecode(["d", "f"]), xp.mintypecode("if"),
                                  xp.mintypecode([to(F.astype(np.float32)), "F"]),
                                  xp.mintypecode("l", default="f")])
c("typename", lambda xp, to: [xp.typename(ch) for ch in "?bBhHiIlLqQfdFD"])


def _maximum_sctype():
    """vkarray's widest type of each kind: float64 and complex128, not numpy's float128."""
    got = [vk.maximum_sctype(t) for t in (np.int8, np.uint16, np.float32, np.complex64,
                                          np.bool_, "f", vk.asarray(F))]
    assert got == [np.int64, np.uint64, np.float64, np.complex128, np.bool_, np.float64,
                   np.float64]
    for t in (np.int8, np.uint16, np.bool_):  # numpy agrees where it has no wider type
        assert vk.maximum_sctype(t) is np.maximum_sctype(t)


check("maximum_sctype", _maximum_sctype)


# numpy's older spellings
A3 = RNG.standard_normal((3, 4, 5))
B = F > 0.3
c("alltrue", lambda xp, to: [xp.alltrue(to(B)), xp.alltrue(to(B), axis=0)])
c("sometrue", lambda xp, to: [xp.sometrue(to(B)), xp.sometrue(to(B), axis=1)])
c("product", lambda xp, to: xp.product(to(F), axis=1))
c("cumproduct", lambda xp, to: xp.cumproduct(to(F), axis=0))
c("round_", lambda xp, to: xp.round_(to(F * 100), 1))
c("msort", lambda xp, to: xp.msort(to(A3)))
c("fastCopyAndTranspose", lambda xp, to: xp.fastCopyAndTranspose(to(F)))

# layout: Fortran order and requirements
c("asfarray", lambda xp, to: [xp.asfarray(to(np.arange(4))),
                              xp.asfarray(to(np.arange(4, dtype=np.int32)), dtype=xp.float32),
                              xp.asfarray(to(np.arange(3)), dtype=xp.int8)])
c("asfortranarray", lambda xp, to: xp.asfortranarray(to(A3)))
c("asfortranarray", lambda xp, to: xp.asfortranarray(to(F), dtype=xp.float32))
c("isfortran", lambda xp, to: [xp.isfortran(to(F)), xp.isfortran(to(F).T),
                               xp.isfortran(xp.asfortranarray(to(F))),
                               xp.isfortran(to(np.arange(3.)))])
c("require", lambda xp, to: xp.require(to(F)[:, ::2], dtype=xp.float32, requirements="C"))
c("require", lambda xp, to: xp.require(to(F), requirements=["F", "W"]))


def _fortran_layouts():
    for host in (F, A3, F[:, ::2], np.arange(5.0)):
        a = vk.asfortranarray(host)
        assert a.flags.f_contiguous and a.strides == np.asfortranarray(host).strides
        np.testing.assert_array_equal(a.get(), host)
        assert vk.asfortranarray(a) is a  # already Fortran-ordered: no copy
    r = vk.require(F[:, ::2], requirements=("C", "O"))
    assert r.flags.c_contiguous and r.flags.owndata
    w = vk.asarray(F)
    w.setflags(write=False)
    assert vk.require(w, requirements="W").flags.writeable
    with pytest.raises(ValueError, match="Cannot specify both"):
        vk.require(F, requirements="CF")
    with pytest.raises(ValueError, match=r"\[require\] .*'F' and 'O'"):
        vk.require(F, requirements="FO")
    with pytest.raises(KeyError, match=r"\[require\] unknown requirement 'Z'"):
        vk.require(F, requirements="Z")


check("asfortranarray", _fortran_layouts)
check("require", _fortran_layouts)


# functional programming
c("apply_over_axes", lambda xp, to: xp.apply_over_axes(xp.sum, to(A3), [0, 2]))
c("apply_over_axes", lambda xp, to: xp.apply_over_axes(xp.mean, to(A3), -1))
c("vectorize", lambda xp, to: xp.vectorize(lambda a, b: a * b + 1)(to(F), to(F[0])))
c("vectorize", lambda xp, to: xp.vectorize(lambda a: a * 2, otypes=[np.float32])(
    to(np.arange(5))))
c("vectorize", lambda xp, to: xp.vectorize(lambda a, k: (a + k, a * k), excluded={1})(
    to(F), 3.0))
c("vectorize", lambda xp, to: xp.vectorize(lambda a: 7.0)(to(F)))
c("vectorize", lambda xp, to: xp.vectorize(lambda a, b: a - b, excluded={0, "b"})(2.0, b=0.5))


def _vectorize_errors():
    def sign(x):
        return 1.0 if x > 0 else -1.0  # control flow on an element: no array form
    with pytest.raises(ValueError, match=r"\[vectorize\] sign failed on whole arrays"):
        vk.vectorize(sign)(vk.asarray(F))
    with pytest.raises(NotImplementedError, match=r"\[vectorize\] signature='\(n\)->\(\)'"):
        vk.vectorize(vk.sum, signature="(n)->()")


check("vectorize", _vectorize_errors)
c("mask_indices", lambda xp, to: xp.mask_indices(4, xp.triu, 1))
c("mask_indices", lambda xp, to: xp.mask_indices(5, xp.tril, -2))


# bit packing
BITS = RNG.integers(0, 3, (3, 13)).astype(np.int32)
U8 = RNG.integers(0, 256, (4, 3)).astype(np.uint8)
c("packbits", lambda xp, to: xp.packbits(to(BITS)))
c("packbits", lambda xp, to: xp.packbits(to(BITS), axis=1))
c("packbits", lambda xp, to: xp.packbits(to(BITS > 0), axis=0, bitorder="little"))
c("packbits", lambda xp, to: xp.packbits(to(np.zeros((2, 0), np.uint8)), axis=1))
c("unpackbits", lambda xp, to: xp.unpackbits(to(U8)))
c("unpackbits", lambda xp, to: xp.unpackbits(to(U8), axis=0, bitorder="little"))
c("unpackbits", lambda xp, to: xp.unpackbits(to(U8), axis=1, count=-5))
c("unpackbits", lambda xp, to: xp.unpackbits(to(U8), axis=1, count=30))
c("unpackbits", lambda xp, to: xp.unpackbits(to(xp.packbits(to(BITS), axis=-1)), axis=-1,
                                             count=13))


def _bits_errors():
    with pytest.raises(TypeError, match=r"\[packbits\] .*integer or boolean.*float64"):
        vk.packbits(vk.asarray(F))
    with pytest.raises(TypeError, match=r"\[unpackbits\] .*unsigned byte.*int32"):
        vk.unpackbits(vk.asarray(BITS))
    with pytest.raises(ValueError, match=r"\[packbits\] 'order' must be"):
        vk.packbits(vk.asarray(BITS), bitorder="middle")


check("packbits", _bits_errors)


# polynomials
c("poly", lambda xp, to: xp.poly(to(np.array([1.0, -2.0, 3.5, 0.25]))))
c("poly", lambda xp, to: xp.poly(to(np.array([2, 3]))))
c("poly", lambda xp, to: xp.poly(to(np.array([1 + 2j, 1 - 2j, 3.0]))))
c("poly", lambda xp, to: xp.poly(to(np.array([1j, 2.0]))))
c("poly", lambda xp, to: xp.poly(to(np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0],
                                               [0.0, 1.0, 4.0]]))))
c("poly", lambda xp, to: xp.poly(to(np.array([[1.0, 2.0], [3.0, 4.0]]))))
c("polydiv", lambda xp, to: xp.polydiv(to(np.array([3.0, 5.0, 2.0])), to(np.array([2.0, 1.0]))))
c("polydiv", lambda xp, to: xp.polydiv(to(np.array([1.0, -3.0, 0.0, 2.0, 7.0])),
                                       to(np.array([1.0, 2.0, -1.0]))))
c("polydiv", lambda xp, to: xp.polydiv(to(np.array([1.0, 2.0])), to(np.array([1.0, 0.0, 1.0]))))
c("polydiv", lambda xp, to: xp.polydiv(to(np.array([1.0, 3.0, 2.0])), to(np.array([1.0, 1.0]))))
c("roots", lambda xp, to: xp.sort_complex(xp.roots(to(np.array([1.0, -6.0, 11.0, -6.0])))))
c("roots", lambda xp, to: xp.roots(to(np.array([0.0, 0.0]))))
c("roots", lambda xp, to: xp.roots(to(np.array([3, 0]))))


def _same_set(got, want, atol):
    """Each value of want matched by a distinct one of got within atol (eigenvalue orders
    differ from LAPACK's)."""
    got = list(np.asarray(got, np.complex128).ravel())
    assert len(got) == np.size(want)
    for w in np.asarray(want, np.complex128).ravel():
        k = int(np.argmin([abs(g - w) for g in got]))
        assert abs(got[k] - w) <= atol, (got[k], w, atol)
        got.pop(k)


def _roots_complex():
    for p in ([0.0, 2.0, 0.0, 8.0, 0.0, 0.0], [1.0, 0.0, 1.0], [1.0, 2.0, 3.0, 4.0, 5.0]):
        got, want = vk.roots(vk.asarray(p)), np.roots(p)
        assert got.dtype == want.dtype
        _same_set(got.get(), want, 1e-12 * 8)


check("roots", _roots_complex)


def _eig_parity():
    """Eigenvalues as numpy's up to order; eigenvectors satisfy a v = v w (the full
    comparison is linalg_eig_test.py)."""
    for a in (F[:, :4] @ F[:, 2:].T, F[:4, :4] + 1j * F[:4, 2:]):
        tol = 1e-12 * np.abs(a).max() * 4
        w, v = vk.linalg.eig(vk.asarray(a))
        want = np.linalg.eigvals(a)
        assert w.dtype == want.dtype
        _same_set(w.get(), want, tol)
        np.testing.assert_allclose(a @ v.get(), v.get() * w.get(), atol=tol)
        _same_set(vk.linalg.eigvals(vk.asarray(a)).get(), want, tol)


check("linalg.eig", _eig_parity)
check("linalg.eigvals", _eig_parity)

# poly1d: numpy's polynomial class, its coefficients on the device
P3 = np.array([2.0, -3.0, 0.5, 4.0])
P2 = np.array([0.0, 1.0, 2.0, -1.0])  # a leading zero numpy trims
c("poly1d", lambda xp, to: [xp.poly1d(to(P3)).coeffs, xp.poly1d(to(P2)).c, xp.poly1d(to(P3)).order,
                            len(xp.poly1d(to(P2))), xp.poly1d(to(np.zeros(3))).coeffs])
c("poly1d", lambda xp, to: xp.poly1d(to(P3))(to(F)))
c("poly1d", lambda xp, to: [(xp.poly1d(to(P3)) + xp.poly1d(to(P2))).coeffs,
                            (xp.poly1d(to(P3)) - to(P2)).coeffs,
                            (3.0 - xp.poly1d(to(P2))).coeffs,
                            (xp.poly1d(to(P3)) * xp.poly1d(to(P2))).coeffs,
                            (xp.poly1d(to(P3)) * 2.5).coeffs, (-xp.poly1d(to(P3))).coeffs,
                            (xp.poly1d(to(P2)) ** 3).coeffs, (xp.poly1d(to(P3)) / 4).coeffs])
c("poly1d", lambda xp, to: [t.coeffs for t in xp.poly1d(to(P3)) / xp.poly1d(to(P2))])
c("poly1d", lambda xp, to: [xp.poly1d(to(P3)).deriv().coeffs, xp.poly1d(to(P3)).deriv(2).coeffs,
                            xp.poly1d(to(P3)).integ().coeffs,
                            xp.poly1d(to(P3)).integ(2, k=[1.0, 2.0]).coeffs])
c("poly1d", lambda xp, to: xp.poly1d(to(np.array([1.0, -3.0, 2.0])), r=True).coeffs)
c("poly1d", lambda xp, to: [xp.poly1d(to(P3))[0], xp.poly1d(to(P3))[3], xp.poly1d(to(P3))[7],
                            xp.poly1d(to(P3)) == xp.poly1d(to(P3)),
                            xp.poly1d(to(P3)) != xp.poly1d(to(P2)),
                            xp.poly1d(to(P3))(xp.poly1d(to(P2))).coeffs])
c("poly1d", lambda xp, to: [xp.polyadd(xp.poly1d(to(P3)), to(P2)).coeffs,
                            xp.polymul(to(P2), xp.poly1d(to(P3))).coeffs,
                            xp.polyder(xp.poly1d(to(P3))).coeffs,
                            xp.polyval(xp.poly1d(to(P3)), to(F[0]))])


def _poly1d_behaviour():
    p = vk.poly1d(vk.asarray(P3), variable="z")
    want = np.poly1d(P3, variable="z")
    assert isinstance(p.coeffs, vk.ndarray)
    assert repr(p) == repr(want) and str(p) == str(want)
    np.testing.assert_array_equal(np.asarray(p), np.asarray(want))
    _same_set(p.roots.get(), want.roots, 1e-12 * 8)
    p[5] = 7.0  # numpy pads with zeros beyond the degree
    want[5] = 7.0
    np.testing.assert_array_equal(p.coeffs.get(), want.coeffs)
    with pytest.raises(AttributeError, match="Cannot set attribute"):
        p.coeffs = vk.asarray(P2)
    with pytest.raises(ValueError, match=r"\[poly1d\] Power to non-negative integers only"):
        p ** -1
    with pytest.raises(ValueError, match=r"\[poly1d\] Polynomial must be 1d only"):
        vk.poly1d(vk.asarray(F))


check("poly1d", _poly1d_behaviour)
