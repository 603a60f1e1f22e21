"""tril, triu, diag, diagflat, trace, rot90, meshgrid and the index conversions
(vkarray/_grids.py) against numpy: values over several dtypes, numpy's exception types and
kernel counts."""

import numpy as np
import pytest

import vkarray as vk
from shaping_testing import RNG, DTYPES, sample, check, same_error, kernels, device


# ---------------------------------------------------------------------------------------------
# tril, triu, diag, diagflat, rot90, meshgrid


@pytest.mark.parametrize("dtype", DTYPES)
def test_tril_triu(dtype):
    for shape in [(4, 4), (3, 5), (5, 2), (2, 3, 4), (4,), (0, 3), (1, 1)]:
        x = sample(shape, dtype)
        d = device(x)
        for k in [0, 1, -1, 3, -4, 100, -100]:
            check(vk.tril(d, k), np.tril(x, k))
            check(vk.triu(d, k=k), np.triu(x, k=k))
    x = sample((3, 4), dtype)
    check(vk.tril(device(x).T), np.tril(x.T))


def test_tri_kernels_and_errors():
    d = device(sample((2, 4, 5), "float32"))
    assert kernels(lambda: vk.tril(d)) == 1
    assert kernels(lambda: vk.triu(d, -1)) == 1
    assert kernels(lambda: vk.tril(d * 2 + 1, 1)) == 1  # lazy input and result fuse
    assert kernels(lambda: vk.triu(d) + vk.tril(d, -1)) == 1
    same_error(lambda: np.tril(np.float32(1)), lambda: vk.tril(np.float32(1)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_diag_diagflat(dtype):
    v = sample((4,), dtype)
    m = sample((3, 5), dtype)
    for k in [0, 1, 2, -1, -3, 6]:
        check(vk.diag(device(v), k), np.diag(v, k))
        check(vk.diag(device(m), k), np.diag(m, k))
        check(vk.diagflat(m, k), np.diagflat(m, k))
    check(vk.diag(np.zeros(0, dtype)), np.diag(np.zeros(0, dtype)))
    check(vk.diag(np.zeros(0, dtype), 2), np.diag(np.zeros(0, dtype), 2))
    check(vk.diag(v[:1]), np.diag(v[:1]))
    check(vk.diagflat(np.array(v[0])), np.diagflat(np.array(v[0])))
    check(vk.diagflat(m.T, -1), np.diagflat(m.T, -1))


def test_diag_kernels_and_errors():
    v = device(sample((5,), "float32"))
    m = device(sample((4, 4), "float32"))
    assert kernels(lambda: vk.diag(v)) == 1
    assert kernels(lambda: vk.diag(v * 2)) == 1
    assert kernels(lambda: vk.diag(v, 2)) == 2
    assert kernels(lambda: vk.diag(m, 1)) == 0
    assert not vk.diag(m).flags_writeable  # numpy's diag of a 2-d array is read-only too
    for x in [np.float32(1), np.ones((2, 2, 2))]:
        same_error(lambda: np.diag(x), lambda: vk.diag(x))


@pytest.mark.parametrize("dtype", DTYPES)
def test_rot90(dtype):
    x = sample((2, 3, 4), dtype)
    d = device(x)
    for k in range(-5, 6):
        for axes in [(0, 1), (1, 0), (1, 2), (-1, 0), (2, -3)]:
            check(vk.rot90(d, k, axes), np.rot90(x, k, axes))
    check(vk.rot90(x[0]), np.rot90(x[0]))
    assert kernels(lambda: vk.rot90(d, 1, (1, 2))) == 0
    for call in [lambda m: m.rot90(x, 1, (0, 0)), lambda m: m.rot90(x, 1, (0, 3)),
                 lambda m: m.rot90(x, 1, (0, 1, 2)), lambda m: m.rot90(x[0, 0]),
                 lambda m: m.rot90(x, 1, (0, -3))]:
        same_error(lambda: call(np), lambda: call(vk))


@pytest.mark.parametrize("dtype", DTYPES)
def test_meshgrid(dtype):
    x, y, z = sample((3,), dtype), sample((4,), dtype), sample((2,), dtype)
    dx, dy, dz = device(x), device(y), device(z)
    for indexing in ["xy", "ij"]:
        for sparse in [False, True]:
            for copy in [True, False]:
                kw = dict(indexing=indexing, sparse=sparse, copy=copy)
                check(vk.meshgrid(dx, dy, **kw), tuple(np.meshgrid(x, y, **kw)))
                check(vk.meshgrid(dx, dy, dz, **kw), tuple(np.meshgrid(x, y, z, **kw)))
                check(vk.meshgrid(dx, **kw), tuple(np.meshgrid(x, **kw)))
    m = sample((2, 2), dtype)  # inputs are flattened
    check(vk.meshgrid(m, x), tuple(np.meshgrid(m, x)))
    assert vk.meshgrid() == np.meshgrid() == []
    assert type(vk.meshgrid(x)) is type(np.meshgrid(x)) is list
    same_error(lambda: np.meshgrid(x, indexing="yx"), lambda: vk.meshgrid(x, indexing="yx"))


def test_meshgrid_kernels():
    x, y = device(sample((3,), "float32")), device(sample((4,), "float32"))
    assert kernels(lambda: vk.meshgrid(x, y)) == 1  # both copies in one kernel
    assert kernels(lambda: vk.meshgrid(x, y, copy=False)) == 0
    gx, gy = vk.meshgrid(x, y, copy=False)
    assert not gx.flags_writeable
    assert kernels(lambda: vk.sqrt(vk.square(vk.meshgrid(x, y)[0]) + 1)) == 1


# ---------------------------------------------------------------------------------------------
# unravel_index, ravel_multi_index


def test_unravel_index():
    for indices, shape in [(5, (2, 3)), ([0, 1, 5, 4], (2, 3)), ([[3, 7], [0, 23]], (2, 3, 4)),
                           (np.array([7, 0], np.int32), 8), (np.array([], np.intp), (2, 2)),
                           (0, (1,)), (np.array([2, 3], np.uint8), (4, 1))]:
        for order in ["C", "F"]:
            check(vk.unravel_index(indices, shape, order=order),
                  tuple(np.asarray(i, np.intp) for i in np.unravel_index(indices, shape,
                                                                         order=order)))
    idx = device(np.array([[1, 5], [4, 0]], np.int32))
    check(vk.unravel_index(idx, (3, 2)),
          np.unravel_index(np.array([[1, 5], [4, 0]]), (3, 2)))
    check(vk.unravel_index(idx + 1, (7,)), np.unravel_index(np.array([[2, 6], [5, 1]]), (7,)))
    for indices, shape in [([6], (2, 3)), (-1, (2, 3)), ([1.0], (2, 3)), (0, (0,)),
                           (1, (-1, 2))]:
        same_error(lambda: np.unravel_index(indices, shape),
                   lambda: vk.unravel_index(indices, shape))
    same_error(lambda: np.unravel_index(6, (2, 3)), lambda: vk.unravel_index(device(6), (2, 3)))
    assert kernels(lambda: vk.unravel_index(idx, (2, 2, 2))) == 1  # evaluated together


def test_ravel_multi_index():
    for multi, dims in [(([1, 0, 1], [2, 1, 0]), (2, 3)), ((1, 2), (3, 4)),
                        (([[0, 1]], [[2], [0]], 3), (2, 3, 4)),
                        ((np.array([], np.intp),), (5,))]:
        for order in ["C", "F"]:
            check(vk.ravel_multi_index(multi, dims, order=order),
                  np.asarray(np.ravel_multi_index(multi, dims, order=order), np.intp))
    multi = (np.array([-1, 4, 7]), np.array([5, -3, 2]))
    for mode in ["wrap", "clip", ("clip", "wrap")]:
        check(vk.ravel_multi_index(multi, (4, 3), mode=mode),
              np.ravel_multi_index(multi, (4, 3), mode=mode))
    rows, cols = device(np.array([0, 2], np.int32)), device(np.array([1, 3], np.int64))
    check(vk.ravel_multi_index((rows, cols), (3, 4)), np.array([1, 11]))
    assert kernels(lambda: vk.ravel_multi_index((rows, cols), (3, 4))) == 1
    assert kernels(lambda: vk.ravel_multi_index((rows * 2, cols), (9, 4), mode="clip")) == 1
    for multi, dims, kw in [(([3], [0]), (3, 4), {}), (([0], [-1]), (3, 4), {}),
                            (([0],), (3, 4), {}), (([0.5], [1]), (3, 4), {}),
                            (([0, 1], [0, 1, 2]), (3, 4), {}),
                            (([0], [0]), (3, 4), {"mode": "bad"})]:
        same_error(lambda: np.ravel_multi_index(multi, dims, **kw),
                   lambda: vk.ravel_multi_index(multi, dims, **kw))
    same_error(lambda: np.ravel_multi_index((np.array([3]), [0]), (3, 4)),
               lambda: vk.ravel_multi_index((device(np.array([3])), [0]), (3, 4)))


def test_index_roundtrip():
    flat = RNG.integers(0, 60, 10)
    coords = vk.unravel_index(flat, (3, 4, 5))
    check(vk.ravel_multi_index(coords, (3, 4, 5)), flat.astype(np.intp))


@pytest.mark.parametrize("order", ["C", "F", None])
def test_index_conversions_take_numpys_orders(order):
    flat = np.array([0, 7, 23, 59])
    check(vk.unravel_index(flat, (3, 4, 5), order=order),
          np.unravel_index(flat, (3, 4, 5), order=order))
    coords = (np.array([0, 2]), np.array([3, 1]), np.array([4, 0]))
    check(vk.ravel_multi_index(coords, (3, 4, 5), order=order),
          np.ravel_multi_index(coords, (3, 4, 5), order=order))
    for fn in (lambda m: m.unravel_index(flat, (3, 4, 5), order="V"),
               lambda m: m.ravel_multi_index(coords, (3, 4, 5), order="V")):
        same_error(lambda: fn(np), lambda: fn(vk))


def test_namespace():
    from vkarray import _grids, _joining, _reorder
    for module in (_joining, _reorder, _grids):
        for name in module.__all__:
            assert getattr(vk, name) is getattr(module, name)
            assert name in vk.__all__
    assert vk.concat is vk.concatenate


@pytest.mark.parametrize("shape, offset, axes", [
    ((5, 5), 0, (0, 1)), ((4, 7), 2, (0, 1)), ((7, 4), -3, (0, 1)), ((3, 4, 5), 1, (1, 2)),
    ((3, 4, 5), 0, (2, 0)), ((1, 1), 0, (0, 1)), ((4, 4), 9, (0, 1)), ((130, 130), 0, (0, 1)),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.uint16, np.bool_])
def test_trace_matches_numpy(shape, offset, axes, dtype):
    rng = np.random.default_rng(11)
    ref = (rng.integers(0, 3, shape) if dtype == np.bool_ else rng.integers(-9, 9, shape))
    ref = ref.astype(dtype) if dtype != np.uint16 else np.abs(ref).astype(dtype)
    want = np.trace(ref, offset, *axes)
    got = vk.trace(vk.asarray(ref), offset, *axes)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got.get()), want)


# ---------------------------------------------------------------------------------------------
# r_ and c_


R_CASES = [
    lambda m, a: m.r_[a, a[:2]],
    lambda m, a: m.r_[a[0], 0, 0, a[0]],
    lambda m, a: m.r_[-1:1:6j, [0] * 3, 5, 6],
    lambda m, a: m.r_[1:5, 7, a[0]],
    lambda m, a: m.r_[0, 0.5, -1, 0.3],
    lambda m, a: m.r_["-1", a, a],
    lambda m, a: m.r_["0,2", [1, 2, 3], [4, 5, 6]],
    lambda m, a: m.r_["0,2,0", [1, 2, 3], [4, 5, 6]],
    lambda m, a: m.r_["1,3,-1", a[0], a[1]],
    lambda m, a: m.c_[a[:, :2], a],
    lambda m, a: m.c_[[1, 2, 3], [4, 5, 6]],
    lambda m, a: m.c_[a[0], a[1], 1:5],
]


@pytest.mark.parametrize("case", range(len(R_CASES)))
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex64, np.bool_])
def test_r_and_c(case, dtype):
    a = np.arange(12).reshape(3, 4).astype(dtype)
    check(R_CASES[case](vk, device(a)), R_CASES[case](np, a))


def test_r_and_c_errors():
    a = np.arange(12.0).reshape(3, 4)
    same_error(lambda: np.r_[a, a[:, :2]], lambda: vk.r_[device(a), device(a[:, :2])])
    same_error(lambda: np.r_[a, "0"], lambda: vk.r_[device(a), "0"])
    same_error(lambda: np.r_["x", a], lambda: vk.r_["x", device(a)])
    with pytest.raises(NotImplementedError, match="no matrix type"):
        vk.r_["r", [1, 2], [3, 4]]
    assert len(vk.r_) == len(np.r_) == 0
