"""numpy's names composed in vkarray's Python layer, beyond the parity suite: sizes across
workgroup and multi-level boundaries, 0-d, empty and strided inputs, dtypes, numpy's ufunc
entry points (np.fmod(x, y) on the device), and bad input raising numpy's exception class
with a message naming the function."""

import numpy as np
import pytest

import vkarray as vk

SIZES = [1, 7, 1000, 1000003]


def same(got, want, rtol=None):
    assert isinstance(got, vk.ndarray), type(got)
    g, w = got.get(), np.asarray(want)
    assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
    if w.dtype.kind in "fc":
        tol = rtol or 16 * np.finfo(w.dtype).eps
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("n", SIZES)
def test_sizes(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(np.float32)
    b = (a + rng.standard_normal(n).astype(np.float32) * 1e-6).astype(np.float32)
    x, y = vk.asarray(a), vk.asarray(b)
    same(vk.isclose(x, y, rtol=1e-6), np.isclose(a, b, rtol=1e-6))
    assert vk.allclose(x, y, atol=1e-4) == np.allclose(a, b, atol=1e-4)
    same(vk.fmod(x * 7, 2), np.fmod(a * 7, 2))
    same(vk.logaddexp(x, y), np.logaddexp(a, b), rtol=1e-6)
    xp = np.linspace(-3, 3, 17)
    same(vk.interp(x, xp, np.cos(xp)), np.interp(a, xp, np.cos(xp)), rtol=1e-12)
    same(vk.digitize(x, np.array([-1.0, 0.0, 0.5])), np.digitize(a, [-1.0, 0.0, 0.5]))
    s = np.where(np.arange(n) % 3 == 0, np.inf, a).astype(np.float32)
    same(vk.nan_to_num(vk.asarray(s)), np.nan_to_num(s))
    h = np.where(np.arange(n) % 5 == 1, np.nan, a.astype(np.float64))
    same(vk.nanquantile(vk.asarray(h), [0.1, 0.5]), np.nanquantile(h, [0.1, 0.5]))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float16,
                                   np.float32, np.float64])
def test_dtypes(dtype):
    a = (np.arange(-6, 7) * 3).astype(dtype) if np.dtype(dtype).kind != "u" else \
        np.arange(13).astype(dtype)
    b = np.full(13, 4, dtype)
    x, y = vk.asarray(a), vk.asarray(b)
    same(vk.fmod(x, y), np.fmod(a, b))
    q, r = vk.divmod(x, y)
    same(q, np.divmod(a, b)[0])
    same(r, np.divmod(a, b)[1])
    same(vk.fabs(x), np.fabs(a))
    same(vk.deg2rad(x), np.deg2rad(a), rtol=4 * np.finfo(np.deg2rad(a).dtype).eps)
    same(vk.cbrt(x), np.cbrt(a), rtol=4 * np.finfo(np.cbrt(a).dtype).eps)
    same(vk.heaviside(x, 0.5), np.heaviside(a, 0.5))
    same(vk.convolve(x, y[:3]), np.convolve(a, b[:3]), rtol=1e-3)
    assert vk.array_equal(x, a) and not vk.array_equal(x, b)
    if np.dtype(dtype).kind in "iu":
        same(vk.gcd(x, y + 2), np.gcd(a, b + 2))
        same(np.lcm(x, y), np.lcm(a, b))  # numpy's ufunc, on the device


def test_numpy_ufuncs_reach_the_composed_functions():
    a = np.linspace(-4, 4, 9)
    x = vk.asarray(a)
    for f in (np.fmod, np.logaddexp, np.logaddexp2, np.heaviside, np.float_power):
        r = f(x, 1.5) if f is not np.float_power else f(vk.abs(x), 1.5)
        assert isinstance(r, vk.ndarray)
    q, r = np.divmod(x, 1.5)
    same(q, np.divmod(a, 1.5)[0])
    frac, whole = np.modf(x)
    same(frac, np.modf(a)[0])
    out = vk.zeros(9)
    assert np.cbrt(x, out=out) is out
    same(out, np.cbrt(a))
    assert np.isclose(x, a).all() and np.allclose(x, a)  # through __array_function__


def test_zero_d_empty_and_strided():
    e = np.zeros((0, 3))
    same(vk.isclose(vk.asarray(e), 0.0), np.isclose(e, 0.0))
    assert vk.allclose(vk.asarray(e), e) and vk.array_equal(vk.asarray(e), e)
    same(vk.nan_to_num(vk.asarray(np.float64(np.nan))), np.nan_to_num(np.float64(np.nan)))
    same(vk.cbrt(vk.asarray(np.float32(-8))), np.cbrt(np.float32(-8)))
    assert vk.atleast_1d(vk.asarray(np.float64(2))).shape == (1,)
    m = np.arange(48.0).reshape(6, 8)
    v = vk.asarray(m)[::2, 1::3]
    same(vk.cross(v[:, :2], v[:, 1:]), np.cross(m[::2, 1::3][:, :2], m[::2, 1::3][:, 1:]))
    same(vk.gradient(v, axis=1), np.gradient(m[::2, 1::3], axis=1))
    same(vk.trapezoid(v.T), np.trapz(m[::2, 1::3].T))
    same(vk.select([v > 20], [v]), np.select([m[::2, 1::3] > 20], [m[::2, 1::3]]))
    same(vk.delete(v, 1, axis=0), np.delete(m[::2, 1::3], 1, axis=0))
    same(vk.setdiff1d(vk.asarray(np.arange(0)), [1]), np.setdiff1d(np.arange(0), [1]))
    same(vk.union1d(vk.asarray(np.arange(0)), vk.asarray(np.arange(0))),
         np.union1d(np.arange(0), np.arange(0)))


def test_in_place_functions_leave_views_consistent():
    base = vk.asarray(np.arange(12.0))
    a = base.reshape(3, 4)
    vk.copyto(a, 5.0, where=a > 6)
    vk.place(a, a < 2, [-1.0, -2.0])
    vk.putmask(a, a == 5.0, [9.0])
    ref = np.arange(12.0).reshape(3, 4)
    np.copyto(ref, 5.0, where=ref > 6)
    np.place(ref, ref < 2, [-1.0, -2.0])
    np.putmask(ref, ref == 5.0, [9.0])
    same(a, ref)
    same(base, ref.ravel())


A = np.arange(6.0).reshape(2, 3)
BAD = {
    "isclose": lambda m: m.isclose(m.asarray(A), m.asarray(np.ones(4))),
    "convolve": lambda m: m.convolve(m.asarray(np.ones(3)), m.asarray(np.ones(0))),
    "correlate": lambda m: m.correlate(m.asarray(A), m.asarray(A)),
    "delete": lambda m: m.delete(m.asarray(A), 0, axis=2),
    "cross": lambda m: m.cross(m.asarray(np.ones(4)), m.asarray(np.ones(4))),
    "interp": lambda m: m.interp(m.asarray(np.ones(2)), m.asarray(np.ones(3)),
                                 m.asarray(np.ones(2))),
    "select": lambda m: m.select([m.asarray(A)], [m.asarray(A)]),
    "choose": lambda m: m.choose(m.asarray(np.array([0, 3])), [m.asarray(np.ones(2))] * 2),
    "size": lambda m: m.size(m.asarray(A), 3),
    "digitize": lambda m: m.digitize(m.asarray(np.ones(3)), m.asarray(np.array([1.0, 3, 2]))),
    "fmod": lambda m: m.fmod(m.asarray(np.ones(2) * 1j), 2),
    "cbrt": lambda m: m.cbrt(m.asarray(np.ones(2) * 1j)),
    "geomspace": lambda m: m.geomspace(0, 10, 3),
    "gradient": lambda m: m.gradient(m.asarray(A), axis=2),
    "rollaxis": lambda m: m.rollaxis(m.asarray(A), 3),
    "place": lambda m: m.place(m.asarray(A.copy()), m.asarray(A > 1), m.asarray(np.ones(0))),
    "lexsort": lambda m: m.lexsort([]),
    "piecewise": lambda m: m.piecewise(m.asarray(np.ones(3)), [m.asarray(np.ones(3)) > 0],
                                       [1, 2, 3]),
    "cov": lambda m: m.cov(m.asarray(np.ones((2, 2, 2)))),
    "copyto": lambda m: m.copyto(m.asarray(np.zeros(3, np.int32)), m.asarray(np.ones(3))),
    "trapezoid": lambda m: m.trapz(m.asarray(A), axis=3),
    "histogram2d": lambda m: m.histogram2d(m.asarray(np.ones(3)), m.asarray(np.ones(4))),
    "modf": lambda m: m.modf(m.asarray(np.ones(2) * 1j)),
    "block": lambda m: m.block([[m.asarray(np.ones(2))], m.asarray(np.ones(2))]),
    "polyfit": lambda m: m.polyfit(m.asarray(A), m.asarray(A), 1),
    "insert": lambda m: m.insert(m.asarray(A), 9, 1.0, axis=1),
    "vander": lambda m: m.vander(m.asarray(A)),
    "diag_indices_from": lambda m: m.diag_indices_from(m.asarray(A)),
    "apply_along_axis": lambda m: m.apply_along_axis(lambda r: r, 2, m.asarray(A)),
    "asarray_chkfinite": lambda m: m.asarray_chkfinite([1.0, np.inf]),
    "nanquantile": lambda m: m.nanquantile(m.asarray(A), 1.5),
    "nanpercentile": lambda m: m.nanpercentile(m.asarray(A), -1),
    "histogramdd": lambda m: m.histogramdd(m.asarray(np.ones((3, 2))), bins=[2, 2, 2]),
    "gcd": lambda m: m.gcd(m.asarray(A), 2),
    "multi_dot": lambda m: m.linalg.multi_dot([m.asarray(A)]),
    "tensorinv": lambda m: m.linalg.tensorinv(m.asarray(A), ind=0),
}


def _public_class(error):
    """numpy's exception class as users catch it: numpy's private subclasses (UFuncTypeError,
    ...) stand for their builtin base; AxisError and LinAlgError are public."""
    for cls in type(error).__mro__:
        if cls.__module__ == "builtins" or cls.__name__ in ("AxisError", "LinAlgError"):
            return cls
    return type(error)


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_raises_numpys_exception_class(name):
    with pytest.raises(Exception) as numpy_error:
        BAD[name](np)
    with pytest.raises(_public_class(numpy_error.value), match=rf"\[{name}\] "):
        BAD[name](vk)


@pytest.mark.parametrize("src", [3.2, 0, 4, -4, True, 1 + 1j, np.float32(2.5), np.int16(-3)])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.float16, np.complex64])
def test_copyto_casts_a_scalar_by_its_value(src, dtype):
    """copyto of a scalar follows numpy's casting rule for that value: raises TypeError where
    numpy does, else writes the value."""
    ref, a = np.ones((2, 2), dtype), vk.ones((2, 2), dtype)
    try:
        np.copyto(ref, src)
    except TypeError:
        with pytest.raises(TypeError, match="Cannot cast scalar"):
            vk.copyto(a, src)
        return
    vk.copyto(a, src)
    same(a, ref)


def test_base_repr_and_binary_repr_of_integers():
    for args in [(0,), (5,), (-5,), (5, 2), (35, 36), (-7, 3, 4)]:
        assert vk.base_repr(*args) == np.base_repr(*args)
    for args in [(0,), (3,), (-3,), (3, 5), (-3, 5)]:
        assert vk.binary_repr(*args) == np.binary_repr(*args)
    assert vk.binary_repr(vk.asarray(6)) == np.binary_repr(6)  # a 0-d device integer


def test_place_and_putmask_errors_and_empty_arrays():
    with pytest.raises(ValueError, match="same size"):
        np.place(np.arange(7), np.ones((3, 4), bool), [1])
    with pytest.raises(ValueError, match="same size"):
        vk.place(vk.arange(7), vk.ones((3, 4), dtype=bool), [1])
    for values in (np.array([1.5, 2.0]), np.array([1], np.uint64)):
        with pytest.raises(TypeError, match="rule 'safe'"):
            np.putmask(np.arange(6), np.arange(6) > 2, values)
        with pytest.raises(TypeError, match="rule 'safe'"):
            vk.putmask(vk.arange(6), vk.arange(6) > 2, vk.asarray(values))
    a, ref = vk.arange(6), np.arange(6)
    vk.putmask(a, a > 2, 2.5)  # a Python scalar or list converts as assignment does
    np.putmask(ref, ref > 2, 2.5)
    vk.putmask(a, a < 2, [7.5, -1.5])
    np.putmask(ref, ref < 2, [7.5, -1.5])
    same(a, ref)
    empty = vk.zeros(0)
    assert vk.putmask(empty, vk.zeros(0, dtype=bool), vk.zeros(0)) is None


@pytest.mark.parametrize("mode", ["valid", "same", "full"])
def test_convolve_of_0d_operands(mode):
    """numpy's convolve takes a 0-d operand as one element; its correlate does not."""
    for a, v in [(np.array(2.0), np.array(3.0)), (np.array(2), np.arange(5)),
                 (np.arange(6.0), np.array(1.5))]:
        same(vk.convolve(vk.asarray(a), vk.asarray(v), mode), np.convolve(a, v, mode))
    with pytest.raises(ValueError):
        np.correlate(np.array(2.0), np.arange(3.0))
    with pytest.raises(ValueError):
        vk.correlate(vk.asarray(np.array(2.0)), vk.arange(3.0))


def test_require():
    a = vk.asarray(np.arange(6.0).reshape(2, 3))
    for req in [None, "C", ["F"], "W", "O", ["A", "E"], ("C_CONTIGUOUS", "OWNDATA")]:
        got = vk.require(a, np.float32, req)
        same(got, np.require(np.arange(6.0).reshape(2, 3), np.float32, req))
    # numpy copies for "O" only where the array does not own its memory: a view.
    view = a[:, ::2]
    assert vk.require(a) is a and vk.require(a, requirements="O") is a
    assert vk.require(view, requirements="O") is not view
    assert np.require(np.arange(6.0), requirements="O").flags.owndata
    with pytest.raises(ValueError, match="both"):
        vk.require(a, requirements="CF")


@pytest.mark.parametrize("k", [-1, 0, 2])
def test_mask_indices(k):
    for fn in ("triu", "tril"):
        got = vk.mask_indices(4, getattr(vk, fn), k)
        want = np.mask_indices(4, getattr(np, fn), k)
        assert len(got) == 2
        for g, w in zip(got, want):
            same(g, w)


@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.complex64])
def test_gradient_with_coordinate_arrays(edge_order, dtype):
    """Coordinate arrays as spacing: numpy's non-uniform three-point weights; evenly spaced
    coordinates reduce to the scalar spacing, as numpy's."""
    rng = np.random.default_rng(3)
    f = (rng.standard_normal((5, 6)) * 10).astype(dtype)
    x = np.cumsum(rng.random(6)) + 0.1
    for args, kw in [((x,), {"axis": 1}), ((np.arange(0, 10, 2), x), {}), ((2.0, x), {}),
                     ((np.arange(5),), {"axis": 0}),
                     ((np.array([0.0, 1, 3, 4, 5]),), {"axis": -2})]:
        got = vk.gradient(vk.asarray(f), *[vk.asarray(a) if isinstance(a, np.ndarray) else a
                                          for a in args], edge_order=edge_order, **kw)
        want = np.gradient(f, *args, edge_order=edge_order, **kw)
        for g, w in zip(got if isinstance(got, tuple) else [got],
                        want if isinstance(want, list) else [want]):
            same(g, w, rtol=1e-5 if w.dtype in (np.float32, np.complex64) else 1e-12)
    with pytest.raises(ValueError, match="must match the length"):
        vk.gradient(vk.asarray(f), vk.asarray(x[:-1]), axis=1)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_gradient_of_uniform_spacing_is_numpys_to_the_bit(dtype):
    """numpy's second-order edge weights are divided by the spacing first; so are vkarray's."""
    x = (np.random.default_rng(4).standard_normal((10, 20, 30)) * 10).astype(dtype)
    for spacing in [(), (2,), (0.5, 1.5, 3)]:
        got = vk.gradient(vk.asarray(x), *spacing, edge_order=2)
        for g, w in zip(got, np.gradient(x, *spacing, edge_order=2)):
            np.testing.assert_array_equal(g.get(), w)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64,
                                   np.uint64, np.bool_, np.float16, np.float32, np.complex64])
def test_angle_dtype_is_arctan2s_loop(dtype):
    x = np.array([1, 0, 1, 1, 0]).astype(dtype)
    for deg in (False, True):
        want = np.angle(x, deg)
        got = vk.angle(vk.asarray(x), deg)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_polyfit_full_weights_and_covariance(dtype):
    import itertools
    import warnings

    def ramp(shape):
        return (np.arange(int(np.prod(shape))).reshape(shape) + 1).astype(dtype)

    for n, ys, deg, rcond, weighted in itertools.product([3, 5], [(), (2,)], [0, 1, 4],
                                                         [None, 1e-15], [False, True]):
        x, y = ramp((n,)), ramp((n,) + ys)
        w = x if weighted else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.RankWarning)
            want = np.polyfit(x, y, deg, rcond, True, w)
            got = vk.polyfit(vk.asarray(x), vk.asarray(y), deg, rcond, True,
                             None if w is None else vk.asarray(w))
        tol = 1e-4 if dtype == np.float32 else 1e-9  # least squares of a float32 system
        for g, v in zip(got, want):
            assert np.shape(g) == np.shape(v)
            np.testing.assert_allclose(np.asarray(g), v, rtol=tol, atol=tol)
    if dtype in (np.float32, np.float64):
        x = np.array([0.008, 0.01, 0.015], dtype)
        for ys, cov, weighted in itertools.product([(), (2,)], ["unscaled", True], [False, True]):
            y, w = ramp((3,) + ys), (x if weighted else None)
            want = np.polyfit(x, y, 1, w=w, cov=cov)
            got = vk.polyfit(vk.asarray(x), vk.asarray(y), 1, w=None if w is None else
                             vk.asarray(w), cov=cov)
            for g, v in zip(got, want):
                assert g.shape == v.shape
                np.testing.assert_allclose(g.get(), v, rtol=1e-3)
    with pytest.warns(np.RankWarning, match="Polyfit may be poorly conditioned"):
        vk.polyfit(vk.arange(5.0), vk.arange(5.0), 6)
    with pytest.raises(ValueError, match=r"\[polyfit\] the number of data points must exceed"):
        vk.polyfit(vk.arange(2.0), vk.arange(2.0), 1, cov=True)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.float32, np.complex64])
def test_poly1d_powers_promote_with_numpys_int_one(dtype):
    a = np.arange(1, 4).astype(dtype)
    for e in (0, 1, 2):
        want = (np.poly1d(a) ** e).coeffs
        got = (vk.poly1d(vk.asarray(a)) ** e).coeffs
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)


def test_real_of_a_real_array_is_the_array():
    for dtype in (np.int8, np.float32, np.bool_):
        x = vk.asarray(np.arange(3).astype(dtype))
        assert vk.real(x) is x and x.real is x
    z = vk.asarray(np.array([1 + 2j, 3 - 4j], np.complex64))
    assert vk.real(z).dtype == np.float32
    np.testing.assert_array_equal(z.real.get(), [1, 3])
