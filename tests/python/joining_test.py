"""Joining, splitting and reordering functions (vkarray/_joining.py) against numpy: values,
dtypes and shapes over several dtypes, 0-d, empty and size-1 inputs, negative axes, numpy's
exception types for bad input, and the kernel counts of the fused and view-only ones.

numpy here is 1.24, which pads wide reflect/symmetric/wrap regions inconsistently (fixed in
1.25); those cases are checked against a periodic reference instead.
"""

import numpy as np
import pytest

import vkarray as vk

RNG = np.random.default_rng(1234)
DTYPES = ["float32", "int32", "bool", "complex64"]


def sample(shape, dtype):
    """Seeded data of this shape and dtype (distinct values where the dtype allows)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return RNG.integers(0, 2, shape).astype(bool)
    values = RNG.integers(-50, 50, shape)
    if dtype.kind == "c":
        return (values + 1j * RNG.integers(-50, 50, shape)).astype(dtype)
    return values.astype(dtype)


def check(got, want):
    """got (an ndarray, or a list/tuple of them) equals want in dtype, shape and values."""
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w)
        return
    want = np.asarray(want)
    assert isinstance(got, vk.ndarray), type(got)
    host = got.get()
    assert host.dtype == want.dtype, (host.dtype, want.dtype)
    assert host.shape == want.shape, (host.shape, want.shape)
    np.testing.assert_array_equal(host, want)


def same_error(np_call, vk_call):
    """vk_call raises the exception type that np_call raises (numpy's AxisError included)."""
    with pytest.raises(Exception) as np_err:
        np_call()
    with pytest.raises(type(np_err.value)):
        vk_call()


def kernels(fn):
    """The number of kernels fn() dispatches, its result (arrays or a tuple) evaluated."""
    k0 = vk.kernel_count()
    result = fn()
    if isinstance(result, (list, tuple)):
        vk.eval(*result)
    elif isinstance(result, vk.ndarray):
        result.eval()
    return vk.kernel_count() - k0


def device(data):
    """data uploaded and evaluated, so that views of it cost no kernel."""
    x = vk.asarray(data)
    x.eval()
    return x


# ---------------------------------------------------------------------------------------------
# concatenate and the stacks


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [0, 1, -1, -2, None])
def test_concatenate(dtype, axis):
    a, b, c = sample((2, 3), dtype), sample((2, 3), dtype), sample((2, 3), dtype)
    check(vk.concatenate([device(a), b, vk.asarray(c)], axis=axis),
          np.concatenate([a, b, c], axis=axis))
    check(vk.concat((device(a), device(b)), axis=axis), np.concatenate((a, b), axis=axis))


def test_concatenate_shapes_and_promotion():
    a, b = sample((2, 3), "int32"), sample((4, 3), "float32")
    check(vk.concatenate([a, b]), np.concatenate([a, b]))  # float64, as numpy
    e = np.zeros((0, 3), np.int32)
    check(vk.concatenate([e, a]), np.concatenate([e, a]))
    e = np.zeros((2, 0), np.float32)
    check(vk.concatenate([e, e], axis=1), np.concatenate([e, e], axis=1))
    check(vk.concatenate([[1, 2], [3.5]]), np.concatenate([[1, 2], [3.5]]))
    b = sample((1,), "bool")
    check(vk.concatenate([b]), np.concatenate([b]))
    x = sample((2, 3, 4), "float32")
    check(vk.concatenate([device(x).transpose(1, 0, 2), x[:, ::-1].transpose(1, 0, 2)], -1),
          np.concatenate([x.transpose(1, 0, 2), x[:, ::-1].transpose(1, 0, 2)], -1))
    check(vk.concatenate([np.float32(2), np.int8(3)], axis=None),
          np.concatenate([np.float32(2), np.int8(3)], axis=None))


def test_concatenate_dtype_out_casting():
    a, b = sample((2, 2), "int32"), sample((1, 2), "int32")
    check(vk.concatenate([a, b], dtype=np.float32), np.concatenate([a, b], dtype=np.float32))
    out = vk.zeros((3, 2), vk.float64)
    assert vk.concatenate([a, b], out=out) is out
    check(out, np.concatenate([a, b]).astype(np.float64))
    f = sample((2, 2), "float32")
    same_error(lambda: np.concatenate([f, f], dtype=np.int32),
               lambda: vk.concatenate([f, f], dtype=np.int32))
    check(vk.concatenate([f, f], dtype=np.int32, casting="unsafe"),
          np.concatenate([f, f], dtype=np.int32, casting="unsafe"))
    same_error(lambda: np.concatenate([f, f], out=np.zeros((4, 2), np.int32)),
               lambda: vk.concatenate([f, f], out=vk.zeros((4, 2), vk.int32)))
    same_error(lambda: np.concatenate([f, f], out=np.zeros((4, 3), np.float32)),
               lambda: vk.concatenate([f, f], out=vk.zeros((4, 3), vk.float32)))
    same_error(lambda: np.concatenate([f, f], out=np.zeros((4, 2)), dtype=np.float64),
               lambda: vk.concatenate([f, f], out=vk.zeros((4, 2)), dtype=np.float64))


def test_concatenate_errors():
    a, b, s = np.ones((2, 3)), np.ones((2, 4)), np.ones(3)
    for args, kw in [(([a, b],), {}), (([a, s],), {}), (([],), {}), (([a, a],), {"axis": 2}),
                     (([a, a],), {"axis": -3}), (([np.float32(1), np.float32(2)],), {})]:
        same_error(lambda: np.concatenate(*args, **kw), lambda: vk.concatenate(*args, **kw))
    with pytest.raises(ValueError, match=r"\[concatenate\] all the input array dimensions "
                                         r"except for the concatenation axis must match"):
        vk.concatenate([a, b])
    with pytest.raises(IndexError, match="axis 2 is out of bounds"):
        vk.concatenate([a, a], axis=2)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack(dtype, axis):
    xs = [sample((2, 3), dtype) for _ in range(3)]
    check(vk.stack([device(x) for x in xs], axis=axis), np.stack(xs, axis=axis))


def test_stack_edge_cases():
    xs = [np.float32(1.5), np.float32(-2)]
    check(vk.stack(xs), np.stack(xs))  # 0-d inputs
    e = [np.zeros((0, 2), np.int32)] * 2
    check(vk.stack(e, axis=1), np.stack(e, axis=1))
    s = sample((1,), "int32")
    check(vk.stack([s], axis=-1), np.stack([s], axis=-1))
    a = sample((2, 2), "float32")
    check(vk.stack([a, a], dtype=np.float64), np.stack([a, a]).astype(np.float64))
    out = vk.empty((2, 2, 2), vk.float32)
    assert vk.stack([a, a], axis=1, out=out) is out
    check(out, np.stack([a, a], axis=1))
    for arrays, kw in [([a, np.ones((2, 3))], {}), ([], {}), ([a, a], {"axis": 3}),
                       ([a, a], {"axis": -4})]:
        same_error(lambda: np.stack(arrays, **kw), lambda: vk.stack(arrays, **kw))


@pytest.mark.parametrize("dtype", DTYPES)
def test_hstack_vstack_dstack_column_stack(dtype):
    for shapes in [[(), ()], [(3,), (2,)], [(2, 3), (2, 1)], [(2, 3, 1), (2, 2, 1)]]:
        xs = [sample(s, dtype) for s in shapes]
        check(vk.hstack([device(x) for x in xs]), np.hstack(xs))
    for shapes in [[(), ()], [(3,), (3,)], [(3,), (2, 3)], [(1, 2, 2), (2, 2, 2)]]:
        xs = [sample(s, dtype) for s in shapes]
        check(vk.vstack(xs), np.vstack(xs))
    for shapes in [[(), ()], [(3,), (3,)], [(2, 3), (2, 3)], [(2, 3, 1), (2, 3, 2)]]:
        xs = [sample(s, dtype) for s in shapes]
        check(vk.dstack(xs), np.dstack(xs))
    for shapes in [[(), ()], [(3,), (3,)], [(3,), (3, 2)], [(0,), (0, 2)]]:
        xs = [sample(s, dtype) for s in shapes]
        check(vk.column_stack(xs), np.column_stack(xs))


def test_stacks_dtype_and_errors():
    a, b = sample((2,), "int32"), sample((2,), "float32")
    check(vk.hstack([a, b]), np.hstack([a, b]))
    check(vk.vstack([a, b], dtype=np.float32, casting="same_kind"),
          np.vstack([a, b]).astype(np.float32))
    for fn in ["hstack", "vstack", "dstack", "column_stack"]:
        same_error(lambda: getattr(np, fn)([]), lambda: getattr(vk, fn)([]))
        same_error(lambda: getattr(np, fn)([np.ones((2, 2)), np.ones((3, 3))]),
                   lambda: getattr(vk, fn)([np.ones((2, 2)), np.ones((3, 3))]))


def test_joining_kernel_counts():
    a, b = device(sample((3, 4), "float32")), device(sample((3, 4), "int32"))
    assert kernels(lambda: vk.concatenate([a, b])) == 2
    assert kernels(lambda: vk.concatenate([a + 1, b * 2], axis=1)) == 2  # lazy inputs fuse
    assert kernels(lambda: vk.concatenate([a, b, a], axis=None)) == 3
    assert kernels(lambda: vk.stack([a, a, a], axis=1)) == 3
    v = device(sample((4,), "float32"))
    assert kernels(lambda: vk.column_stack([v, v + 1])) == 2
    assert kernels(lambda: vk.concatenate([a, np.zeros((0, 4))])) == 1


# ---------------------------------------------------------------------------------------------
# Splitting


@pytest.mark.parametrize("dtype", ["float32", "bool"])
def test_split_family(dtype):
    x = sample((6, 4, 2), dtype)
    d = device(x)
    for sec, axis in [(3, 0), (2, 1), (1, -1), ([1, 3], 0), ([-1], 1), ([2, 10], 0),
                      ([3, 1], 0), ([], 2)]:
        check(vk.split(d, sec, axis), np.split(x, sec, axis))
        check(vk.array_split(d, sec, axis), np.array_split(x, sec, axis))
    for sec, axis in [(4, 0), (3, 1), (5, -3), (7, 0)]:
        check(vk.array_split(d, sec, axis), np.array_split(x, sec, axis))
    check(vk.hsplit(d, 2), np.hsplit(x, 2))
    check(vk.hsplit(d[:, 0, 0], [2]), np.hsplit(x[:, 0, 0], [2]))
    check(vk.vsplit(d, [1, 4]), np.vsplit(x, [1, 4]))
    check(vk.dsplit(d, 2), np.dsplit(x, 2))
    e = np.zeros((0, 3), dtype)
    check(vk.array_split(e, 2), np.array_split(e, 2))


def test_split_views_and_errors():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = device(x)
    assert kernels(lambda: vk.split(d, 2, axis=1)) == 0
    parts = vk.split(d, [1], axis=0)
    parts[1][...] = -1  # a view: writes reach the original
    x[1:] = -1
    check(d, x)
    s = np.ones((4, 6))
    for call in [lambda m: m.split(s, 5), lambda m: m.split(s, 2, axis=2),
                 lambda m: m.array_split(s, 0), lambda m: m.array_split(s, -1),
                 lambda m: m.hsplit(np.float32(1), 2), lambda m: m.vsplit(np.ones(4), 2),
                 lambda m: m.dsplit(s, 2), lambda m: m.split(s, 4, axis=-1)]:
        same_error(lambda: call(np), lambda: call(vk))
    with pytest.raises(ValueError, match=r"\[split\] array split does not result in an equal"):
        vk.split(s, 5)


# ---------------------------------------------------------------------------------------------
# roll, tile, repeat


@pytest.mark.parametrize("dtype", DTYPES)
def test_roll(dtype):
    x = sample((3, 4, 2), dtype)
    d = device(x)
    for shift, axis in [(1, None), (-5, None), (2, 0), (-1, -1), (7, 1), ((1, 2), (0, 1)),
                        ((1, -1, 1), (0, 1, 2)), (3, (0, 1)), ((1, 1), (1, 1)), (0, 0), (4, 1),
                        (np.int64(2), np.int32(-2))]:
        check(vk.roll(d, shift, axis), np.roll(x, shift, axis))
    check(vk.roll(x[..., 0].T, 1, 0), np.roll(x[..., 0].T, 1, 0))
    check(vk.roll(np.float32(3), 2), np.roll(np.float32(3), 2))
    check(vk.roll(np.zeros((0, 3), dtype), 2, 1), np.roll(np.zeros((0, 3), dtype), 2, 1))


def test_roll_errors_and_kernels():
    x = np.ones((2, 3))
    for shift, axis in [(1, 2), (1, -3), ((1, 2), (0, 1, 1)), (((1,),), 0)]:
        same_error(lambda: np.roll(x, shift, axis), lambda: vk.roll(x, shift, axis))
    d = device(x)
    assert kernels(lambda: vk.roll(d, 1, 0)) == 2
    assert kernels(lambda: vk.roll(d, (1, 1), (0, 1))) == 4
    assert kernels(lambda: vk.roll(d, 3, 1)) == 1  # nothing moves: a lazy copy
    r = vk.roll(d, 2, 0)
    assert r is not d


@pytest.mark.parametrize("dtype", DTYPES)
def test_tile(dtype):
    for shape, reps in [((2, 3), 2), ((2, 3), (2, 1)), ((2, 3), (3, 1, 2)), ((3,), (2, 2)),
                        ((), 3), ((), ()), ((2, 1, 2), (2,)), ((2, 3), (0, 2)), ((0, 2), 3),
                        ((1,), (1, 1))]:
        x = sample(shape, dtype)
        check(vk.tile(device(x), reps), np.tile(x, reps))
    x = sample((2, 3), dtype)
    check(vk.tile(device(x).T, (2, 2)), np.tile(x.T, (2, 2)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat(dtype):
    x = sample((3, 2), dtype)
    d = device(x)
    for repeats, axis in [(2, None), (3, 0), (2, 1), (2, -1), (0, 0), (1, None),
                          ([1, 0, 2], 0), ([2, 2, 1], -2), ((0, 3), 1), (np.array([2]), 0),
                          ([1, 2, 0, 1, 1, 3], None), (np.array([1, 1, 1]), 0), ([0, 0], 1)]:
        check(vk.repeat(d, repeats, axis), np.repeat(x, repeats, axis))
    check(vk.repeat(d.T, 2, 0), np.repeat(x.T, 2, 0))
    check(vk.repeat(np.float32(2), 3), np.repeat(np.float32(2), 3))
    check(vk.repeat(np.float32(2), [2], axis=-1), np.repeat(np.float32(2), [2], axis=-1))
    check(vk.repeat(vk.asarray(x) + x, vk.asarray([1, 2]), 1), np.repeat(x + x, [1, 2], 1))


def test_tile_repeat_errors_and_kernels():
    x = np.ones((2, 3))
    for call in [lambda m: m.repeat(x, 2, axis=2), lambda m: m.repeat(x, -1),
                 lambda m: m.repeat(x, [1, -1], axis=0), lambda m: m.repeat(x, [1, 2], axis=1),
                 lambda m: m.repeat(np.float32(1), 2, axis=1),
                 lambda m: m.repeat(x, [[1, 2]], axis=0)]:
        same_error(lambda: call(np), lambda: call(vk))
    with pytest.raises(TypeError):  # numpy 2 casts repeats with 'safe' (1.24 truncated 1.5)
        vk.repeat(x, 1.5)
    with pytest.raises(ValueError):
        vk.tile(x, (-1, 2))
    d = device(sample((3, 4), "float32"))
    assert kernels(lambda: vk.tile(d, (2, 3))) == 1
    assert kernels(lambda: vk.tile(d * 2 + 1, (2, 1, 3))) == 1  # the lazy input fuses
    assert kernels(lambda: vk.repeat(d, 3, axis=1)) == 1
    assert kernels(lambda: vk.repeat(d - 1, 2)) == 1
    assert kernels(lambda: vk.repeat(d, [1, 1, 2], axis=0)) == 2  # one per run of equal counts


# ---------------------------------------------------------------------------------------------
# pad


def periodic_pad(x, widths, mode):
    """numpy >= 1.25's pad for the modes that copy x: an index map per axis."""
    index = []
    for n, (lo, hi) in zip(x.shape, widths):
        j = np.arange(-lo, n + hi)
        if mode == "wrap":
            m = j % n
        elif mode == "symmetric":
            m = j % (2 * n)
            m = np.where(m < n, m, 2 * n - 1 - m)
        elif mode == "edge" or n == 1:
            m = np.clip(j, 0, n - 1)
        else:
            p = 2 * (n - 1)
            m = j % p
            m = np.where(m < n, m, p - m)
        index.append(m)
    return x[np.ix_(*index)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
def test_pad_modes(dtype, mode):
    x = sample((3, 4), dtype)
    d = device(x)
    for width in [1, (1, 2), ((0, 2), (3, 1)), ((2,), (1,)), 0, ((1, 1), (0, 0))]:
        check(vk.pad(d, width, mode), np.pad(x, width, mode))
    check(vk.pad(d.T, ((1, 0), (2, 1)), mode), np.pad(x.T, ((1, 0), (2, 1)), mode))
    x3 = sample((2, 3, 2), dtype)
    check(vk.pad(x3, ((1, 1), (1, 2), (2, 1)), mode), np.pad(x3, ((1, 1), (1, 2), (2, 1)), mode))
    check(vk.pad(x[0], 2, mode), np.pad(x[0], 2, mode))
    one = sample((1, 1), dtype)
    check(vk.pad(one, 2, mode), np.pad(one, 2, mode))


@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap"])
def test_pad_wide_periodic(mode):
    """Widths several times the input, where numpy 1.24 itself is wrong for some widths."""
    rng = np.random.default_rng(5)
    for _ in range(12):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 5, ndim))
        widths = [tuple(int(w) for w in rng.integers(0, 10, 2)) for _ in range(ndim)]
        x = rng.integers(0, 100, shape).astype(np.int32)
        check(vk.pad(x, widths, mode), periodic_pad(x, widths, mode))
    # numpy >= 1.25: np.pad([1, 2, 3], (2, 4), "wrap")
    check(vk.pad(np.array([1, 2, 3]), (2, 4), "wrap"), np.array([2, 3, 1, 2, 3, 1, 2, 3, 1]))


def test_pad_constant_values_and_edge_cases():
    x = sample((2, 3), "int32")
    for cv in [7, 2.9, (1, 2), ((1, 2), (3, 4)), [[5], [6]], np.int8(-3)]:
        check(vk.pad(x, ((1, 2), (2, 1)), constant_values=cv),
              np.pad(x, ((1, 2), (2, 1)), constant_values=cv))
    f = sample((2, 3), "float32")
    check(vk.pad(f, 1, "constant", constant_values=np.nan),
          np.pad(f, 1, "constant", constant_values=np.nan))
    check(vk.pad(np.float32(3), 2), np.pad(np.float32(3), 2))  # 0-d: nothing to pad
    e = np.zeros((0, 2), np.float32)
    check(vk.pad(e, 1), np.pad(e, 1))
    check(vk.pad(e, ((0, 0), (1, 1)), "edge"), np.pad(e, ((0, 0), (1, 1)), "edge"))
    p = vk.pad(f, ((1, 0), (0, 2)), "empty")
    assert p.shape == (3, 5) and p.dtype == np.float32
    np.testing.assert_array_equal(p.get()[1:, :3], f)


def test_pad_errors_and_kernels():
    x = np.ones((2, 3))
    for call in [lambda m: m.pad(x, -1), lambda m: m.pad(x, ((1, 2, 3),)),
                 lambda m: m.pad(x, 1.5), lambda m: m.pad(x, 1, "nonsense"),
                 lambda m: m.pad(x, 1, "edge", constant_values=2),
                 lambda m: m.pad(np.ones((0, 2)), 1, "wrap"),
                 lambda m: m.pad(x, ((1, 1), (1, 1), (1, 1)))]:
        same_error(lambda: call(np), lambda: call(vk))
    d = device(sample((3, 4), "float32"))
    assert kernels(lambda: vk.pad(d, 1)) == 2  # the fill, the input
    assert kernels(lambda: vk.pad(d, 1, constant_values=(1, 2))) == 5
    for mode in ["edge", "reflect", "symmetric", "wrap"]:
        assert kernels(lambda: vk.pad(d, 1, mode)) == 5  # the input, then one per side


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
    assert vk.meshgrid() == ()
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


def test_namespace():
    import vkarray._joining as joining
    for name in joining.__all__:
        assert getattr(vk, name) is getattr(joining, name)
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
