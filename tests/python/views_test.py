"""Basic indexing and views against numpy: random shapes (0-d, empty and size-1 axes, up to
4-d) and random index tuples (negative steps, out-of-range slice bounds, `...`, None,
integers), chained views, the view functions, and errors (numpy's exception type, and nothing
written).

Random tests are parametrized over seeds, so a failure names the seed that reproduces it. Data
are small integers (quarters for floats), so every value compared here is exact.
"""

import random

import numpy as np
import pytest

import vkarray as vk
from views_testing import DTYPES, VIEW_FUNCTIONS, VKF, NPF, random_data, random_shape, random_index, check, random_view_function, random_chain


# ---------------------------------------------------------------------------------------------
# Reading views.

@pytest.mark.parametrize("seed", range(40))
def test_random_index_reads(seed):
    r, rng = random.Random(seed), np.random.default_rng(seed)
    dtype = DTYPES[seed % len(DTYPES)]
    ref = random_data(rng, random_shape(r), dtype)
    x = vk.asarray(ref)
    for _ in range(8):
        index = random_index(r, ref.shape)
        got = x[index]
        check(got, ref[index], (seed, ref.shape, index))
        assert got.shape == np.shape(ref[index])


@pytest.mark.parametrize("seed", range(40))
def test_random_chained_views(seed):
    """A view of a view of a view, indices and view functions mixed, read back whole and fed
    into an elementwise expression."""
    r, rng = random.Random(seed), np.random.default_rng(seed)
    dtype = DTYPES[seed % len(DTYPES)]
    ref = random_data(rng, random_shape(r), dtype)
    x = vk.asarray(ref)
    for _ in range(4):
        got, want, desc = random_chain(r, x, ref, 3)
        check(got, want, (seed, ref.shape, desc))
        assert got.flags_writeable == want.flags.writeable, (seed, desc)
        # The view as an operand, together with another view of the same buffer.
        flipped_vk, flipped_np = (got[::-1], want[::-1]) if want.ndim else (got, want)
        check(got + flipped_vk, want + flipped_np, (seed, desc, "+"))
        check(got * flipped_vk, want * flipped_np, (seed, desc, "*"))
        check(got == flipped_vk, want == flipped_np, (seed, desc, "=="))
    check(x, ref, seed)  # reading views changed nothing


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_views_in_transcendental_expressions(dtype):
    rng = np.random.default_rng(7)
    ref = random_data(rng, (5, 6), dtype)
    x = vk.asarray(ref)
    got = vk.sin(x[1:, ::-2]) * vk.exp(x.T[::2, :-1].T[:, :3] / 8) + x[:0:-1, 1::2]
    want = np.sin(ref[1:, ::-2]) * np.exp(ref.T[::2, :-1].T[:, :3] / 8) + ref[:0:-1, 1::2]
    host = got.get()
    assert host.dtype == want.dtype and host.shape == want.shape
    if dtype == np.float64:
        np.testing.assert_allclose(host, want, rtol=1e-12, atol=1e-12)
    else:
        np.testing.assert_allclose(host, want, rtol=1e-5, atol=1e-5)


def test_integer_index_of_every_axis_is_a_0d_view():
    ref = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    x = vk.asarray(ref)
    got = x[1, -2, 3]
    assert isinstance(got, vk.ndarray) and got.shape == () and got.ndim == 0
    assert int(got.get()) == ref[1, -2, 3]
    got[...] = -5
    assert x.get()[1, 1, 3] == -5


def test_views_share_the_buffer_and_cost_no_kernels():
    ref = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = vk.asarray(ref)
    x.get()
    before = vk.kernel_count()
    views = [x[1:, ::-2, None, ..., 3], x[..., 0], x[None], x[()], x[-1, -1, -1], x.T, x.mT,
             x.reshape(12, 5), x.ravel(), x.transpose(1, 0, 2), x.swapaxes(0, 2),
             VKF.moveaxis(x, 0, -1), VKF.broadcast_to(x[0], (2, 4, 5)), VKF.flip(x, 1),
             VKF.expand_dims(x, (0, 2)), x[:1].squeeze(0), x.diagonal(), VKF.fliplr(x),
             VKF.flipud(x), VKF.ascontiguousarray(x), VKF.permute_dims(x, (2, 0, 1))]
    views += list(x) + [row[::-1] for row in x[0]]
    assert vk.kernel_count() == before


# ---------------------------------------------------------------------------------------------
# View functions against numpy.

def test_view_functions_are_exported():
    missing = [n for n in VIEW_FUNCTIONS if not callable(getattr(vk, n, None))]
    assert not missing, f"not in the vkarray module: {missing}"


def test_view_functions_are_in_all():
    missing = [n for n in VIEW_FUNCTIONS if n not in vk.__all__]
    assert not missing, f"not in vkarray.__all__: {missing}"


@pytest.mark.parametrize("seed", range(40))
def test_random_view_functions(seed):
    r, rng = random.Random(seed), np.random.default_rng(seed)
    dtype = DTYPES[seed % len(DTYPES)]
    ref = random_data(rng, random_shape(r), dtype)
    x = vk.asarray(ref)
    for _ in range(8):
        desc, fn_vk, fn_np = random_view_function(r, ref)
        got, want = fn_vk(x), fn_np(ref)
        check(got, want, (seed, ref.shape, desc))
        assert got.flags_writeable == want.flags.writeable, (seed, desc)


@pytest.mark.parametrize("shape", [(2, 3, 4), (1, 5, 1), (0, 3), (4,), (), (3, 1, 2, 1)])
def test_view_functions_fixed(shape):
    ref = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    x = vk.asarray(ref)
    ndim = len(shape)
    check(VKF.reshape(x, -1), ref.reshape(-1))
    check(x.reshape(shape + (1,)), ref.reshape(shape + (1,)))
    check(VKF.ravel(x.T), np.ravel(ref.T))
    check(x.T.flatten(), ref.T.flatten())
    check(VKF.transpose(x), np.transpose(ref))
    check(VKF.flip(x), np.flip(ref))
    check(VKF.squeeze(x), np.squeeze(ref))
    check(VKF.expand_dims(x, 0), np.expand_dims(ref, 0))
    check(VKF.expand_dims(x, (0, -1)), np.expand_dims(ref, (0, -1)))
    check(VKF.broadcast_to(x, (2,) + shape), np.broadcast_to(ref, (2,) + shape))
    check(VKF.copy(x), np.copy(ref))
    got = VKF.broadcast_arrays(x, vk.asarray(np.zeros((3, 1) + shape[1:], np.float32)))
    want = np.broadcast_arrays(ref, np.zeros((3, 1) + shape[1:], np.float32))
    assert type(got) is type(want) is list and len(got) == 2  # as numpy 1.24
    for g, w in zip(got, want):
        check(g, w, shape)
    if ndim >= 1:
        check(VKF.flipud(x), np.flipud(ref))
        check(VKF.moveaxis(x, 0, -1), np.moveaxis(ref, 0, -1))
        check(VKF.swapaxes(x, 0, -1), np.swapaxes(ref, 0, -1))
        check(VKF.ascontiguousarray(x[::-1]), np.ascontiguousarray(ref[::-1]))
        check(VKF.ascontiguousarray(x, dtype=np.float64),
              np.ascontiguousarray(ref, dtype=np.float64))
    if ndim >= 2:
        check(x.mT, np.swapaxes(ref, -1, -2))
        check(VKF.matrix_transpose(x), np.swapaxes(ref, -1, -2))
        check(VKF.fliplr(x), np.fliplr(ref))
        check(VKF.diagonal(x), np.diagonal(ref))
        check(x.diagonal(1), ref.diagonal(1))
        check(x.diagonal(-1, 1, 0), ref.diagonal(-1, 1, 0))
        check(VKF.permute_dims(x, tuple(reversed(range(ndim)))), np.transpose(ref))
        check(VKF.moveaxis(x, [0, 1], [-1, -2]), np.moveaxis(ref, [0, 1], [-1, -2]))


@pytest.mark.parametrize("shape, view", [
    ((3, 0), lambda m, a: m.flip(a, 0)),
    ((3, 0, 5), lambda m, a: m.flipud(a)),
    ((3, 0, 5), lambda m, a: m.flipud(a) + 1),
    ((2, 0, 1), lambda m, a: m.flip(a, -3)[1:]),
    ((5, 5, 3, 0), lambda m, a: m.diagonal(a, 3, 2, 1)[:, :, -1:]),
    ((3, 0, 5), lambda m, a: m.flip(a)),
    ((3, 0, 2), lambda m, a: a[::-1, :, 1:]),
    ((5, 5, 3, 0), lambda m, a: m.diagonal(a, 3, 2, 1)),
    ((3, 4, 0), lambda m, a: m.diagonal(a, -1)[::-1]),
], ids=repr)
def test_views_of_empty_arrays(shape, view):
    ref = np.zeros(shape, np.float32)
    check(view(VKF, vk.asarray(ref)), view(NPF, ref))


def test_ascontiguousarray_of_empty_array():
    ref = np.zeros((0, 3, 3), np.float32)
    got = VKF.ascontiguousarray(VKF.diagonal(vk.asarray(ref), 0, 1, 2))
    want = np.ascontiguousarray(np.diagonal(ref, 0, 1, 2))
    check(got, want)
    assert got.flags_writeable == want.flags.writeable


@pytest.mark.parametrize("index", [
    slice(None, None, 2), slice(None, None, -1),
    (slice(None, None, -2), slice(None, 1)),
    (slice(None), 0),
    (slice(None, None, -1), 1),
    (slice(1, 2), slice(None, None, -1))], ids=repr)
def test_ravel_copies_when_not_contiguous(index):
    ref = np.arange(8, dtype=np.int32).reshape(4, 2)
    x = vk.asarray(ref)
    for got, want in [(x[index].ravel(), ref[index].ravel()),
                      (VKF.ravel(x[index]), np.ravel(ref[index]))]:
        assert not np.shares_memory(want, ref)
        got[...] = want[...] = -1
        check(got, want, index)
        check(x, ref, index)


@pytest.mark.parametrize("value", [3, -1, 256], ids=repr)
def test_python_int_into_bool(value):
    ref = np.zeros(4, bool)
    x = vk.asarray(ref)
    x[1::2] = value
    ref[1::2] = value
    check(x, ref)


def test_reshape_view_or_copy_as_numpy():
    """reshape is a view where numpy's is (writes reach the base), a copy elsewhere."""
    ref = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = vk.asarray(ref)
    cases = [
        (lambda a: a.reshape(2, 2, 6), True),
        (lambda a: a[:, ::2].reshape(12), True),  # rows of 3 with stride 2 join up
        (lambda a: a[:, :3].reshape(12), False),
        (lambda a: a[::2].reshape(3, 4), False),  # merges rows that are not adjacent
        (lambda a: a[::2].reshape(2, 3, 2), True),  # splits contiguous rows
        (lambda a: a.T.reshape(24), False),
        (lambda a: a.T.reshape(6, 2, 2), True),   # splits an axis of the transpose
        (lambda a: a[:, None, :].reshape(4, 6), True),
    ]
    for i, (fn, is_view) in enumerate(cases):
        got, want = fn(x), fn(ref)
        assert np.shares_memory(want, ref) == is_view, i
        got[...] = want[...] = -(i + 1)
        check(x, ref, i)
        check(got, want, i)


def test_copy_functions_do_not_follow_writes():
    ref = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = vk.asarray(ref)
    copies_vk = [VKF.copy(x), x.copy(), x.flatten(), VKF.ascontiguousarray(x.T), x.T.ravel()]
    copies_np = [np.copy(ref), ref.copy(), ref.flatten(), np.ascontiguousarray(ref.T),
                 ref.T.ravel()]
    x[...] = 0
    ref[...] = 0
    for i, (got, want) in enumerate(zip(copies_vk, copies_np)):
        check(got, want, i)
        got[...] = 9  # and writes into a copy stay there
    check(x, ref)


def test_read_only_views():
    ref = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = vk.asarray(ref)
    for view in [VKF.broadcast_to(x, (2, 3, 4)), VKF.broadcast_to(x[0], (3, 4)), x.diagonal(),
                 VKF.diagonal(x, 1), VKF.broadcast_to(x, (2, 3, 4))[1:, ::-1],
                 VKF.broadcast_to(x, (3, 4)).T]:
        assert not view.flags_writeable
        for write in [lambda v: v.__setitem__(Ellipsis, 1.0),
                      lambda v: v.__setitem__(0, np.zeros(v.shape[1:], np.float32)),
                      lambda v: v.__iadd__(1)]:
            with pytest.raises(ValueError, match="assignment destination is read-only"):
                write(view)
        with pytest.raises(ValueError):
            vk.add(x[0], 1, out=view)
    check(x, ref)


# ---------------------------------------------------------------------------------------------
# Errors: numpy's exception type, and nothing written.

def numpy_exception(fn):
    """The built-in exception type that fn raises (numpy's own, such as UFuncTypeError, as
    the built-in it derives from first), or None."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return next(t for t in type(e).__mro__ if t.__module__ == "builtins")
    return None


BAD_INDICES = [5, -6, (0, 9), (1, 2, 3), (0, 0, 0, 0), 1.0, (0, 1.5), np.float64(2),
               slice(1.0, 3), slice(None, 2.5), slice(None, None, 1.0), slice(None, None, 0),
               (Ellipsis, Ellipsis), (0, Ellipsis, 1, Ellipsis), "a", (slice(None), 4)]


@pytest.mark.parametrize("index", BAD_INDICES, ids=repr)
def test_bad_index(index):
    ref = np.arange(20, dtype=np.float32).reshape(5, 4)
    x = vk.asarray(ref)
    want = numpy_exception(lambda: ref[index])
    assert want is not None
    with pytest.raises(want):
        x[index]
    assert numpy_exception(lambda: ref.__setitem__(index, 1.0)) is want
    with pytest.raises(want):
        x[index] = 1.0
    with pytest.raises(want):
        x[index] = vk.asarray(np.ones(4, np.float32))
    check(x, ref)


def test_too_many_indices_message():
    x = vk.asarray(np.zeros((2, 3)))
    with pytest.raises(IndexError, match="too many indices for array: array is "
                                         "2-dimensional, but 3 were indexed"):
        x[0, 1, 2]


@pytest.mark.parametrize("name, write", [
    ("numpy shape", lambda m, a: a.__setitem__(slice(None, 2), np.ones((3, 4)))),
    ("list shape", lambda m, a: a.__setitem__(0, [1, 2, 3])),
    ("ragged list", lambda m, a: a.__setitem__(0, [[1, 2], [3]])),
    ("array of views", lambda m, a: a.__setitem__((slice(None), 0), a[0])),
    ("vk/np array", lambda m, a: a.__setitem__(slice(1, None, 2), m.asarray(np.ones((2, 3))))),
    ("0-d target", lambda m, a: a.__setitem__((1, 1), m.asarray(np.ones(2)))),
    ("complex into float", lambda m, a: a.__setitem__(Ellipsis, 1 + 1j)),
    ("in place shape", lambda m, a: a[::2].__iadd__(np.ones(5))),
    ("out shape", lambda m, a: m.add(a[0], 1, out=a[:, :2])),
    ("out dtype", lambda m, a: m.add(a[0], 1.5, out=m.asarray(np.zeros(4, np.int32)))),
    ("string", lambda m, a: a.__setitem__(0, "abc")),
])
def test_failed_assignment_writes_nothing(name, write):
    ref = np.arange(20, dtype=np.float32).reshape(5, 4)
    x = vk.asarray(ref)
    view, lazy = x[::-1, 1:], x * 2
    want = numpy_exception(lambda: write(NPF, ref.copy()))
    assert want is not None, name
    with pytest.raises(want):
        write(VKF, x)
    check(x, ref, name)
    check(view, ref[::-1, 1:], name)
    check(lazy, ref * 2, name)


@pytest.mark.parametrize("name, call", [
    ("reshape size", lambda m, a: m.reshape(a, (5,))),
    ("reshape method", lambda m, a: a.reshape(4, 4)),
    ("reshape two -1", lambda m, a: a.reshape(-1, -1)),
    ("reshape -1 of 0", lambda m, a: a[:0].reshape(0, -1)),
    ("squeeze size 3", lambda m, a: m.squeeze(a, 0)),
    ("moveaxis repeated", lambda m, a: m.moveaxis(a, [0, 0], [1, 0])),
    ("transpose repeated", lambda m, a: m.transpose(a, (0, 0))),
    ("transpose short", lambda m, a: m.transpose(a, (0,))),
    ("diagonal same axes", lambda m, a: m.diagonal(a, 0, 1, 1)),
    ("broadcast_to", lambda m, a: m.broadcast_to(a, (3, 5))),
    ("broadcast_to fewer axes", lambda m, a: m.broadcast_to(a, (4,))),
    ("broadcast_arrays", lambda m, a: m.broadcast_arrays(a, m.asarray(np.zeros(3)))),
    ("fliplr 1-d", lambda m, a: m.fliplr(a[0])),
    ("flipud 0-d", lambda m, a: m.flipud(a[0, 0])),
    ("mT 1-d", lambda m, a: a[0].mT if m is VKF else np.swapaxes(a[0], -1, -2)),
])
def test_view_function_errors(name, call):
    ref = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = vk.asarray(ref)
    want = numpy_exception(lambda: call(NPF, ref))
    assert want is not None, name
    with pytest.raises(want):
        call(VKF, x)


@pytest.mark.parametrize("name, call", [
    ("swapaxes", lambda m, a: m.swapaxes(a, 0, 5)),
    ("expand_dims", lambda m, a: m.expand_dims(a, 5)),
    ("squeeze axis", lambda m, a: m.squeeze(a, 4)),
    ("moveaxis", lambda m, a: m.moveaxis(a, 0, 3)),
    ("flip", lambda m, a: m.flip(a, 2)),
    ("diagonal", lambda m, a: m.diagonal(a, 0, 0, 2)),
    ("transpose", lambda m, a: m.transpose(a, (0, 2))),
])
def test_axis_errors_are_value_and_index_errors(name, call):
    ref = np.arange(12, dtype=np.float32).reshape(3, 4)
    with pytest.raises(np.AxisError):
        call(NPF, ref)
    with pytest.raises(ValueError):
        call(VKF, vk.asarray(ref))
    with pytest.raises(IndexError):
        call(VKF, vk.asarray(ref))
