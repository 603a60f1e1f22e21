"""numpy's ufunc protocol on vkarray arrays: calls with out=/where=, and the methods reduce,
accumulate and outer run on the device and return vkarray arrays equal to numpy's; what vkarray
does not implement raises TypeError naming the ufunc and the method."""

import numpy as np
import pytest

import vkarray as vk

RNG = np.random.default_rng(7)
INTS = RNG.integers(-3, 4, size=(5, 7)).astype(np.int8)
FLOATS = (RNG.standard_normal((5, 7)) * 4).astype(np.float32)


def same(got, want):
    assert isinstance(got, vk.ndarray), type(got)
    got = got.get()
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(want.dtype).eps, atol=0)
    else:
        np.testing.assert_array_equal(got, want)


CASES = [
    ("add.reduce", lambda a: np.add.reduce(a)),
    ("add.reduce None", lambda a: np.add.reduce(a, axis=None)),
    ("add.reduce keepdims", lambda a: np.add.reduce(a, axis=1, keepdims=True)),
    ("add.reduce initial", lambda a: np.add.reduce(a, axis=0, initial=3)),
    ("add.reduce where", lambda a: np.add.reduce(a, axis=1, where=a > 0)),
    ("multiply.reduce dtype", lambda a: np.multiply.reduce(a, axis=1, dtype=np.float64)),
    ("maximum.reduce", lambda a: np.maximum.reduce(a, axis=1)),
    ("maximum.reduce initial", lambda a: np.maximum.reduce(a, axis=0, initial=2)),
    ("minimum.reduce", lambda a: np.minimum.reduce(a, axis=(0, 1))),
    ("fmax.reduce", lambda a: np.fmax.reduce(a, axis=0)),
    ("logical_and.reduce", lambda a: np.logical_and.reduce(a, axis=1)),
    ("logical_or.reduce", lambda a: np.logical_or.reduce(a)),
    ("add.accumulate", lambda a: np.add.accumulate(a)),
    ("add.accumulate axis", lambda a: np.add.accumulate(a, axis=1, dtype=np.float64)),
    ("multiply.accumulate", lambda a: np.multiply.accumulate(a, axis=1)),
    ("maximum.accumulate", lambda a: np.maximum.accumulate(a, axis=1)),
    ("minimum.accumulate", lambda a: np.minimum.accumulate(a)),
    ("logical_and.accumulate", lambda a: np.logical_and.accumulate(a, axis=1)),
    ("logical_or.accumulate", lambda a: np.logical_or.accumulate(a)),
    ("add.outer", lambda a: np.add.outer(a[0], a[:, 1])),
    ("multiply.outer 2d", lambda a: np.multiply.outer(a[:2, :3], a[0])),
    ("greater.outer", lambda a: np.greater.outer(a[1], a[2])),
]


@pytest.mark.parametrize("data", [INTS, FLOATS], ids=["int8", "float32"])
@pytest.mark.parametrize("name,call", CASES, ids=[c[0] for c in CASES])
def test_methods_match_numpy(name, call, data):
    same(call(vk.asarray(data)), call(data))


@pytest.mark.parametrize("n", [1, 7, 1000, 1000003])
def test_reduce_and_accumulate_sizes(n):
    a = (np.arange(n) % 11 - 5).astype(np.int32)
    x = vk.asarray(a)
    same(np.add.reduce(x), np.add.reduce(a))
    same(np.maximum.reduce(x), np.maximum.reduce(a))
    same(np.add.accumulate(x), np.add.accumulate(a))


def test_zero_d_and_empty():
    same(np.add.reduce(vk.asarray(np.float64(3))), np.add.reduce(np.float64(3)))
    same(np.add.reduce(vk.zeros((0, 3))), np.add.reduce(np.zeros((0, 3))))
    with pytest.raises(ValueError):
        np.maximum.reduce(vk.zeros((0, 3)), axis=0)


def test_call_with_out_and_where():
    a = FLOATS
    x = vk.asarray(a)
    out = vk.zeros(a.shape, dtype=np.float32)
    assert np.add(x, 1, out=out) is out
    same(out, a + 1)
    out2 = vk.zeros(a.shape, dtype=np.float32)
    r = np.multiply(x, 2, out=(out2,), where=x > 0)
    assert r is out2
    want = np.zeros(a.shape, np.float32)
    np.multiply(a, 2, out=want, where=a > 0)
    same(out2, want)
    same(np.sin(x), np.sin(a))
    same(np.add(a, x), a + a)  # numpy operand first: still on the device


def test_unsupported_methods_and_keywords_raise_naming_them():
    x = vk.asarray(INTS)
    with pytest.raises(TypeError, match=r"numpy\.add\.at: the array must be a vkarray"):
        np.add.at(np.zeros(3), [0], x[0, :1])
    with pytest.raises(NotImplementedError, match=r"\[add\] signature= is not supported"):
        np.add(x, 1, signature=("l", "l", "l"))
    with pytest.raises(TypeError, match=r"numpy\.add\.__call__: out= must be vkarray\.ndarray"):
        np.add(x, 1, out=np.empty(INTS.shape, np.int8))
    with pytest.raises(TypeError, match=r"numpy\.isnat is not implemented by vkarray"):
        np.isnat(x)  # the one numpy ufunc vkarray lacks: it has no datetime dtypes
    with pytest.raises(ValueError, match=r"accumulate does not allow multiple axes"):
        np.add.accumulate(x, axis=None)
    with pytest.raises(ValueError, match=r"outer product only supported for binary"):
        np.sin.outer(x, x)


def test_numpy_operands_on_the_left():
    a = np.ones(3)
    x = vk.asarray(np.arange(3.0))
    r = a + x
    assert isinstance(r, vk.ndarray)
    same(r, np.ones(3) + np.arange(3.0))
    same(np.float32(2) * vk.asarray(np.arange(3, dtype=np.float32)),
         np.arange(3, dtype=np.float32) * 2)
    with pytest.raises(TypeError, match=r"numpy\.add\.__call__: out= must be vkarray"):
        a += x  # the result would have to be written to host memory
    np.testing.assert_array_equal(a, np.ones(3))  # unchanged
