"""Assignment through views against numpy: random writes mirrored step by step on a numpy
array, writes seen through other views and other replicas, lazy expressions that keep the
values they had when made, scalar targets and casts. Seeded like views_test.py."""

import operator
import random

import numpy as np
import pytest

import vkarray as vk
from views_testing import DTYPES, REAL_DTYPES, VKF, random_data, random_shape, random_index, np_view, broadcast_source_shape, check, random_reshape_target, random_chain


# ---------------------------------------------------------------------------------------------
# Assignment through random views, mirrored on numpy.

def random_value(r, rng, shape, dtype, x, ref):
    """A value for an assignment into a selection of `shape` and `dtype`, as (vkarray value,
    numpy value, description): Python and numpy scalars, numpy arrays, lists, vkarray arrays,
    views of another vkarray array, lazy expressions, and views of x itself (overlapping)."""
    dtype = np.dtype(dtype)
    kind = r.choice(["python", "numpy_scalar", "numpy", "list", "vk", "vk_view", "vk_expr",
                     "self", "self_expr"])
    # Values of another dtype stay in [0, 50], so that every cast is exact and defined.
    if dtype.kind == "c":
        sources = [dtype, np.dtype(np.float64), np.dtype(np.int32)]
    else:
        sources = [dtype] * 3 + [np.dtype(d) for d in REAL_DTYPES]
    src = r.choice(sources)
    lo, hi = (-40, 40) if src == dtype else (0, 50)
    if kind == "python":
        if dtype.kind == "b":  # other ints: test_python_int_into_bool
            v = r.choice([True, False, 0, 1, 0.0, 2.5])
        elif dtype.kind in "iu":
            v = r.choice([r.randint(0, 100), r.randint(0, 100) + 0.75, True])
        elif dtype.kind == "f":
            v = r.choice([r.randint(-100, 100) / 4, r.randint(-100, 100), False])
        else:
            v = r.choice([complex(r.randint(-9, 9), r.randint(-9, 9)) / 2,
                          r.randint(-100, 100) / 4, r.randint(-9, 9)])
        return v, v, f"python {v!r}"
    if kind == "numpy_scalar":
        v = random_data(rng, (), src, lo, hi)[()]
        return v, v, f"numpy scalar {src}({v})"
    bshape = broadcast_source_shape(r, shape)
    data = random_data(rng, bshape, src, lo, hi)
    if kind == "numpy":
        return data, data, f"numpy {src}{bshape}"
    if kind == "list" and data.size > 0:  # an empty list has lost its shape
        if data.ndim == 0 and dtype.kind == "b":  # a lone int: test_python_int_into_bool
            data = data.astype(bool)
        return data.tolist(), data.tolist(), f"list {src}{bshape}"
    if kind == "list":
        return data, data, f"numpy {src}{bshape}"
    if kind == "vk":
        return vk.asarray(data), data, f"vkarray {src}{bshape}"
    if kind == "vk_view":
        big = random_data(rng, tuple(2 * n for n in bshape), src, lo, hi)
        index = tuple(r.choice([slice(None, None, 2), slice(1, None, 2), slice(None, None, -2)])
                      for _ in bshape)
        return vk.asarray(big)[index], big[index], f"vkarray view {src}{bshape} {index}"
    if kind == "vk_expr":
        src = dtype if dtype.kind == "c" else src
        data = random_data(rng, bshape, src, 0, 25)
        v = vk.asarray(data)
        return v + v, data + data, f"vkarray expression {src}{bshape}"
    # A view of the array being written (or an expression of one), of a shape that broadcasts
    # to the selection.
    for _ in range(200):
        index = random_index(r, ref.shape, int_chance=0.6)
        view_shape = np_view(ref, index).shape
        try:
            if np.broadcast_shapes(view_shape, shape) == shape:
                break
        except ValueError:
            pass
    else:
        return 1, 1, "python 1"
    if kind == "self":
        # numpy 1.24 copies overlapping views of different strides in place, element by
        # element (a[2:6] = a[1:8:2] reads elements it already wrote): the mirror takes the
        # copy that numpy's documented semantics imply.
        return x[index], np_view(ref, index).copy(), f"self view {index!r}"
    with np.errstate(over="ignore"):  # integers wrap, in both
        want = ref[index] + ref[index][::-1] if len(view_shape) else ref[index] + ref[index]
    got = x[index] + x[index][::-1] if len(view_shape) else x[index] + x[index]
    return got, want, f"self expression {index!r}"


def random_lazy_expression(r, x, ref):
    """A lazy vkarray expression reading a random view of x, and numpy's eager result (a view
    where numpy's function returns one, which then follows later writes as numpy's does)."""
    index = random_index(r, ref.shape)
    v, w = x[index], np_view(ref, index)
    choice = r.randrange(5)
    if choice == 0:
        return v + v, w + w, f"[{index!r}] doubled"
    if choice == 1:
        return VKF.copy(v), np.copy(w), f"copy([{index!r}])"
    if choice == 2:
        return v.flatten(), w.flatten(), f"[{index!r}].flatten()"
    if choice == 3:
        target = random_reshape_target(r, w.size)
        return v.reshape(target), w.reshape(target), f"[{index!r}].reshape({target})"
    if w.ndim >= 1:
        return (VKF.ascontiguousarray(v), np.ascontiguousarray(w),
                f"ascontiguousarray([{index!r}])")
    return VKF.copy(v), np.copy(w), f"copy([{index!r}])"


def inplace_op(dtype, r):
    """An in-place operator and an operand that keeps every value exact for dtype."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        return r.choice([(operator.ior, True), (operator.iand, False), (operator.ixor, True)])
    if kind in "iu":
        return r.choice([(operator.iadd, 3), (operator.isub, 2), (operator.imul, 3),
                         (operator.ixor, 5), (operator.ifloordiv, 2)])
    if kind == "f":
        return r.choice([(operator.iadd, 0.5), (operator.imul, -2), (operator.isub, 3)])
    return r.choice([(operator.iadd, 1j), (operator.imul, 2), (operator.isub, 0.5 - 1j)])


@pytest.mark.parametrize("seed", range(48))
def test_random_assignment_sequence(seed):
    """Many steps of x[index] = value (or an in-place operator on a view) mirrored on a numpy
    array; after each step the whole array, views taken before the first step, and lazy
    expressions taken just before the write all match numpy."""
    r, rng = random.Random(seed), np.random.default_rng(seed)
    dtype = DTYPES[seed % len(DTYPES)]
    ref = random_data(rng, random_shape(r), dtype)
    x = vk.asarray(ref)
    held = []
    for _ in range(3):
        got, want, desc = random_chain(r, x, ref, r.randint(1, 3))
        held.append((got, want, desc))
    for step in range(10):
        context = [seed, ref.shape, step]
        lazy_vk, lazy_np, lazy_desc = random_lazy_expression(r, x, ref)
        index = random_index(r, ref.shape)
        context.append(index)
        if r.random() < 0.2:
            op, operand = inplace_op(dtype, r)
            context.append(f"{op.__name__} {operand!r}")
            # numpy 1.24 would promote a 0-d integer array with a Python int (value-based
            # casting of all-scalar operands): the mirror uses the operand in the dtype.
            operand_np = np.asarray(operand, dtype)[()] if ref.dtype.kind in "iu" else operand
            in_place = r.random() < 0.5
            if in_place:
                view = x[index]
                op(view, operand)  # in place: the result is the view itself
            else:
                x[index] = op(x[index], operand)
            with np.errstate(over="ignore"):  # integers wrap, in both
                if in_place:
                    op(np_view(ref, index), operand_np)
                else:
                    ref[index] = op(ref[index], operand_np)
        else:
            target_shape = np_view(ref, index).shape
            value_vk, value_np, value_desc = random_value(r, rng, target_shape, dtype, x, ref)
            context.append(value_desc)
            x[index] = value_vk
            ref[index] = value_np
        check(x, ref, context)
        for got, want, desc in held:
            check(got, want, context + ["held view", desc])
        check(lazy_vk, lazy_np, context + ["lazy expression made before the write", lazy_desc])


@pytest.mark.parametrize("ctx_name", ["ctx1", "ctx3", "ctx_staging"])
def test_writes_through_views_reach_every_replica(ctx_name, request):
    """Assignments, in-place operators and host writes into views, on contexts with one and
    several replicas: every replica follows numpy, and a host write to one replica changes
    that replica only."""
    ctx = request.getfixturevalue(ctx_name)
    r, rng = random.Random(99), np.random.default_rng(99)
    ref = random_data(rng, (4, 5, 3), np.int32)
    x = vk.asarray(ref, context=ctx)
    n = x.read().shape[0]
    view_vk, view_np = x[::-1, 1:4], ref[::-1, 1:4]
    for step in range(8):
        index = random_index(r, ref.shape)
        target_shape = np_view(ref, index).shape
        value = random_data(rng, broadcast_source_shape(r, target_shape), np.int32)
        before_vk, before_np = x[index] * 2, ref[index] * 2
        if step % 2:
            x[index] = vk.asarray(value, context=ctx)
        else:
            x[index] = value
        ref[index] = value
        x[1:3, ::2] += 1
        ref[1:3, ::2] += 1
        for got, want in [(x, ref), (view_vk, view_np), (before_vk, before_np)]:
            np.testing.assert_array_equal(got.read(), np.stack([want] * n), err_msg=str(step))
    if n > 1:
        lazy = x[1:] + 0
        before = np.stack([ref[1:]] * n)
        view_vk.write(np.full(view_np.shape, -9, np.int32), 1)
        want = np.stack([ref] * n)
        want[1][::-1, 1:4] = -9
        np.testing.assert_array_equal(x.read(), want)
        np.testing.assert_array_equal(lazy.read(), before)


@pytest.mark.parametrize("index", [slice(None), 0, Ellipsis, slice(None, None, -1)], ids=repr)
def test_expression_made_after_write_reads_new_values(index):
    x_np = np.array([1.0, 2.0])
    x = vk.asarray(x_np)
    held = x[index] * 2  # kept: the write computes it first, with the old values
    x[index] = 0
    x_np[index] = 0
    check(x[index] * 2, x_np[index] * 2)
    check(x[index] * 2 + 0, x_np[index] * 2 + 0)
    check(held, np.array([1.0, 2.0])[index] * 2)


@pytest.mark.parametrize("index", [
    slice(None, None, -1),
    (slice(None), slice(1, None)),
    (slice(None, None, 2), slice(None, None, -2)),
    slice(1, None), 2, Ellipsis], ids=repr)
def test_view_after_write_with_pending_copy(index):
    x_np = np.arange(12.0).reshape(3, 4)
    x = vk.asarray(x_np)
    view = x[index]
    copied = VKF.copy(x[index])
    x[...] = 28
    x_np[...] = 28
    check(view, x_np[index])
    check(x[index], x_np[index])
    check(copied, np.arange(12.0).reshape(3, 4)[index])


def test_whole_array_write_keeps_numpy_order():
    """A write of a whole array from an expression of other arrays: views taken before see it,
    expressions taken before keep the old values, and later writes to its inputs do not
    reach it."""
    x_np = np.arange(12, dtype=np.float64).reshape(3, 4)
    y_np = np.arange(12, dtype=np.float64).reshape(3, 4) / 4
    x, y = vk.asarray(x_np), vk.asarray(y_np)
    view, old = x[::-1, 1:], x * 1
    x[...] = y * 3 + 1
    y[...] = -1
    x[1] = vk.abs(y[0])
    want = y_np * 3 + 1
    want[1] = 1
    check(x, want)
    check(view, want[::-1, 1:])
    check(old, x_np)
    check(y, np.full((3, 4), -1.0))


@pytest.mark.parametrize("seed", range(24))
def test_random_writes_through_view_functions(seed):
    """Writes into the result of a chain of view functions reach the base exactly where
    numpy's do (numpy decides view or copy); read-only results refuse the write and keep
    every value."""
    r, rng = random.Random(seed), np.random.default_rng(seed)
    dtype = DTYPES[seed % len(DTYPES)]
    ref = random_data(rng, random_shape(r, min_ndim=1), dtype)
    x = vk.asarray(ref)
    for step in range(6):
        got, want, desc = random_chain(r, x, ref, r.randint(1, 3))
        context = (seed, ref.shape, step, desc)
        check(got, want, context)
        value = random_data(rng, broadcast_source_shape(r, want.shape), dtype)
        if not want.flags.writeable:
            assert not got.flags_writeable, context
            with pytest.raises(ValueError, match="read-only"):
                got[...] = value
        else:
            assert got.flags_writeable, context
            got[...] = value
            want[...] = value
        check(got, want, context)
        check(x, ref, context)


def test_rows_from_iteration_are_views():
    ref = np.arange(24, dtype=np.int64).reshape(4, 3, 2)
    x = vk.asarray(ref)
    for i, (row_vk, row_np) in enumerate(zip(x, ref)):
        check(row_vk, row_np, i)
        row_vk *= i + 1
        row_np *= i + 1
        row_vk[::-1, 0] = [7 * i, 8 * i, 9 * i]
        row_np[::-1, 0] = [7 * i, 8 * i, 9 * i]
    check(x, ref)
    assert [int(v) for v in x[1, :, 1]] == list(ref[1, :, 1])


@pytest.mark.parametrize("dtype", DTYPES)
def test_scalar_targets_and_0d_arrays(dtype):
    """0-d arrays (from asarray of a scalar, and from integer indexing) take writes, and
    lazy expressions made before keep their values."""
    rng = np.random.default_rng(3)
    ref = random_data(rng, (), dtype)
    x = vk.asarray(ref)
    before_vk, before_np = x + x, ref + ref
    x[...] = ref[...] = random_data(rng, (), dtype)[()]
    check(x, ref)
    x[()] = ref[()] = np.array(1, dtype)
    check(x, ref)
    check(before_vk, before_np)
    grid_np = random_data(rng, (3, 2), dtype)
    grid = vk.asarray(grid_np)
    element = grid[2, -1]
    element[...] = grid_np[2, -1] = random_data(rng, (), dtype)[()]
    check(grid, grid_np)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.bool_])
def test_casts_on_assignment(dtype):
    """Values of another dtype are converted as numpy's setitem converts them: floats to
    integers truncate toward zero, nonzero to True, ints wrap (numpy's astype)."""
    ref = np.zeros(8, dtype)
    x = vk.asarray(ref)
    floats = np.array([0.25, 1.75, 2.5, 99.9, 0.0, 3.0, 7.5, 127.0])
    x[...] = floats
    ref[...] = floats
    check(x, ref)
    x[::2] = vk.asarray(floats[:4].astype(np.float32))
    ref[::2] = floats[:4].astype(np.float32)
    check(x, ref)
    x[1::2] = 42.9
    ref[1::2] = 42.9
    check(x, ref)
    wide = np.array([300, -1, 255, 128], np.int64)
    x[:4] = vk.asarray(wide)
    ref[:4] = wide.astype(dtype)
    check(x, ref)


def test_complex_assignment():
    ref = np.zeros((3, 3), np.complex64)
    x = vk.asarray(ref)
    x[1] = ref[1] = 2 - 1j
    x[:, 0] = ref[:, 0] = np.float64(0.5)
    x[::-1, 2] = ref[::-1, 2] = [1j, 2, 3.5 + 0.25j]
    x[0, 1:] = vk.asarray(np.array([4, 5], np.int32))
    ref[0, 1:] = [4, 5]
    check(x, ref)
