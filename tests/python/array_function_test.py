"""numpy's function protocol (NEP 18) on vkarray arrays: numpy's functions run vkarray's
function of the same qualified name on the device and return vkarray arrays; mixed numpy
arguments are uploaded; unimplemented functions and unsupported keywords raise TypeError."""

import numpy as np
import pytest

import vkarray as vk

A = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
B = np.linspace(-1, 1, 12).reshape(3, 4)


def check(got, want, rtol=1e-6):
    assert isinstance(got, vk.ndarray), type(got)
    np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=1e-6)
    assert got.dtype == np.asarray(want).dtype


@pytest.mark.parametrize("call", [
    lambda m, x, y: m.sum(x),
    lambda m, x, y: m.sum(x, axis=1, keepdims=True),
    lambda m, x, y: m.mean(x, axis=0),
    lambda m, x, y: m.std(x, axis=1, ddof=1),
    lambda m, x, y: m.concatenate([x, y.astype(np.float32)]),
    lambda m, x, y: m.stack([x, x], axis=1),
    lambda m, x, y: m.where(x > 0, x, 0),
    lambda m, x, y: m.transpose(x),
    lambda m, x, y: m.reshape(x, (4, 3)),
    lambda m, x, y: m.cumsum(x, axis=1),
    lambda m, x, y: m.linalg.norm(x),
    lambda m, x, y: m.linalg.norm(x, axis=1),
    lambda m, x, y: m.fft.fft(y),
    lambda m, x, y: m.fft.rfft(y, axis=0),
    lambda m, x, y: m.sort(x, axis=0),
    lambda m, x, y: m.clip(x, -2, 3),
    lambda m, x, y: m.round(y, 2),
    lambda m, x, y: m.around(y, 1),
    lambda m, x, y: m.amax(x, axis=0),
    lambda m, x, y: m.max(x),
    lambda m, x, y: m.dot(x, y.T),
    lambda m, x, y: m.einsum("ij,ij->i", x, x),
    lambda m, x, y: m.tril(x, -1),
    lambda m, x, y: m.diff(x, axis=0),
], ids=lambda f: "")
def test_numpy_functions_run_on_the_device(call):
    x, y = vk.asarray(A), vk.asarray(B)
    want = call(np, A, B)
    got = call(np, x, y)
    check(got, want, rtol=1e-5)


def test_like_functions_keep_shape_and_dtype():
    x = vk.asarray(A)
    for f in (np.empty_like, np.zeros_like, np.ones_like):
        r = f(x)
        assert isinstance(r, vk.ndarray) and r.shape == A.shape and r.dtype == A.dtype
    check(np.full_like(x, 7), np.full_like(A, 7))
    check(np.zeros_like(x, dtype=np.int16, order="K", subok=True), np.zeros((3, 4), np.int16))


def test_mixed_numpy_arguments_are_uploaded():
    x = vk.asarray(A)
    check(np.concatenate([A, x]), np.concatenate([A, A]))
    check(np.concatenate((x, A), axis=1), np.concatenate((A, A), axis=1))
    check(np.where(A > 0, x, B.astype(np.float32)), np.where(A > 0, A, B.astype(np.float32)))
    check(np.dot(A, x.T), A @ A.T)


def test_unimplemented_function_raises_naming_it():
    x = vk.asarray(A)
    # vkarray has no datetime dtypes, so numpy's datetime functions are left out
    with pytest.raises(TypeError, match=r"numpy\.datetime_as_string is not implemented by "
                                        r"vkarray; convert explicitly with numpy\.asarray"):
        np.datetime_as_string(vk.asarray(np.arange(3)))
    with pytest.raises(TypeError, match=r"numpy\.is_busday is not implemented"):
        np.is_busday(vk.asarray(np.arange(3)))


def test_unsupported_keywords_are_refused_clearly():
    x = vk.asarray(A)
    with pytest.raises(TypeError, match=r"numpy\.copy: order='F' is not supported"):
        np.copy(x, order="F")
    with pytest.raises(TypeError, match=r"numpy\.sum: out= must be a vkarray\.ndarray"):
        np.sum(x, axis=0, out=np.empty(4, np.float32))
    with pytest.raises(TypeError, match=r"numpy\.ravel: order='K' is not supported"):
        np.ravel(x, order="K")
    with pytest.raises(TypeError, match=r"numpy\.percentile: vkarray's percentile does not "
                                        r"take these arguments \(keywords \['interpolation'\]"):
        np.percentile(x, 50, interpolation="linear")  # numpy 1.x's deprecated spelling
    with pytest.raises(TypeError, match=r"<lambda>\(\) got an unexpected keyword argument 'foo'$"):
        np.apply_along_axis(lambda r: r, 1, x, foo=1)  # the callback's error, unchanged
    np.testing.assert_array_equal(np.unique(x, equal_nan=False).get(),
                                  np.unique(A, equal_nan=False))  # computed on the device


def test_out_argument_on_the_device():
    x = vk.asarray(A)
    out = vk.empty(4, dtype=np.float32)
    r = np.sum(x, axis=0, out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), A.sum(axis=0))


def test_foreign_array_types_defer():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"
    assert np.concatenate([vk.asarray(A), Other()]) == "other"


def test_like_creation_lands_on_the_like_arrays_context(ctx3):
    x = vk.asarray(A, context=ctx3)
    for r, want in ((np.zeros(3, like=x), np.zeros(3)), (np.asarray([1, 2], like=x), [1, 2]),
                    (np.arange(4, like=x), np.arange(4)), (np.full(2, 3.0, like=x), [3.0, 3.0]),
                    (np.ones((2,), like=x), np.ones(2)), (np.eye(2, like=x), np.eye(2)),
                    (np.array([1.5], like=x), [1.5])):
        assert isinstance(r, vk.ndarray) and r.context is ctx3
        np.testing.assert_array_equal(r.get(), want)


def test_numpy_arguments_follow_the_vkarray_arguments_context(ctx3):
    x = vk.asarray(A, context=ctx3)
    r = np.concatenate([A, x])
    assert r.context is ctx3
    np.testing.assert_array_equal(r.read(), np.stack([np.concatenate([A, A])] * 3))
