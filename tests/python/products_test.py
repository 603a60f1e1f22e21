"""dot, tensordot, inner (N-d), outer and kron (array/products.cc, vkarray/_products.py)
against numpy: every dtype, numpy's operand rules (0-d, 1-d, N-d), axes forms, strided
operands, out= and numpy's exception types. Integers exact; floats within the bound of
docs/accuracy.md ("Matrix products"), as products_testing.py checks them."""

import numpy as np
import pytest

import vkarray as vk
from products_testing import DTYPES, check_values, sample


@pytest.mark.parametrize("dtype", DTYPES)
def test_dot_every_dtype(dtype):
    cases = [((), (3, 4)), ((5,), ()), ((7,), (7,)), ((4, 7), (7,)), ((7,), (7, 3)),
             ((33, 17), (17, 45)), ((2, 3, 4), (4, 5)), ((2, 3, 4), (5, 4, 6)), ((3, 4), (2, 4, 5)),
             ((4, 0), (0, 3))]
    for i, (sa, sb) in enumerate(cases):
        a, b = sample(sa, dtype, i), sample(sb, dtype, 40 + i)
        k = sa[-1] if sa else 1
        check_values(vk.dot(vk.asarray(a), vk.asarray(b)), np.dot, a, b, k)


def test_dot_errors_and_out():
    with pytest.raises(ValueError, match="not aligned"):
        vk.dot(vk.zeros((2, 3)), vk.zeros((4, 5)))
    with pytest.raises(ValueError):
        np.dot(np.zeros((2, 3)), np.zeros((4, 5)))
    a, b = sample((3, 4), np.float32, 1), sample((4, 2), np.float32, 2)
    out = vk.zeros((3, 2), dtype=np.float32)
    assert vk.dot(a, b, out=out) is out
    check_values(out, np.dot, a, b, 4)
    for other in (np.float64, np.float16):  # numpy casts no dot result into out=
        with pytest.raises(ValueError, match="output array is not acceptable"):
            np.dot(a, b, out=np.zeros((3, 2), dtype=other))
        with pytest.raises(ValueError, match="output array is not acceptable"):
            vk.dot(a, b, out=vk.zeros((3, 2), dtype=other))


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.complex64, np.bool_])
def test_tensordot_axes_forms(dtype):
    a, b = sample((3, 4, 5), dtype, 1), sample((4, 5, 6), dtype, 2)
    va, vb = vk.asarray(a), vk.asarray(b)
    for axes, k in [(2, 20), (0, 1), (([1, 2], [0, 1]), 20), (([2, 1], [1, 0]), 20),
                    ((1, 0), 4), (([-2], [0]), 4)]:
        check_values(vk.tensordot(va, vb, axes=axes),
                     lambda x, y: np.tensordot(x, y, axes=axes), a, b, k)
    c = sample((5, 3), dtype, 3)
    ax = ([2, 0], [0, 1])
    check_values(vk.tensordot(va, vk.asarray(c), axes=ax),
                 lambda x, y: np.tensordot(x, y, axes=ax), a, c, 15)
    # strided views
    check_values(vk.tensordot(va[:, ::-1, ::2], vb[::-1, ::2], axes=2),
                 lambda x, y: np.tensordot(x, y, axes=2), a[:, ::-1, ::2], b[::-1, ::2], 12)
    with pytest.raises(ValueError):
        vk.tensordot(va, vb, axes=([0], [0]))
    with pytest.raises(ValueError):
        np.tensordot(a, b, axes=([0], [0]))
    with pytest.raises(ValueError):
        vk.tensordot(va, vb, axes=([1, 2], [0]))
    with pytest.raises(IndexError):  # AxisError
        vk.tensordot(va, vb, axes=([5], [0]))


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.float16, np.float32, np.complex128])
def test_inner_nd(dtype):
    for i, (sa, sb) in enumerate([((3, 5), (4, 5)), ((2, 3, 5), (5,)), ((5,), (2, 4, 5)),
                                  ((), (2, 3)), ((2, 3), ()), ((6,), (6,)), ((2, 0), (3, 0))]):
        a, b = sample(sa, dtype, i), sample(sb, dtype, 9 + i)
        k = sa[-1] if sa and sb else 1
        check_values(vk.inner(vk.asarray(a), vk.asarray(b)), np.inner, a, b, k)
    with pytest.raises(ValueError):
        vk.inner(vk.zeros((2, 3)), vk.zeros((3, 2)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_outer_and_kron(dtype):
    a, b = sample((7,), dtype, 1), sample((2, 5), dtype, 2)
    np.testing.assert_array_equal(np.asarray(vk.outer(vk.asarray(a), vk.asarray(b))),
                                  np.outer(a, b))
    for sa, sb in [((3,), (4,)), ((2, 3), (4, 5)), ((2, 1, 3), (3, 2)), ((), (3,)), ((0, 2), (3,))]:
        x, y = sample(sa, dtype, 3), sample(sb, dtype, 4)
        got = np.asarray(vk.kron(vk.asarray(x), vk.asarray(y)))
        want = np.kron(x, y)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    out = vk.zeros((7, 10), dtype=np.result_type(a, b))
    assert vk.outer(a, b, out=out) is out
    np.testing.assert_array_equal(np.asarray(out), np.outer(a, b))
