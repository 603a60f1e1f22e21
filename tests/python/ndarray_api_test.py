"""vkarray.ndarray's Python surface: attributes, printing, every operator (plain, reflected,
in-place), weak-scalar dtypes, out= and dtype=, laziness and fusion counts, and errors.
Creation functions and conversions are in ndarray_creation_test.py.

numpy here is 1.24 (legacy value-based promotion) while vkarray follows numpy 2 (NEP 50), so
values are compared with numpy everywhere, dtypes only where both rules agree (same-dtype
array operands) or against hand-written numpy 2 expectations.
"""

import operator
import warnings

import numpy as np
import pytest

import vkarray as vk

F32_A = np.array([[-2.5, -1.0, 0.0], [0.5, 3.25, 7.0]], np.float32)
F32_B = np.array([[1.5, -4.0, 2.0], [0.25, -3.0, 6.5]], np.float32)
I32_A = np.array([[-7, -3, 0], [2, 5, 1000]], np.int32)
I32_B = np.array([[2, 3, 1], [4, 2, 3]], np.int32)  # nonzero and small: valid divisors, shifts
B_A = np.array([[True, True, False], [False, True, False]])
B_B = np.array([[True, False, True], [False, False, True]])
DATA = {"float32": (F32_A, F32_B), "int32": (I32_A, I32_B), "bool": (B_A, B_B)}

BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
    "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}
INPLACE = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
    "//": operator.ifloordiv, "%": operator.imod, "**": operator.ipow, "&": operator.iand,
    "|": operator.ior, "^": operator.ixor, "<<": operator.ilshift, ">>": operator.irshift,
}
UNARY = {"-": operator.neg, "+": operator.pos, "abs": abs, "~": operator.invert}


def numpy_or_error(fn, *args):
    """fn(*args) in numpy, or TypeError where numpy raises it; numpy 1.24's deprecations count
    as the errors numpy 2 made them (+bool_array)."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            return fn(*args)
    except (TypeError, DeprecationWarning):
        return TypeError


def check(got, want):
    """got (an ndarray) has want's dtype, shape and values (NaNs equal)."""
    assert isinstance(got, vk.ndarray), type(got)
    host = got.get()
    assert host.dtype == want.dtype and host.shape == want.shape, (host.dtype, want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(host, want, rtol=2e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(host, want)


def test_attributes(ctx1):
    data = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = vk.asarray(data, context=ctx1)
    assert (x.shape, x.ndim, x.size, x.itemsize, x.nbytes) == ((2, 3, 4), 3, 24, 2, 48)
    assert isinstance(x.dtype, np.dtype) and x.dtype == np.int16 and x.dtype == vk.int16
    assert x.context is ctx1 and str(x.device).startswith("vulkan:") and len(x) == 2
    assert isinstance(x.T, vk.ndarray) and x.T.shape == (4, 3, 2)
    np.testing.assert_array_equal(x.T.get(), data.T)
    np.testing.assert_array_equal((x.T * 2).get(), data.T * 2)  # strided view as an operand
    assert vk.asarray([1.0, 2.0]).T.shape == (2,)
    assert vk.ndarray.__module__ == "vkarray" and x.eval() is x


@pytest.mark.parametrize("data", [
    np.array([[1.5, -2.0, 1e-8], [3.0, np.nan, -np.inf]], np.float32),
    np.arange(-5, 7, dtype=np.int32).reshape(3, 4), np.array([True, False]), np.array(2.5),
    np.zeros((0, 3), np.uint8), np.arange(2000, dtype=np.float64),
    np.array([1 + 2j, -0.5j], np.complex64)], ids=lambda d: f"{d.dtype}{d.shape}")
def test_repr_str_and_format_are_numpys(data):
    x = vk.asarray(data)
    assert repr(x) == repr(data)[:-1] + f", device='{x.device}')"  # numpy's, plus the device
    assert str(x) == str(data)
    assert f"{x}" == f"{data}"
    if data.ndim == 0:
        assert f"{x:.3f}" == f"{data:.3f}" == "2.500"


@pytest.mark.parametrize("dtype", DATA)
@pytest.mark.parametrize("sym", BINARY)
def test_binary_operators_and_reflected_forms(sym, dtype):
    fn = BINARY[sym]
    a, b = DATA[dtype]
    va, vb = vk.asarray(a), vk.asarray(b)
    want = numpy_or_error(fn, a, b)
    if want is TypeError:  # e.g. bool - bool, bool / bool are errors in numpy too
        with pytest.raises(TypeError):
            fn(va, vb)
        return
    check(fn(va, vb), want)
    # A numpy array on either side is a strong operand (the left one via __array_ufunc__).
    check(fn(a, vb), want)
    check(fn(va, b), want)
    # A Python scalar on the left is weak: numpy 1.24's value-based rule agrees for these.
    scalar = {"float32": 2.0, "int32": 3, "bool": True}[dtype]
    want = numpy_or_error(fn, scalar, b)
    if want is TypeError:
        with pytest.raises(TypeError):
            fn(scalar, vb)
    else:
        check(fn(scalar, vb), np.asarray(want))


@pytest.mark.parametrize("dtype", DATA)
@pytest.mark.parametrize("sym", INPLACE)
def test_inplace_operators_mutate_every_name(sym, dtype):
    fn = INPLACE[sym]
    a, b = DATA[dtype]
    want = numpy_or_error(fn, a.copy(), b)
    x = vk.asarray(a)
    alias = x
    if want is TypeError:
        with pytest.raises(TypeError):
            fn(x, vk.asarray(b))
        check(alias, a)  # unchanged after the error
        return
    result = fn(x, vk.asarray(b))
    assert result is x and alias is x
    check(alias, want)


@pytest.mark.parametrize("dtype", DATA)
@pytest.mark.parametrize("sym", UNARY)
def test_unary_operators(sym, dtype):
    a = DATA[dtype][0]
    want = numpy_or_error(UNARY[sym], a)
    if want is TypeError:  # -bool, ~float32
        with pytest.raises(TypeError):
            UNARY[sym](vk.asarray(a))
    else:
        check(UNARY[sym](vk.asarray(a)), want)


def test_pow_with_modulus_and_divmod():
    x = vk.asarray(I32_A)
    with pytest.raises(TypeError):
        pow(x, 2, 5)
    q, r = divmod(x, vk.asarray(I32_B))
    check(q, I32_A // I32_B)
    check(r, I32_A % I32_B)
    q, r = divmod(7, vk.asarray(I32_B))
    check(q, 7 // I32_B)
    check(r, 7 % I32_B)


def test_inplace_with_scalars_and_broadcasting():
    x = vk.asarray(F32_A)
    y = x
    x *= 2.0  # weak: stays float32
    x -= np.float32(1)
    x += vk.asarray(np.array([1, 2, 3], np.float32))  # broadcast over rows
    assert y is x and x.dtype == np.float32
    check(y, F32_A * 2 - 1 + np.array([1, 2, 3], np.float32))
    before = x.get()
    with pytest.raises(ValueError, match=r"non-broadcastable output operand with shape \(2, 3\) "
                                         r"doesn't match the broadcast shape \(4, 2, 3\)"):
        x += vk.zeros((4, 2, 3), vk.float32)
    np.testing.assert_array_equal(x.get(), before)


def test_inplace_same_kind_casting_error_leaves_array_unchanged():
    x = vk.asarray(np.array([1, 2, 3], np.int32))
    with pytest.raises(TypeError, match=r"\[add\] Cannot cast ufunc 'add' output from "
                                        r"dtype\('float64'\) to dtype\('int32'\) with casting "
                                        r"rule 'same_kind'"):
        x += 1.5
    with pytest.raises(TypeError, match=r"ufunc 'divide' output from dtype\('float64'\)"):
        x /= 2
    with pytest.raises(TypeError, match=r"ufunc 'multiply' output from dtype\('float64'\) to "
                                        r"dtype\('int32'\)"):
        x *= vk.ones(3, vk.float32)
    check(x, np.array([1, 2, 3], np.int32))
    f = vk.ones(3, vk.float32)
    f += vk.ones(3, vk.float64)  # float64 → float32 is same_kind: allowed, as numpy
    check(f, np.full(3, 2, np.float32))


def test_copies_are_independent():
    x = vk.asarray(np.arange(4.0))
    c = x.copy()
    x += 1
    check(c, np.arange(4.0))
    check(x, np.arange(4.0) + 1)


@pytest.mark.parametrize("expr, dtype", [
    (lambda: vk.ones(3, vk.float32) * 2.0, np.float32),
    (lambda: 2.0 * vk.ones(3, vk.float32), np.float32),
    (lambda: vk.ones(3, vk.int8) + 1, np.int8),
    (lambda: vk.ones(3, vk.uint8) * 200, np.uint8),
    (lambda: vk.ones(3, vk.int16) + 1.5, np.float64),
    (lambda: vk.ones(3, vk.float32) + 1j, np.complex64),
    (lambda: vk.ones(3, vk.bool_) + 1, np.int64),
    (lambda: vk.ones(3, vk.int8) + np.float32(2), np.float32),  # numpy scalars are strong
    (lambda: vk.ones(3, vk.float32) * np.float64(2), np.float64),
    (lambda: vk.ones(3, vk.float32) * np.array(2.0), np.float64),
    (lambda: vk.ones(3, vk.uint64) + (2**63 + 1), np.uint64),
    (lambda: vk.ones(3, vk.int8) == 300, np.bool_),
    (lambda: vk.ones(3, vk.int32) / 2, np.float64),
    (lambda: np.float32(2) * vk.ones(3, vk.int8), np.float32),  # via __array_ufunc__
], ids=range(14))
def test_weak_scalar_result_dtypes(expr, dtype):
    assert expr().dtype == dtype


def test_weak_scalar_values_and_bounds():
    x = vk.asarray(np.array([1, -1, 100], np.int8))
    np.testing.assert_array_equal((x == 300).get(), [False] * 3)  # exact, as numpy 2
    np.testing.assert_array_equal((x < 300).get(), [True] * 3)
    check(vk.ones(2, vk.uint8) * 200 + 100, np.array([44, 44], np.uint8))  # wraps like numpy
    # numpy 2 raises OverflowError.
    with pytest.raises(OverflowError, match=r"\[add\] Python integer 300 out of bounds for int8"):
        x + 300
    with pytest.raises(OverflowError, match=r"out of bounds for uint8"):
        vk.ones(2, vk.uint8) - (-1)
    with pytest.raises(OverflowError, match=r"\[add\] Python integer 36893488147419103232 is out "
                                            r"of bounds for int64 and uint64"):
        vk.ones(2, vk.float64) + 2**65


def test_result_type_and_can_cast():
    assert vk.result_type(vk.ones(2, vk.float32), 2.0) == np.float32
    assert vk.result_type(vk.int8, vk.int16) == np.int16
    assert vk.result_type(vk.uint64, vk.int64) == np.float64
    assert vk.result_type(np.ones(2, np.int8), 1) == np.int8
    assert vk.result_type(1, 2.0) == np.float64
    assert vk.can_cast(vk.int8, vk.int16) and not vk.can_cast(vk.float64, vk.float32)
    assert vk.can_cast(vk.float64, vk.float32, "same_kind")
    assert not vk.can_cast(vk.ones(2), vk.int64, "same_kind")
    with pytest.raises(TypeError, match="Python scalars"):
        vk.can_cast(1.0, vk.float32)


def test_ufunc_functions_out_and_dtype():
    a, b = vk.asarray(F32_A), vk.asarray(F32_B)
    out = vk.empty((2, 3), vk.float32)
    alias = out
    assert vk.add(a, b, out=out) is out and alias is out
    check(alias, F32_A + F32_B)
    wider = vk.zeros((2, 3), vk.float64)
    assert vk.multiply(a, b, out=(wider,)) is wider  # numpy's tuple form
    check(wider, (F32_A * F32_B).astype(np.float64))
    assert np.multiply(a, b, out=wider) is wider  # numpy's ufunc routed to vkarray
    ints = vk.zeros((2, 3), vk.int32)
    with pytest.raises(TypeError, match=r"\[add\] Cannot cast ufunc 'add' output from "
                                        r"dtype\('float32'\) to dtype\('int32'\)"):
        vk.add(a, b, out=ints)
    check(ints, np.zeros((2, 3), np.int32))
    with pytest.raises(ValueError, match=r"non-broadcastable output operand with shape \(3,\)"):
        vk.add(a, b, out=vk.zeros(3, vk.float32))
    with pytest.raises(TypeError, match=r"out= must be a vkarray.ndarray"):
        vk.add(a, b, out=np.zeros((2, 3), np.float32))
    # dtype= is the computation dtype: inputs cast first (same_kind), result of that dtype.
    i = vk.asarray(I32_A)
    check(vk.add(i, i, dtype=vk.float32), (I32_A + I32_A).astype(np.float32))
    check(vk.sqrt(vk.asarray(I32_B), dtype=vk.float64), np.sqrt(I32_B.astype(np.float64)))
    check(vk.less(i, 3, dtype=vk.float32), I32_A < 3)
    with pytest.raises(TypeError, match=r"\[add\] Cannot cast ufunc 'add' input 0 from "
                                        r"dtype\('float32'\) to dtype\('int32'\)"):
        vk.add(a, 1, dtype=vk.int32)
    with pytest.raises(TypeError, match=r"ufunc 'divide' output from dtype\('float64'\) to "
                                        r"dtype\('int32'\)"):
        vk.divide(i, i, dtype=vk.int32)


def test_module_functions_names_and_operands():
    x = vk.asarray(F32_A)
    assert vk.absolute is vk.abs and vk.invert is vk.bitwise_not and vk.conjugate is vk.conj
    assert vk.true_divide is vk.divide and vk.mod is vk.remainder and vk.acos is vk.arccos
    check(vk.where(x > 0, x, -1.0), np.where(F32_A > 0, F32_A, np.float32(-1)))
    check(vk.add([1, 2, 3], 1), np.array([2, 3, 4]))  # lists: numpy's inference, int64
    check(vk.add(1, 2.5), np.array(3.5))  # Python-only operands: numpy's default dtypes
    check(np.sin(x), np.sin(F32_A))  # numpy's ufunc stays on the device
    check(vk.clip(x, -1.0, 2.0), np.clip(F32_A, -1, 2))
    check(vk.clip(x, None, 0.0), np.minimum(F32_A, 0))
    check(vk.round(vk.asarray([0.5, 1.5, 2.5, -0.5])), np.array([0.0, 2.0, 2.0, -0.0]))
    check(vk.round(vk.asarray([1.234, 15.0, -2.678]), 2), np.round([1.234, 15.0, -2.678], 2))
    check(vk.around(vk.asarray([1234.0, 1250.0]), -2), np.array([1200.0, 1200.0]))
    for dt in (np.int8, np.uint8, np.int32, np.uint64):  # integers: in float64, cast back
        ints = np.array([15, 25, 35, 105, 0, 64], dt)
        for d in (-1, -2, -3):
            check(vk.round(vk.asarray(ints), d), np.round(ints, d))
    check(vk.astype(x, vk.int16), F32_A.astype(np.int16))
    check(np.add.reduceat(x, [0, 1]), np.add.reduceat(F32_A, [0, 1]))  # ufunc methods too


def test_fusion_kernel_counts():
    a, b, c = (vk.asarray(np.random.default_rng(i).standard_normal(1000).astype(np.float32))
               for i in range(3))
    ha, hb, hc = a.get(), b.get(), c.get()
    start = vk.kernel_count()
    y = a * b + c
    chain = vk.sqrt(abs(2 * a + b) + 1) * vk.exp(-b) - a
    assert vk.kernel_count() == start and y.is_lazy  # nothing ran yet
    np.testing.assert_allclose(y.get(), ha * hb + hc, rtol=1e-6, atol=1e-6)
    assert vk.kernel_count() == start + 1
    np.testing.assert_allclose(chain.get(), np.sqrt(np.abs(2 * ha + hb) + 1) * np.exp(-hb) - ha,
                               rtol=1e-5, atol=1e-6)
    assert vk.kernel_count() == start + 2
    y.get()
    assert vk.kernel_count() == start + 2  # a realized value is not computed again
    common = vk.exp(a + b)
    y1, y2 = common * 3, common - a
    vk.eval(y1, y2)
    assert vk.kernel_count() == start + 3
    np.testing.assert_allclose(y2.get(), np.exp(ha + hb) - ha, rtol=1e-5, atol=1e-6)
    assert vk.kernel_count() == start + 3


def test_errors_name_the_op_and_values(ctx1, ctx2):
    with pytest.raises(ValueError, match=r"\[add\] cannot broadcast shapes \(3, 4\) and \(5,\)"):
        vk.ones((3, 4)) + vk.ones(5)
    with pytest.raises(TypeError, match=r"\[zeros\] dtype 'foo' is not understood"):
        vk.zeros(3, dtype="foo")
    with pytest.raises(TypeError, match=r"\[astype\] dtype .*object.* is not supported"):
        vk.ones(3).astype(object)
    with pytest.raises(ValueError, match=r"\[multiply\] operands live on different contexts"):
        vk.ones(3, context=ctx1) * vk.ones(3, context=ctx2)
    with pytest.raises(TypeError, match="unsupported operand"):
        vk.ones(3) + "a"
    with pytest.raises(TypeError, match="unsupported operand"):
        vk.ones(3) - object()
    assert (vk.ones(3) == "a") is False  # Python's fallback for an unknown operand
    with pytest.raises(TypeError, match=r"\[bitwise_and\].*float32"):
        vk.ones(3, vk.float32) & 1
    with pytest.raises(TypeError, match="unhashable"):
        hash(vk.ones(3))
    with pytest.raises(TypeError, match=r"\[eval\] expected vkarray.ndarray"):
        vk.eval(vk.ones(2), [1])


def test_a_dtype_the_device_lacks_is_a_type_error_naming_the_device():
    ctx = vk.Context(disable_features=["float64"])
    with pytest.raises(TypeError, match=r"\[asarray\] float64 needs shaderFloat64, which device"):
        vk.asarray(np.ones(3), context=ctx)
    x = vk.asarray(np.arange(3, dtype=np.int32), context=ctx)
    with pytest.raises(TypeError, match="shaderFloat64"):
        x / 2  # int32 / int promotes to float64
    assert np.array_equal(np.asarray(x * 2), [0, 2, 4])
    with pytest.raises(RuntimeError, match="float128"):
        vk.Context(disable_features=["float128"])
