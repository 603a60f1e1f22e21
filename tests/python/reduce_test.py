"""Reductions against numpy: every reduction × every dtype × axis sets × keepdims, empty
inputs, NaN placement, ties, where=/initial=/dtype=/out=, and sizes that are not powers of two."""

import warnings

import numpy as np
import pytest

import vkarray as vk

from parity import DTYPES

RNG = np.random.default_rng(5)

# Axis sets over a (3, 4, 5) input: none, each axis, negative, pairs, all as a tuple.
AXES = [None, 0, 1, 2, -1, (0, 2), (1, 2), (0, 1, 2)]


def sample(dtype, shape, low=-3, high=4):
    """Small integers (exact sums and products in every dtype) in `dtype`."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return RNG.integers(0, 2, shape).astype(dt)
    if dt.kind == "u":
        low = 0
    x = RNG.integers(low, high, shape)
    if dt.kind == "c":
        return (x + 1j * RNG.integers(low, high, shape)).astype(dt)
    return x.astype(dt)


def tolerance(dtype, n):
    """Floating results: a few ulps of the result dtype per log2 of the elements combined."""
    dt = np.dtype(dtype)
    if dt.kind not in "fc":
        return 0
    eps = np.finfo(dt).eps
    return 4 * eps * max(1, int(np.log2(max(n, 2))))


def check(got, want, n=1, exact=False):
    got = got.get() if isinstance(got, vk.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    tol = 0 if exact else tolerance(want.dtype, n)
    if tol == 0:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def reduced_count(shape, axis):
    if axis is None:
        return int(np.prod(shape))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return int(np.prod([shape[a] for a in axes]))


SUM_LIKE = ["sum", "prod", "nansum", "nanprod"]
EXTREMES = ["max", "min", "nanmax", "nanmin", "ptp"]
MEANS = ["mean", "nanmean", "var", "std", "nanvar", "nanstd"]
TRUTH = ["any", "all"]


def supported(name, dtype):
    kind = np.dtype(dtype).kind
    if name == "ptp" and kind == "b":
        return False
    return True


@pytest.mark.parametrize("name", SUM_LIKE + EXTREMES + MEANS + TRUTH)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_reduction_every_dtype_every_axis_set(name, dtype):
    shape = (3, 4, 5)
    x = sample(dtype, shape, -2, 3) if name in ("prod", "nanprod") else sample(dtype, shape)
    xv = vk.asarray(x)
    if not supported(name, dtype):
        with pytest.raises(TypeError, match=name):
            getattr(vk, name)(xv)
        return
    for i, axis in enumerate(AXES):
        keepdims = i % 2 == 1
        want = getattr(np, name)(x, axis=axis, keepdims=keepdims)
        got = getattr(vk, name)(xv, axis=axis, keepdims=keepdims)
        check(got, want, reduced_count(shape, axis))


@pytest.mark.parametrize("name", ["argmax", "argmin", "nanargmax", "nanargmin"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_arg_reductions_take_the_first_of_ties(name, dtype):
    x = sample(dtype, (6, 7), -1, 2)  # few distinct values: many ties
    xv = vk.asarray(x)
    if not supported(name, dtype):
        with pytest.raises(TypeError, match=name):
            getattr(vk, name)(xv)
        return
    for axis, keepdims in [(None, False), (0, False), (1, True), (-1, False), (None, True)]:
        want = getattr(np, name)(x, axis=axis, keepdims=keepdims)
        check(getattr(vk, name)(xv, axis=axis, keepdims=keepdims), want, exact=True)


@pytest.mark.parametrize("n", [1, 7, 1000, 4097, 1000003])
def test_sizes_that_are_not_powers_of_two(n):
    x = RNG.standard_normal(n).astype(np.float32)
    xv = vk.asarray(x)
    exact = np.sum(x.astype(np.float64))
    got = float(vk.sum(xv))
    assert abs(got - exact) <= 4 * np.finfo(np.float32).eps * np.sum(np.abs(x)) + 1e-30
    assert int(vk.argmax(xv)) == int(np.argmax(x))
    assert float(vk.max(xv)) == float(np.max(x))
    assert float(vk.min(xv)) == float(np.min(x))
    i = RNG.integers(-50, 50, n).astype(np.int32)
    assert int(vk.sum(vk.asarray(i))) == int(np.sum(i))
    m = x.reshape(1, n) if n % 7 else x.reshape(7, n // 7)
    check(vk.sum(vk.asarray(m), axis=0), m.sum(axis=0), m.shape[0])
    check(vk.sum(vk.asarray(m), axis=1), m.sum(axis=1), m.shape[1])


def test_float32_sum_is_at_least_as_accurate_as_numpys_pairwise_sum():
    n = 2**26 + 1
    x = RNG.random(n, dtype=np.float32)
    exact = np.sum(x, dtype=np.float64)  # error ~1e-16 relative: exact at float32's scale
    ours = float(vk.sum(vk.asarray(x)))
    numpys = float(np.sum(x))
    ulp = float(np.spacing(np.float32(exact)))
    assert abs(ours - exact) <= max(abs(numpys - exact), ulp), (ours, numpys, exact)


def test_float16_sums_accumulate_in_float32():
    x = np.full(4096, 0.1, dtype=np.float16)  # a float16 accumulator would stall at 256
    got = vk.sum(vk.asarray(x))
    assert got.dtype == np.float16
    assert float(got) == float(np.sum(x))


def test_integer_sums_accumulate_in_64_bits_and_wrap_as_numpy():
    x = np.full(1000, 127, dtype=np.int8)
    check(vk.sum(vk.asarray(x)), np.sum(x), exact=True)
    check(vk.sum(vk.asarray(x), dtype=np.int8), np.sum(x, dtype=np.int8), exact=True)
    big = np.array([2**62, 2**62, 2**62], dtype=np.int64)
    check(vk.sum(vk.asarray(big)), np.sum(big), exact=True)
    u = np.array([255, 255], dtype=np.uint8)
    check(vk.sum(vk.asarray(u)), np.sum(u), exact=True)


@pytest.mark.parametrize("name", ["max", "amax", "min", "amin", "nanmax", "nanmin", "ptp",
                                  "all", "any", "sum", "prod"])
def test_positional_arguments_follow_numpys_signature(name):
    """max/min/ptp and all/any take (a, axis, out, keepdims): no dtype between axis and out
    (but numpy's all/any methods do take one, as sum's)."""
    x = np.arange(12, dtype=np.int32).reshape(3, 4) % 5
    want_out = np.empty((1, 4), getattr(np, name)(x, 0).dtype)
    got_out = vk.empty((1, 4), dtype=want_out.dtype)
    args = (None,) if name in ("sum", "prod") else ()  # their dtype
    want = getattr(np, name)(x, 0, *args, want_out, True)
    got = getattr(vk, name)(vk.asarray(x), 0, *args, got_out, True)
    assert got is got_out
    check(got, want, exact=True)
    if hasattr(x, name):  # the ndarray method too
        margs = (None,) if name in ("sum", "prod", "all", "any") else ()
        check(getattr(vk.asarray(x), name)(1, *margs, None, True),
              getattr(x, name)(1, *margs, None, True), exact=True)
    if name in ("all", "any", "ptp"):
        with pytest.raises(TypeError):
            getattr(vk, name)(vk.asarray(x), 0, dtype=np.int64)


class TestEmpty:
    @pytest.mark.parametrize("shape,axis", [((0,), None), ((3, 0), 1), ((0, 3), 0),
                                            ((0, 3), 1), ((2, 0, 3), (0, 2))])
    def test_identities(self, shape, axis):
        x = np.zeros(shape, np.float32)
        xv = vk.asarray(x)
        for name in ["sum", "prod", "any", "all", "nansum", "count_nonzero"]:
            check(getattr(vk, name)(xv, axis=axis), getattr(np, name)(x, axis=axis))
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.mean(x, axis=axis)
        check(vk.mean(xv, axis=axis), want)

    @pytest.mark.parametrize("name,text", [("max", "maximum"), ("min", "minimum"),
                                           ("ptp", "maximum"), ("argmax", "argmax"),
                                           ("argmin", "argmin")])
    def test_no_identity_is_a_value_error(self, name, text):
        with pytest.raises(ValueError, match=text):
            getattr(np, name)(np.zeros((0, 3)), axis=0)
        with pytest.raises(ValueError, match=text):
            getattr(vk, name)(vk.zeros((0, 3)), axis=0)
        # an empty result over a non-empty reduction is fine, as in numpy
        check(getattr(vk, name)(vk.zeros((0, 3)), axis=1), getattr(np, name)(np.zeros((0, 3)), axis=1))

    def test_initial_gives_empty_max_a_value(self):
        check(vk.max(vk.zeros((0, 3)), axis=0, initial=-5.0),
              np.max(np.zeros((0, 3)), axis=0, initial=-5.0))


class TestNaN:
    x = np.array([[1.0, np.nan, 3.0, np.nan], [np.nan, np.nan, np.nan, np.nan],
                  [2.0, -1.0, np.inf, -np.inf]])

    def test_propagating_and_ignoring_forms(self):
        xv = vk.asarray(self.x)
        for name in ["max", "min", "sum", "prod", "mean", "argmax", "argmin"]:
            for axis in [None, 0, 1]:
                check(getattr(vk, name)(xv, axis=axis), getattr(np, name)(self.x, axis=axis))
        with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
            for name in ["nanmax", "nanmin", "nanmean", "nanvar", "nanstd"]:
                check(getattr(vk, name)(xv, axis=1), getattr(np, name)(self.x, axis=1))
        for name in ["nansum", "nanprod"]:
            check(getattr(vk, name)(xv, axis=1), getattr(np, name)(self.x, axis=1))

    def test_nanargmax_of_an_all_nan_slice_raises(self):
        xv = vk.asarray(self.x)
        check(vk.nanargmax(xv, axis=0), np.nanargmax(self.x, axis=0))
        with pytest.raises(ValueError, match="All-NaN slice"):
            vk.nanargmax(xv, axis=1)

    def test_infinite_sums(self):
        x = np.array([1.0, np.inf, 2.0], np.float32)
        check(vk.sum(vk.asarray(x)), np.sum(x))
        y = np.array([np.inf, -np.inf], np.float32)
        check(vk.sum(vk.asarray(y)), np.sum(y))
        z = np.array([3e38, 3e38, -3e38], np.float32)
        with np.errstate(over="ignore"):
            check(vk.sum(vk.asarray(z)), np.sum(z))


class TestKeywords:
    x = np.arange(24, dtype=np.float64).reshape(2, 3, 4) - 7

    def test_where_and_initial(self):
        xv = vk.asarray(self.x)
        mask = (self.x.astype(np.int64) % 3) != 0
        for name in ["sum", "prod", "mean", "var", "std", "any", "all", "nansum"]:
            check(getattr(vk, name)(xv, axis=1, where=mask),
                  getattr(np, name)(self.x, axis=1, where=mask), 4)
        check(vk.max(xv, axis=2, where=mask, initial=-100.0),
              np.max(self.x, axis=2, where=mask, initial=-100.0))
        check(vk.sum(xv, axis=0, initial=10), np.sum(self.x, axis=0, initial=10))
        check(vk.min(xv, initial=-50), np.min(self.x, initial=-50))
        with pytest.raises(ValueError, match="initial"):
            vk.max(xv, where=mask)

    def test_dtype_and_out(self):
        xi = np.arange(10, dtype=np.int16)
        check(vk.sum(vk.asarray(xi), dtype=np.float32), np.sum(xi, dtype=np.float32))
        check(vk.mean(vk.asarray(xi), dtype=np.float32), np.mean(xi, dtype=np.float32))
        out = vk.zeros(3)
        r = vk.sum(vk.asarray(self.x), axis=(0, 2), out=out)
        assert r is out
        check(out, np.sum(self.x, axis=(0, 2)))

    def test_var_ddof_and_complex(self):
        z = (RNG.standard_normal((5, 6)) + 1j * RNG.standard_normal((5, 6))).astype(np.complex64)
        for ddof in [0, 1, 2]:
            check(vk.var(vk.asarray(z), axis=1, ddof=ddof), np.var(z, axis=1, ddof=ddof), 6)
            check(vk.std(vk.asarray(self.x), ddof=ddof), np.std(self.x, ddof=ddof), 24)

    def test_methods(self):
        xv = vk.asarray(self.x)
        check(xv.sum(axis=1), self.x.sum(axis=1))
        check(xv.mean(), self.x.mean())
        check(xv.max(axis=(0, 1), keepdims=True), self.x.max(axis=(0, 1), keepdims=True))
        check(xv.argmin(axis=2), self.x.argmin(axis=2))
        check(xv.std(ddof=1), self.x.std(ddof=1), 24)
        check(xv.any(axis=0), self.x.any(axis=0))
        check(xv.prod(axis=-1), self.x.prod(axis=-1))

    def test_errors_name_the_operation(self):
        xv = vk.asarray(self.x)
        with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError):
            vk.sum(xv, axis=3)
        with pytest.raises(ValueError, match="duplicate"):
            vk.sum(xv, axis=(1, -2))
        with pytest.raises(TypeError, match="axis"):
            vk.sum(xv, axis=1.5)

    def test_count_nonzero(self):
        assert vk.count_nonzero(vk.asarray(self.x)) == np.count_nonzero(self.x)
        check(vk.count_nonzero(vk.asarray(self.x), axis=1), np.count_nonzero(self.x, axis=1))


class TestStridedInputs:
    def test_views_and_transposes(self):
        x = RNG.standard_normal((20, 30, 40)).astype(np.float32)
        xv = vk.asarray(x)
        for view, ref in [(xv[::2, 1::3, ::-1], x[::2, 1::3, ::-1]), (xv.T, x.T),
                          (vk.moveaxis(xv, 0, 2), np.moveaxis(x, 0, 2))]:
            for axis in [None, 0, 1, 2, (0, 1), (1, 2)]:
                check(vk.sum(view, axis=axis), np.sum(ref, axis=axis), 1000)
                check(vk.argmax(view, axis=axis if not isinstance(axis, tuple) else None),
                      np.argmax(ref, axis=axis if not isinstance(axis, tuple) else None))

    def test_broadcast_operands(self):
        a = RNG.standard_normal((64, 1)).astype(np.float32)
        b = RNG.standard_normal((1, 48)).astype(np.float32)
        check(vk.sum(vk.asarray(a) * vk.asarray(b), axis=0), np.sum(a * b, axis=0), 64)


class TestDotProducts:
    def test_vdot_vecdot_inner(self):
        a = RNG.standard_normal(100) + 1j * RNG.standard_normal(100)
        b = RNG.standard_normal(100) + 1j * RNG.standard_normal(100)
        check(vk.vdot(vk.asarray(a), vk.asarray(b)), np.vdot(a, b), 100)
        x = RNG.standard_normal((5, 7))
        y = RNG.standard_normal((5, 7))
        check(vk.vecdot(vk.asarray(x), vk.asarray(y)), np.sum(x * y, axis=-1), 7)
        check(vk.vecdot(vk.asarray(x), vk.asarray(y), axis=0), np.sum(x * y, axis=0), 5)
        r = RNG.integers(-5, 5, 9)
        check(vk.inner(vk.asarray(r), vk.asarray(r)), np.inner(r, r), exact=True)
        with pytest.raises(ValueError, match="vdot"):
            vk.vdot(vk.asarray(a), vk.asarray(b[:5]))


class TestFusionAndDeterminism:
    def test_fused_reductions_are_one_kernel(self):
        a = vk.asarray(RNG.standard_normal(1000))
        b = vk.asarray(RNG.standard_normal(1000))
        for expr in [lambda: vk.sum(a * b), lambda: vk.max(vk.abs(a - b)),
                     lambda: vk.sum(vk.sqrt(vk.abs(a)) * vk.exp(-b), axis=0)]:
            k0 = vk.kernel_count()
            expr().eval()
            assert vk.kernel_count() - k0 == 1
        m = vk.mean(a)
        m.eval()
        k0 = vk.kernel_count()
        r = vk.mean((a - m) ** 2)
        r.eval()
        assert vk.kernel_count() - k0 == 1
        x = vk.asarray(RNG.standard_normal((20, 30)))
        k0 = vk.kernel_count()
        y = x - x.mean(axis=1, keepdims=True)  # the means, then one elementwise kernel
        y.eval()
        assert vk.kernel_count() - k0 == 2
        np.testing.assert_allclose(y.get(), x.get() - x.get().mean(axis=1, keepdims=True),
                                   rtol=1e-12, atol=1e-12)

    def test_repeated_runs_are_bit_identical(self):
        x = (RNG.standard_normal(300001) * 1e3).astype(np.float32)
        xv = vk.asarray(x)
        m = vk.asarray(x[:300000].reshape(600, 500))
        first = [vk.sum(xv * xv).get(), vk.sum(m, axis=0).get(), vk.var(m, axis=1).get(),
                 vk.argmax(m, axis=0).get()]
        for _ in range(3):
            again = [vk.sum(xv * xv + 0).get(), vk.sum(m + 0, axis=0).get(),
                     vk.var(m + 0, axis=1).get(), vk.argmax(m + 0, axis=0).get()]
            for f, g in zip(first, again):
                assert f.tobytes() == g.tobytes()


def test_numpy_functions_dispatch_to_the_device():
    x = np.arange(24.0).reshape(2, 3, 4)
    xv = vk.asarray(x)
    for f in [np.sum, np.prod, np.mean, np.std, np.var, np.max, np.min, np.argmax, np.argmin,
              np.any, np.all, np.ptp]:
        got = f(xv, axis=1)
        assert isinstance(got, vk.ndarray), f.__name__
        check(got, f(x, axis=1), 3)
