"""Complex arcsin, arccos, arctan, arcsinh, arccosh, arctanh (array API: asin, ...) against
numpy: finite operands across magnitudes (tiny, near the branch points, on the branch cuts
with either sign of zero, huge) within a few ulps of |result|; infinities, NaNs and signed
zeros as numpy (C99 Annex G) gives them, or as the array API 2023.12 states where the two
differ (docs/differences_from_numpy.md)."""

import numpy as np
import pytest

import vkarray as vk

INF, NAN = np.inf, np.nan
FNS = ["arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"]
DTYPES = ["complex64", "complex128"]
# Error bound per component, in units of eps times |result| (complex64: eps = 2^-23,
# complex128: eps = 2^-52), against numpy's complex128 result (complex64 operands are
# widened, so the reference is far more accurate than the bound).
ULPS = {"complex64": 8, "complex128": 8}


def parts(dtype):
    tiny, huge = (1e-30, 1e30) if dtype == "complex64" else (1e-300, 1e300)
    fi = np.finfo(dtype)
    base = [0.0, 1e-30, tiny, 1e-8, 0.25, 0.5, 0.7071, 1.0, 1.0 + 2e-7, 1.5, 2.0, 10.0,
            1e4, 1e8, 3e15, 1e30, huge,
            # the range's ends and the neighbours of 1
            float(fi.max), float(fi.max) / 3, float(fi.tiny), float(fi.tiny) * 7,
            1.0 - float(fi.epsneg), 1.0 + float(fi.eps)]
    vals = sorted(set(base))
    return vals + [-v for v in vals]


def finite_grid(dtype):
    p = parts(dtype)
    return np.array([complex(a, b) for a in p for b in p], dtype)


def reference(fn, z):
    with np.errstate(all="ignore"):
        return getattr(np, fn)(z.astype(np.complex128))


def check_close(fn, z, got, dtype, componentwise=False):
    """Each part within ULPS eps of |result| (or, componentwise, of |that part|, for parts
    well inside the dtype's normal range)."""
    want = reference(fn, z)
    eps = np.finfo(dtype).eps
    with np.errstate(invalid="ignore"):
        scale = np.maximum(np.abs(want), np.finfo(dtype).tiny)
    for part in ("real", "imag"):
        if componentwise:
            scale = np.maximum(np.abs(getattr(want, part)), 1e3 * np.finfo(dtype).tiny)
        g = getattr(got, part).astype(np.float64)
        w = getattr(want, part)
        with np.errstate(invalid="ignore"):
            err = np.where(g == w, 0.0, np.abs(g - w))  # an exact infinity (atanh(+-1))
        bad = np.nonzero(~(err <= ULPS[dtype] * eps * scale))[0]
        assert bad.size == 0, "\n".join(
            f"{fn}({z[i]!r}) = {got[i]!r}, numpy {want[i]!r} ({part}: "
            f"{err[i] / (eps * scale[i]):.3g} eps*|w|)" for i in bad[:8])


def check_zero_signs(fn, z, got):
    """Where numpy's result part is a zero, the same zero (the branch-cut sides)."""
    want = reference(fn, z)
    for part in ("real", "imag"):
        g = getattr(got, part)
        w = getattr(want, part)
        zero = w == 0
        bad = np.nonzero(zero & ((g != 0) | (np.signbit(g) != np.signbit(w))))[0]
        assert bad.size == 0, [(z[i], got[i], want[i]) for i in bad[:8]]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", FNS)
def test_grid_matches_numpy(fn, dtype):
    z = finite_grid(dtype)
    got = getattr(vk, fn)(vk.asarray(z)).get()
    assert got.dtype == np.dtype(dtype)
    check_close(fn, z, got, dtype)
    check_zero_signs(fn, z, got)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", FNS)
def test_random_magnitudes(fn, dtype):
    """Log-uniform magnitudes over the dtype's range, any direction; and points near the
    branch points +-1, +-i and near the unit circle."""
    rng = np.random.default_rng(7)
    lim = 36 if dtype == "complex64" else 300
    n = 1000
    r = 10.0 ** rng.uniform(-lim, lim, n)
    t = rng.uniform(-np.pi, np.pi, n)
    near = rng.choice([1.0, -1.0, 1j, -1j], n) + \
        10.0 ** rng.uniform(-7, 0, n) * np.exp(1j * rng.uniform(-np.pi, np.pi, n))
    circle = np.exp(1j * rng.uniform(-np.pi, np.pi, n)) * (1 + rng.normal(0, 1e-4, n))
    z = np.concatenate([r * np.exp(1j * t), near, circle]).astype(dtype)
    got = getattr(vk, fn)(vk.asarray(z)).get()
    check_close(fn, z, got, dtype)
    check_close(fn, z, got, dtype, componentwise=True)


@pytest.mark.parametrize("n", [1, 7, 1000, 1000003])
def test_sizes(n):
    rng = np.random.default_rng(n)
    z = (rng.normal(size=n) + 1j * rng.normal(size=n)).astype(np.complex64) * 3
    got = vk.arcsinh(vk.asarray(z)).get()
    check_close("arcsinh", z, got, "complex64")


def same(got, want):
    """C99's reading: NaN matches NaN of any sign, zeros and infinities exactly with their
    sign, other values within a few ulps."""
    if np.isnan(want):
        return bool(np.isnan(got))
    if want == 0 or np.isinf(want):
        return got == want and np.signbit(got) == np.signbit(want)
    return abs(got - want) <= 4 * np.finfo(type(got)).eps * abs(want)


EDGES = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, INF, -INF, NAN]
EDGE_GRID = [complex(a, b) for a in EDGES for b in EDGES]

# numpy's values here are also the array API 2023.12's (the standard's special cases are
# C99 Annex G's, and test_array_api_special_cases checks them directly), signs the standard
# leaves free ("+-") included: vkarray gives numpy's.


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", FNS)
def test_special_values(fn, dtype):
    z = np.array(EDGE_GRID, dtype)
    got = getattr(vk, fn)(vk.asarray(z)).get()
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(z)
    for zi, g, w in zip(z, got, want):
        for part in ("real", "imag"):
            assert same(getattr(g, part), getattr(w, part)), (fn, zi, g, w)


# The array API 2023.12's special cases, checked directly (with the conj/odd symmetries the
# standard states, on the lower half plane too).
PI = np.pi
SPEC = {
    "acos": [((0.0, 0.0), (PI / 2, -0.0)), ((-0.0, 0.0), (PI / 2, -0.0)),
             ((0.0, NAN), (PI / 2, NAN)), ((3.0, INF), (PI / 2, -INF)),
             ((3.0, NAN), (NAN, NAN)), ((-INF, 3.0), (PI, -INF)), ((INF, 3.0), (0.0, -INF)),
             ((-INF, INF), (3 * PI / 4, -INF)), ((INF, INF), (PI / 4, -INF)),
             ((NAN, 3.0), (NAN, NAN)), ((NAN, INF), (NAN, -INF)), ((NAN, NAN), (NAN, NAN))],
    "acosh": [((0.0, 0.0), (0.0, PI / 2)), ((-0.0, 0.0), (0.0, PI / 2)),
              ((3.0, INF), (INF, PI / 2)), ((3.0, NAN), (NAN, NAN)),
              ((-INF, 3.0), (INF, PI)), ((INF, 3.0), (INF, 0.0)),
              ((-INF, INF), (INF, 3 * PI / 4)), ((INF, INF), (INF, PI / 4)),
              ((INF, NAN), (INF, NAN)), ((-INF, NAN), (INF, NAN)), ((NAN, 3.0), (NAN, NAN)),
              ((NAN, INF), (INF, NAN)), ((NAN, NAN), (NAN, NAN))],
    "asinh": [((0.0, 0.0), (0.0, 0.0)), ((3.0, INF), (INF, PI / 2)), ((3.0, NAN), (NAN, NAN)),
              ((0.0, NAN), (NAN, NAN)), ((INF, 3.0), (INF, 0.0)), ((INF, INF), (INF, PI / 4)),
              ((INF, NAN), (INF, NAN)), ((NAN, 0.0), (NAN, 0.0)), ((NAN, 3.0), (NAN, NAN)),
              ((NAN, NAN), (NAN, NAN))],
    "atanh": [((0.0, 0.0), (0.0, 0.0)), ((0.0, NAN), (0.0, NAN)), ((1.0, 0.0), (INF, 0.0)),
              ((3.0, INF), (0.0, PI / 2)), ((3.0, NAN), (NAN, NAN)), ((INF, 3.0), (0.0, PI / 2)),
              ((INF, INF), (0.0, PI / 2)), ((INF, NAN), (0.0, NAN)), ((NAN, 3.0), (NAN, NAN)),
              ((NAN, NAN), (NAN, NAN))],
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", sorted(SPEC))
def test_array_api_special_cases(fn, dtype):
    cases = SPEC[fn]
    z = np.array([complex(*a) for a, _ in cases], dtype)
    got = getattr(vk, fn)(vk.asarray(z)).get()
    for (a, w), g in zip(cases, got):
        assert same(g.real, w[0]) and same(g.imag, w[1]), (fn, a, g, w)
    # conj symmetry (and oddness for asinh, atanh) on the lower half plane
    got_c = getattr(vk, fn)(vk.asarray(np.conj(z))).get()
    np.testing.assert_array_equal(got_c, np.conj(got))
    if fn in ("asinh", "atanh"):
        np.testing.assert_array_equal(getattr(vk, fn)(vk.asarray(-z)).get(), -got)


@pytest.mark.parametrize("fn", FNS)
def test_shapes_views_and_names(fn):
    z = (np.arange(24).reshape(2, 3, 4) * 0.37 - 4).astype(np.complex128) * (1 - 0.6j)
    x = vk.asarray(z)
    got = getattr(vk, fn)(x[:, ::2, 1:].T).get()
    np.testing.assert_allclose(got, getattr(np, fn)(z[:, ::2, 1:].T), rtol=1e-14)
    assert getattr(vk, fn)(vk.asarray(np.complex64(0.5 + 2j))).shape == ()
    empty = getattr(vk, fn)(vk.zeros((0, 3), dtype="complex64"))
    assert empty.shape == (0, 3) and empty.dtype == np.complex64
    short = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh",
             "arccosh": "acosh", "arctanh": "atanh"}[fn]
    np.testing.assert_array_equal(getattr(vk, short)(x).get(), getattr(vk, fn)(x).get())
