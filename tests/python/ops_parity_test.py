"""Every elementwise op of ops.def × every dtype it accepts, against numpy on the same values,
with each dtype's edge values (0, -0.0, ±inf, nan, integer min/max). Exact where IEEE or numpy
defines one answer; elsewhere within the documented bound, in ulps against a more precise
reference (docs/accuracy.md)."""

import warnings
import zlib

import numpy as np
import pytest

import vkarray as vk
from parity import (DTYPES, accepts, edge_values, flush_subnormals, flushed_matches,
                    may_flush_subnormals, op_table, random_values, ulp_error)

OPS = op_table()
UNARY = [(n, k, npn) for n, a, k, npn in OPS if a == 1]
BINARY = [(n, k, npn) for n, a, k, npn in OPS if a == 2]

# Ops computed within an ulp bound: correctly rounded in IEEE, where a GPU may be off by this
# many ulps (issue: <= 2 for basic ops), and the transcendental ones (TRANSCENDENTAL_ULPS).
BASIC = {"divide": 2, "reciprocal": 2, "sqrt": 2, "floor_divide": 2, "remainder": 2}
TRANSCENDENTAL = {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
                  "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
                  "arctanh", "power", "arctan2", "hypot"}
# Every other op's real results must be bit-identical to numpy's (a new row is exact until it
# is named above).
EXACT = {n for n, _, _, _ in OPS} - set(BASIC) - TRANSCENDENTAL
TRANSCENDENTAL_ULPS = 4  # the TRANSCENDENTAL ops


def golden_table():
    """numpy 2's answers, generated with numpy 2 (tests/ir/gen_promotion_table.py):
    {("pair", a, b): dtype, ("unary", numpy_name, a): dtype, ("binary", numpy_name, a): ...}.
    Result dtypes are checked against it, not against Debian's numpy 1.24, whose legacy rules
    differ (floor of an integer array is a float there, an integer in numpy 2)."""
    path = __import__("parity").ROOT / "tests" / "ir" / "testdata" / "promotion_table.txt"
    table = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] in ("pair", "unary", "binary"):
            table[tuple(parts[:3])] = parts[3]
    return table


GOLDEN = golden_table()


def seed(name, dtype):
    """A seed stable across processes (Python's hash() is randomized per process)."""
    return zlib.crc32(f"{name}/{np.dtype(dtype).name}".encode())


def np_func(numpy_name):
    return getattr(np, numpy_name)


NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def _numpy2_complex_sign(z):
    """numpy 2's sign of complex z: z / |z| (numpy 1: the sign of the real part, or of the
    imaginary part when the real part is 0). For an infinite |z|, the unit vector along the
    infinite part (NaN when both parts are infinite); 0 for 0; NaN when |z| is NaN."""
    a = np.hypot(z.real, z.imag)
    with np.errstate(all="ignore"):
        out = (z.real / a + 1j * (z.imag / a)).astype(z.dtype)
    inf_re = np.isinf(z.real) & ~np.isinf(z.imag)
    inf_im = np.isinf(z.imag) & ~np.isinf(z.real)
    out[inf_re] = np.where(z.real[inf_re] > 0, 1, -1)
    out[inf_im] = 1j * np.where(z.imag[inf_im] > 0, 1, -1)
    out[np.isinf(z.real) & np.isinf(z.imag)] = complex(np.nan, np.nan)
    out[np.isnan(a)] = complex(np.nan, np.nan)
    out[a == 0] = 0
    return out


def reference(numpy_name, *args):
    """numpy's answer; on numpy 1.x, numpy 2's where the two differ (the golden table's dtypes
    are numpy 2's): floor/ceil/trunc of integers are the identity (numpy 1 computes them in
    float64, which loses the low bits of 64-bit integers), and complex sign is z / |z|.
    Complex abs is numpy's hypot(re, im), which is what numpy.abs gives on a host without
    AVX512F: numpy's AVX512F loop (and numpy 2's SIMD loops) compute larger * sqrt(1 + r^2)
    instead, an ulp away in about a third of the cases, so numpy.abs itself depends on the host's
    CPU, and vkarray follows hypot (docs/accuracy.md)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if numpy_name == "absolute" and args[0].dtype.kind == "c":
            return np.hypot(args[0].real, args[0].imag)
        if not NUMPY2 and numpy_name in ("floor", "ceil", "trunc") and args[0].dtype.kind in "biu":
            return args[0].copy()
        if not NUMPY2 and numpy_name == "sign" and args[0].dtype.kind == "c":
            return _numpy2_complex_sign(args[0])
        return np_func(numpy_name)(*args)


def precise_reference(numpy_name, args, result_dtype):
    """The op on longdouble (float64 results) or float64 (narrower results) inputs: the
    inputs numpy computes on, i.e. integers converted to the result dtype first (numpy's
    sin of an int64 is sin of its nearest float64, not of the integer)."""
    wide = np.longdouble if np.dtype(result_dtype) == np.float64 else np.float64
    return reference(numpy_name, *[a.astype(result_dtype).astype(wide) for a in args])


def unary_inputs(dtype, rng):
    return np.concatenate([edge_values(dtype), random_values(dtype, 64, rng)])


def binary_inputs(dtype, name, rng):
    e = edge_values(dtype)
    x, y = np.repeat(e, len(e)), np.tile(e, len(e))
    rx, ry = random_values(dtype, 64, rng), random_values(dtype, 64, rng)
    x, y = np.concatenate([x, rx]), np.concatenate([y, ry])
    dt = np.dtype(dtype)
    if name in ("left_shift", "right_shift") and dt.kind in "iu":
        bits = dt.itemsize * 8
        y = (np.abs(y.astype(np.int64)) % (bits + 3)).astype(dt)  # counts 0 .. bits + 2
    if name == "power" and dt.kind in "iu":
        y = (np.abs(y.astype(np.int64)) % 70).astype(dt)  # numpy rejects negative exponents
    if name == "ldexp":  # numpy's exponent is an integer: around every range boundary
        edges = np.array([0, 1, -1, 14, -14, 24, -25, 126, -126, -149, -150, 1023, -1022,
                          -1074, -1075, 5000, -5000, 2**31 - 1, -2**31], np.int64)
        y = np.concatenate([edges, rng.integers(-1100, 1100, x.size - edges.size)])
        y = y.astype(np.int32 if dt.itemsize <= 4 else np.int64)
    return x, y


def check(name, numpy_name, args, got):
    ref = np.asarray(reference(numpy_name, *args))
    # A device that may flush subnormals (docs/accuracy.md) may give numpy's value or its
    # flushed form; elements are checked against both. (No test input is itself subnormal.)
    if got.dtype.kind in "fc" and may_flush_subnormals(got.dtype):
        flushed = flush_subnormals(ref, got.dtype)
        differ = np.nonzero(~((flushed == ref) | (np.isnan(flushed) & np.isnan(ref))))[0]
        keep = np.ones(got.shape, bool)
        keep[differ[flushed_matches(got[differ], flushed[differ])]] = False
        args, got, ref = [a[keep] for a in args], got[keep], ref[keep]
    key = ("unary" if len(args) == 1 else "binary", numpy_name, args[0].dtype.name)
    expected_dtype = np.dtype(GOLDEN[key]) if key in GOLDEN else ref.dtype
    assert got.dtype == expected_dtype, f"{name}: dtype {got.dtype}, numpy 2 {expected_dtype}"
    assert got.shape == ref.shape
    kind = got.dtype.kind
    if kind in "biu":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ref.astype(got.dtype)
        bad = np.nonzero(got != want)[0]
        assert bad.size == 0, _report(name, args, got, want, bad)
        return
    if kind == "c":
        _check_complex(name, numpy_name, args, got, ref)
        return
    if name in EXACT:
        both_nan = np.isnan(got) & np.isnan(ref)
        same = (got == ref) & (np.signbit(got) == np.signbit(ref.astype(got.dtype)))
        bad = np.nonzero(~(same | both_nan))[0]
        assert bad.size == 0, _report(name, args, got, ref, bad)
        return
    precise = precise_reference(numpy_name, args, got.dtype)
    err = ulp_error(got, precise, got.dtype)
    bound = BASIC.get(name, TRANSCENDENTAL_ULPS)
    bad = np.nonzero(err > bound)[0]
    assert bad.size == 0, _report(name, args, got, precise, bad, err)


def _check_complex(name, numpy_name, args, got, ref):
    """Exact ops exactly; others relative to |ref| on finite values (numpy's C99 special
    values for complex transcendentals are not matched yet: docs/accuracy.md)."""
    if name in EXACT:
        same = (got == ref) | (np.isnan(got) & np.isnan(ref))
        bad = np.nonzero(~same)[0]
        assert bad.size == 0, _report(name, args, got, ref, bad)
        return
    finite_in = np.all([np.isfinite(a) for a in args], axis=0)
    ok = finite_in & np.isfinite(ref)
    eps = np.finfo(got.real.dtype).eps
    with np.errstate(all="ignore"):
        rel = np.abs(got - ref) / np.maximum(np.abs(ref), np.finfo(got.real.dtype).tiny)
    bad = np.nonzero(ok & ~(rel <= 8 * eps))[0]
    assert bad.size == 0, _report(name, args, got, ref, bad)


def _report(name, args, got, want, bad, err=None):
    lines = [f"{name}: {bad.size} of {got.size} elements differ; first ones:"]
    for i in bad[:8]:
        ins = ", ".join(repr(a[i]) for a in args)
        e = f" ({err[i]:.3g} ulp)" if err is not None else ""
        lines.append(f"  {name}({ins}) = {got[i]!r}, expected {want[i]!r}{e}")
    return "\n".join(lines)


def vk_call(name, numpy_name, *args):
    fn = getattr(vk, name, None) or getattr(vk, numpy_name)
    return np.asarray(fn(*[vk.asarray(a) for a in args]))


@pytest.mark.parametrize("name,kinds,numpy_name",
                         UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("dtype", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
def test_unary(name, kinds, numpy_name, dtype):
    if not accepts(kinds, dtype):
        with pytest.raises(TypeError, match=name):
            getattr(vk, name)(vk.asarray(edge_values(dtype)))
        return
    x = unary_inputs(dtype, np.random.default_rng(seed(name, dtype)))
    check(name, numpy_name, [x], vk_call(name, numpy_name, x))


@pytest.mark.parametrize("name,kinds,numpy_name",
                         BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("dtype", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
def test_binary(name, kinds, numpy_name, dtype):
    rng = np.random.default_rng(seed(name, dtype))
    if not accepts(kinds, dtype):
        e = vk.asarray(edge_values(dtype))
        with pytest.raises(TypeError, match=name):
            getattr(vk, name)(e, e)
        return
    x, y = binary_inputs(dtype, name, rng)
    if name == "power" and np.dtype(dtype).kind == "c":
        x, y = _well_conditioned_power(x, y)
    check(name, numpy_name, [x, y], vk_call(name, numpy_name, x, y))


# Complex power beyond |y log x| = 4 is compared with the exact value, not with numpy:
# numpy's cpow (glibc's e^(y log x)) is itself off by up to about |y log x| eps there (400 eps
# at |y log x| = 400), as any working-precision algorithm is, so no other implementation
# can agree with it to 8 eps (docs/accuracy.md).
COMPLEX_POWER_MAX_W = 4.0


def _power_w(x, y):
    wide = np.clongdouble if x.dtype == np.complex128 else np.complex128
    with np.errstate(all="ignore"):
        return np.abs(y.astype(wide) * np.log(x.astype(wide)))


def _well_conditioned_power(x, y):
    keep = ~(_power_w(x, y) > COMPLEX_POWER_MAX_W)  # NaN (special values) stays
    return x[keep], y[keep]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=["complex64", "complex128"])
def test_complex_power_ill_conditioned(dtype):
    """Outside the domain of test_binary's power: within (|y log x| + 8) eps of the exact
    value wherever that is finite and nonzero (numpy: up to about |y log x| eps)."""
    rng = np.random.default_rng(seed("power", dtype))
    x, y = binary_inputs(dtype, "power", rng)
    w = _power_w(x, y)
    far = w > COMPLEX_POWER_MAX_W
    far &= np.isfinite(x) & np.isfinite(y) & np.isfinite(w)
    x, y, w = x[far], y[far], w[far]
    wide = np.clongdouble if np.dtype(dtype) == np.complex128 else np.complex128
    with np.errstate(all="ignore"):
        exact = np.power(x.astype(wide), y.astype(wide))
    got = np.asarray(vk.power(vk.asarray(x), vk.asarray(y)))
    finfo = np.finfo(np.dtype(dtype).char.lower())
    ok = np.isfinite(exact) & (np.abs(exact) > finfo.tiny) & (np.abs(exact) < finfo.max)
    assert ok.sum() > 100
    with np.errstate(all="ignore"):
        rel = np.abs(got - exact) / np.abs(exact)
    bad = np.nonzero(ok & ~(rel <= (w + 8) * finfo.eps))[0]
    assert bad.size == 0, _report("power", [x, y], got, exact, bad)


@pytest.mark.parametrize("dtype", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
def test_where(dtype):
    rng = np.random.default_rng(7)
    x = unary_inputs(dtype, rng)
    y = unary_inputs(dtype, rng)[::-1].copy()
    cond = rng.random(x.size) < 0.5
    got = np.asarray(vk.where(vk.asarray(cond), vk.asarray(x), vk.asarray(y)))
    want = np.where(cond, x, y)
    assert got.dtype == want.dtype
    assert np.array_equal(got, want, equal_nan=np.dtype(dtype).kind in "fc")


@pytest.mark.parametrize("src", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
def test_astype_every_pair(src):
    """Every conversion, on values numpy defines (float → int only where the value fits)."""
    rng = np.random.default_rng(11)
    base = np.concatenate([edge_values(src), random_values(src, 64, rng)])
    a = vk.asarray(base)
    for dst in DTYPES:
        x = base
        if np.dtype(src).kind in "fc" and np.dtype(dst).kind in "iu":
            info = np.iinfo(dst)
            r = x.real if np.dtype(src).kind == "c" else x
            keep = np.isfinite(r) & (r >= info.min) & (r <= info.max) & (np.abs(r) < 2.0**62)
            x = x[keep]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = x.astype(dst)
        got = np.asarray(vk.asarray(x).astype(dst))
        assert got.dtype == np.dtype(dst)
        same = got == want
        if np.dtype(dst).kind in "fc":
            same |= np.isnan(got) & np.isnan(want)
        bad = np.nonzero(~same)[0]
        assert bad.size == 0, _report(f"astype({np.dtype(dst).name})", [x], got, want, bad)
    assert a.dtype == np.dtype(src)


def test_float64_to_float16_rounds_once():
    """Just above and below the midpoints of adjacent float16s: float32 holds only the
    midpoint, so converting through float32 rounds the wrong way half the time."""
    rng = np.random.default_rng(12)
    h = np.unique(np.abs(rng.standard_normal(4000) * 10.0 ** rng.integers(-7, 5, 4000))
                  .astype(np.float16))
    h = h[np.isfinite(h) & (h < np.float16(65504))]
    mid = (h.astype(np.float64) + np.nextafter(h, np.float16(np.inf)).astype(np.float64)) / 2
    x = np.concatenate([mid * (1 + 2.0**-40), mid * (1 - 2.0**-40), -mid * (1 + 2.0**-40),
                        mid, [65519.99, 65520.0, 1e300, 2.0**-25, 2.0**-25 * (1 + 2.0**-40)]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = x.astype(np.float16)
    got = np.asarray(vk.asarray(x).astype(vk.float16))
    bad = np.nonzero(got != want)[0]
    assert bad.size == 0, _report("astype(float16)", [x], got, want, bad)
    z = (x + 1j).astype(np.complex128)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(np.asarray(vk.asarray(z).astype(vk.float16)),
                                      z.astype(np.float16))


@pytest.mark.parametrize("a", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
def test_mixed_dtype_add_promotes_as_numpy2(a):
    rng = np.random.default_rng(3)
    x = random_values(a, 32, rng, -50, 50)
    for b in DTYPES:
        y = random_values(b, 32, rng, -50, 50)
        want_dtype = np.dtype(GOLDEN[("pair", np.dtype(a).name, np.dtype(b).name)])
        got = np.asarray(vk.asarray(x) + vk.asarray(y))
        assert got.dtype == want_dtype, f"{np.dtype(a).name} + {np.dtype(b).name}"
        with np.errstate(all="ignore"):
            want = x.astype(want_dtype) + y.astype(want_dtype)
        assert np.array_equal(got, want), f"{np.dtype(a).name} + {np.dtype(b).name}"


@pytest.mark.parametrize("shapes", [((), (5,)), ((3, 1), (1, 4)), ((2, 3, 4), (4,)),
                                    ((1,), (2, 1, 3)), ((0, 3), (3,)), ((4, 1, 2), (3, 1))])
def test_broadcasting(shapes):
    rng = np.random.default_rng(5)
    x = rng.standard_normal(shapes[0]).astype(np.float32)
    y = rng.standard_normal(shapes[1]).astype(np.float32)
    got = np.asarray(vk.asarray(x) * vk.asarray(y) - vk.asarray(y))
    want = x * y - y
    assert got.shape == want.shape
    assert np.array_equal(got, want)
