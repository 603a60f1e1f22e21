"""Complex exp, expm1, sinh, cosh, tanh, sin, cos, tan at infinities, NaNs and signed zeros:
numpy's values (glibc's C99 Annex G), and the array API's stated values for expm1 (numpy's
expm1 there is a plain formula that gives NaN for most of them); division to numpy's last bit."""

import numpy as np
import pytest

import vkarray as vk

INF, NAN = np.inf, np.nan
EDGES = [0.0, -0.0, 2.0, -2.0, 30.0, -800.0, INF, -INF, NAN]  # 30, -800: tanh's large |x|
GRID = np.array([complex(a, b) for a in EDGES for b in EDGES])
# Annex G leaves these signs unspecified (the spec writes "+-"); glibc's csin is not
# derived from its csinh there, so numpy's signs differ between the two.
SIGN_FREE = {("sin", "imag"): lambda z: np.isinf(z.imag) and not np.isfinite(z.real),
             ("cos", "imag"): lambda z: np.isnan(z.imag) and z.real == 0,
             # tanh(+-inf + iy), finite y: the array API signs the zero as y, numpy as sin 2y
             # (test_tanh_infinite_real_part); tan z = -i tanh(iz) inherits it.
             ("tanh", "imag"): lambda z: np.isinf(z.real) and np.isfinite(z.imag),
             ("tan", "real"): lambda z: np.isinf(z.imag) and np.isfinite(z.real)}


def same(got, want, ignore_sign=False):
    """Equal as C99 reads it: NaN matches NaN (of any sign), zeros and infinities exactly and
    by sign; finite nonzero values within a few ulps (their accuracy is ops_parity_test's)."""
    if np.isnan(want):
        return bool(np.isnan(got))
    if ignore_sign:
        got, want = abs(got), abs(want)
    if want == 0 or np.isinf(want):
        return got == want and np.signbit(got) == np.signbit(want)
    return abs(got - want) <= 8 * np.finfo(type(want)).eps * abs(want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("fn", ["exp", "sinh", "cosh", "tanh", "sin", "cos", "tan"])
def test_edges_match_numpy(fn, dtype):
    z = GRID.astype(dtype)
    got = getattr(vk, fn)(vk.asarray(z)).get()
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(z)
    for zi, g, w in zip(z, got, want):
        for part in ("real", "imag"):
            free = SIGN_FREE.get((fn, part), lambda _: False)(zi)
            assert same(getattr(g, part), getattr(w, part), free), (fn, zi, g, w)


# The array API 2023.12's expm1 special cases (sign-free where it writes 0 without a sign
# only for -0 + 0j, whose result it states as +0 + 0j).
EXPM1 = [
    (complex(0.0, 0.0), complex(0.0, 0.0)),
    (complex(-0.0, 0.0), complex(0.0, 0.0)),
    (complex(INF, 0.0), complex(INF, 0.0)),
    (complex(-INF, INF), complex(-1.0, 0.0)),
    (complex(INF, INF), complex(INF, NAN)),
    (complex(-INF, NAN), complex(-1.0, 0.0)),
    (complex(INF, NAN), complex(INF, NAN)),
    (complex(NAN, 0.0), complex(NAN, 0.0)),
    (complex(2.0, INF), complex(NAN, NAN)),
    (complex(2.0, NAN), complex(NAN, NAN)),
    (complex(NAN, 2.0), complex(NAN, NAN)),
    (complex(NAN, NAN), complex(NAN, NAN)),
]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_expm1_special_cases(dtype):
    z = np.array([e[0] for e in EXPM1], dtype)
    got = vk.expm1(vk.asarray(z)).get()
    for (zi, want), g in zip(EXPM1, got):
        assert same(g.real, want.real) and same(g.imag, want.imag), (zi, g, want)
    # Finite operands keep numpy's formula.
    f = np.array([complex(0.3, -1.2), complex(-5.0, 0.5), complex(1e-8, 1e-8)], dtype)
    np.testing.assert_allclose(vk.expm1(vk.asarray(f)).get(), np.expm1(f),
                               rtol=4 * np.finfo(dtype).eps)


@pytest.mark.parametrize("fn", ["sinh", "cosh", "tanh", "exp"])
def test_real_axis_stays_real(fn):
    """An imaginary zero stays zero, signed as Annex G says, where the real part overflows
    or is infinite or NaN."""
    z = np.array([complex(800.0, 0.0), complex(-800.0, -0.0), complex(INF, 0.0),
                  complex(-INF, -0.0), complex(NAN, 0.0), complex(NAN, -0.0)])
    got = getattr(vk, fn)(vk.asarray(z)).get()
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(z)
    for zi, g, w in zip(z, got, want):
        assert same(g.real, w.real) and same(g.imag, w.imag), (fn, zi, g, w)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_tanh_infinite_real_part(dtype):
    """The array API: tanh(+inf + iy) = 1 + 0i for a positive finite y (and by symmetry the
    zero takes y's sign), whatever the sign of sin 2y."""
    for x in (INF, -INF):
        for y in (2.0, 3.144196018324722e+15, 0.5, -2.0, -0.5, 0.0, -0.0):
            got = vk.tanh(vk.asarray(np.array([complex(x, y)], dtype))).get()[0]
            assert got.real == np.sign(x) and got.imag == 0, (x, y, got)
            assert np.signbit(got.imag) == np.signbit(y), (x, y, got)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_division_is_numpys_loop_to_the_last_bit(dtype):
    """numpy's Smith division multiplies by the reciprocal of the scale (not a division)."""
    rng = np.random.default_rng(31)
    a = (rng.standard_normal(20000) + 1j * rng.standard_normal(20000)).astype(dtype)
    b = (rng.standard_normal(20000) * 3 + 1j * rng.standard_normal(20000)).astype(dtype)
    np.testing.assert_array_equal(np.asarray(vk.asarray(a) / vk.asarray(b)), a / b)
    np.testing.assert_array_equal(np.asarray(vk.asarray(a) / 3), a / 3)
    np.testing.assert_array_equal(np.asarray(vk.asarray(a) / vk.asarray(b.real.astype(dtype))),
                                  a / b.real.astype(dtype))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_division_by_complex_zero_divides_each_part(dtype):
    """numpy: (x + iy) / 0 is (x / +0, y / +0): infinities, and NaN for 0 and NaN parts (a
    real array's zero imaginary part too)."""
    a = np.array([-3, 0, 2, NAN, complex(1, -2), complex(0, INF), complex(-INF, 0)], dtype)
    with np.errstate(all="ignore"):
        want = a / np.zeros(7, dtype)
        real_want = np.array([-3.0, 0.0, 2.0]) / 0j
    got = np.asarray(vk.asarray(a) / vk.asarray(np.zeros(7, dtype)))
    real_got = np.asarray(vk.asarray(np.array([-3.0, 0.0, 2.0])) / 0j)
    for g, w in [(got, want), (real_got, real_want)]:
        np.testing.assert_array_equal(g.real, w.real)
        np.testing.assert_array_equal(g.imag, w.imag)
