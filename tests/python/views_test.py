"""Basic indexing, views and assignment against numpy: random shapes (0-d, empty and size-1
axes, up to 4-d) and random index tuples (negative steps, out-of-range slice bounds, `...`,
None, integers), chained views, writes through views mirrored step by step on a numpy array,
writes seen through other views, lazy expressions that keep the values they had when made,
in-place operators and out= on views, the view functions, overlapping source and destination,
kernel counts, and errors (numpy's exception type, and nothing written).

Random tests are parametrized over seeds, so a failure names the seed that reproduces it. Data
are small integers (quarters for floats), so every value compared here is exact.
"""

import operator
import random

import numpy as np
import pytest

import vkarray as vk

DTYPES = [np.float32, np.float64, np.int8, np.uint8, np.int32, np.int64, np.bool_, np.complex64]
REAL_DTYPES = [d for d in DTYPES if d is not np.complex64]

# numpy's module-level view functions under their vkarray names; numpy 1.24 has no
# permute_dims or matrix_transpose.
VIEW_FUNCTIONS = ["reshape", "ravel", "transpose", "permute_dims", "matrix_transpose",
                  "swapaxes", "moveaxis", "broadcast_to", "broadcast_arrays", "expand_dims",
                  "squeeze", "flip", "fliplr", "flipud", "diagonal", "ascontiguousarray", "copy"]


class _VkFunctions:
    """vkarray's view functions by name: the public vk.<name>, else the extension's own (see
    test_view_functions_are_exported), so the semantics are tested either way."""

    def __getattr__(self, name):
        fn = getattr(vk, name, None)
        return fn if fn is not None else getattr(vk._vkarray, name)


class _NpFunctions:
    """numpy under the names vkarray uses."""

    def __getattr__(self, name):
        if name == "permute_dims":
            return np.transpose
        if name == "matrix_transpose":
            return lambda a: np.swapaxes(a, -1, -2)
        return getattr(np, name)


VKF = _VkFunctions()
NPF = _NpFunctions()


# ---------------------------------------------------------------------------------------------
# Random data, shapes and indices.

def random_data(rng, shape, dtype, lo=-40, hi=40):
    """Exact small values of `dtype`: integers in [lo, hi] (clamped to the dtype), quarters
    for floats, quarters on both parts for complex, coin flips for bool."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.asarray(rng.random(shape) < 0.5)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.asarray(rng.integers(max(lo, info.min), min(hi, info.max), size=shape,
                                       endpoint=True), dtype)
    re = rng.integers(4 * lo, 4 * hi, size=shape, endpoint=True) / 4
    if dtype.kind == "c":
        im = rng.integers(4 * lo, 4 * hi, size=shape, endpoint=True) / 4
        return np.asarray(re + 1j * im, dtype)
    return np.asarray(re, dtype)


def random_shape(r, min_ndim=0, max_ndim=4):
    """Up to 4 axes of extent 0..5, size-1 and empty axes included."""
    ndim = r.randint(min_ndim, max_ndim)
    return tuple(r.choice([0, 1, 1, 2, 3, 3, 4, 5]) if r.random() < 0.9 else 1
                 for _ in range(ndim))


def random_int(r, value):
    """`value` as a Python int or as a numpy integer of some width."""
    if r.random() < 0.2:
        return r.choice([np.int64, np.int32, np.int16, np.uint8 if value >= 0 else np.int8])(value)
    return value


def random_slice(r, n):
    """A slice of an axis of extent n: bounds None, in range, negative or past either end;
    steps of either sign."""
    def bound():
        return None if r.random() < 0.35 else random_int(r, r.randint(-n - 3, n + 3))
    return slice(bound(), bound(), r.choice([None, 1, 1, 2, 3, -1, -1, -2, -3]))


def random_index(r, shape, int_chance=0.25):
    """A random basic index of an array of `shape`: integers, slices, one `...` (standing for
    zero or more axes), None, and trailing axes left out; a bare item or a tuple."""
    items = []
    for n in shape:
        if n > 0 and r.random() < int_chance:
            items.append(random_int(r, r.randint(-n, n - 1)))
        else:
            items.append(random_slice(r, n))
    choice = r.random()
    if choice < 0.3:
        i = r.randint(0, len(items))
        j = r.randint(i, len(items))
        items[i:j] = [Ellipsis]
    elif choice < 0.6:
        del items[r.randint(0, len(items)):]
    for _ in range(r.choice([0, 0, 0, 1, 2])):
        items.insert(r.randint(0, len(items)), None)
    if len(items) == 1 and r.random() < 0.5:
        return items[0]
    return tuple(items)


def np_view(a, index):
    """numpy's a[index] as an array that is a view: where numpy returns a scalar (every axis
    indexed by an integer), the same selection with a trailing `...`, a 0-d view."""
    got = a[index]
    if isinstance(got, np.ndarray):
        return got
    index = index if isinstance(index, tuple) else (index,)
    return a[index + (Ellipsis,)]


def broadcast_source_shape(r, shape):
    """A shape that broadcasts to `shape`: leading axes dropped, some extents set to 1.
    (Extra leading axes of extent 1, which numpy's assignment also accepts, are tested on
    their own in test_value_with_extra_leading_unit_axes.)"""
    out = [1 if r.random() < 0.3 else n for n in shape]
    del out[:r.randint(0, len(out))]
    return tuple(out)


def check(got, want, context=""):
    """got (a vkarray ndarray) equals want exactly: dtype, shape and values."""
    assert isinstance(got, vk.ndarray), (type(got), context)
    want = np.asarray(want)
    host = got.get()
    assert (host.dtype, host.shape) == (want.dtype, want.shape), (host.dtype, host.shape,
                                                                  want.dtype, want.shape,
                                                                  context)
    np.testing.assert_array_equal(host, want, err_msg=str(context))


# ---------------------------------------------------------------------------------------------
# View functions as (description, vkarray call, numpy call), chosen at random for a shape.

def random_permutation(r, ndim):
    perm = list(range(ndim))
    r.shuffle(perm)
    return perm


def random_reshape_target(r, size, ndim_max=4):
    """A random shape of `size` elements, sometimes with one extent -1."""
    if size == 0:
        shape = [r.choice([1, 2, 3]) for _ in range(r.randint(0, 3))]
        shape.insert(r.randint(0, len(shape)), 0)
        return tuple(shape)
    factors, n, p = [], size, 2
    while n > 1:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    shape = [1] * r.randint(1, ndim_max)
    for f in factors:
        shape[r.randrange(len(shape))] *= f
    if r.random() < 0.4:
        shape[r.randrange(len(shape))] = -1
    return tuple(shape)


def random_view_function(r, ref):
    """One of numpy's shape/view functions that applies to the numpy array `ref`, with random
    arguments, as (description, fn(vkarray array), fn(numpy array)). Cases with tests of their
    own: ravel of a non-contiguous array (test_ravel_copies_when_not_contiguous), flips and
    diagonals of empty arrays (test_views_of_empty_arrays) and ascontiguousarray of empty ones
    (test_ascontiguousarray_of_empty_array)."""
    shape, ndim, size = ref.shape, ref.ndim, ref.size
    options = []

    def add(desc, fn_vk, fn_np):
        options.append((desc, fn_vk, fn_np))

    add("T", lambda a: a.T, lambda a: a.T)
    add("transpose()", lambda a: a.transpose(), lambda a: a.transpose())
    perm = random_permutation(r, ndim)
    add(f"transpose({perm})", lambda a: VKF.transpose(a, perm), lambda a: np.transpose(a, perm))
    add(f"permute_dims({perm})", lambda a: VKF.permute_dims(a, perm),
        lambda a: np.transpose(a, perm))
    add(f".transpose(*{perm})", lambda a: a.transpose(*perm), lambda a: a.transpose(*perm))
    target = random_reshape_target(r, size)
    add(f"reshape({target})", lambda a: VKF.reshape(a, target), lambda a: np.reshape(a, target))
    add(f".reshape(*{target})", lambda a: a.reshape(*target), lambda a: a.reshape(*target))
    if ref.flags.c_contiguous:
        add("ravel", lambda a: VKF.ravel(a), lambda a: np.ravel(a))
        add(".ravel", lambda a: a.ravel(), lambda a: a.ravel())
    add(".flatten", lambda a: a.flatten(), lambda a: a.flatten())
    add("copy", lambda a: VKF.copy(a), lambda a: np.copy(a))
    add(".copy", lambda a: a.copy(), lambda a: a.copy())
    # numpy's flip of a 0-d array is a scalar (a copy); its 0-d view is a[...].
    flips = size > 0
    if flips:
        add("flip", lambda a: VKF.flip(a), lambda a: np.flip(a) if a.ndim else a[...])
    axes = sorted({r.randint(0, ndim) for _ in range(r.randint(1, 2))})
    add(f"expand_dims({axes})", lambda a: VKF.expand_dims(a, tuple(axes)),
        lambda a: np.expand_dims(a, tuple(axes)))
    neg = -1 - r.randint(0, ndim)
    add(f"expand_dims({neg})", lambda a: VKF.expand_dims(a, neg),
        lambda a: np.expand_dims(a, neg))
    add("squeeze()", lambda a: VKF.squeeze(a), lambda a: np.squeeze(a))
    add(".squeeze()", lambda a: a.squeeze(), lambda a: a.squeeze())
    ones = [i for i, n in enumerate(shape) if n == 1]
    if ones:
        sq = tuple(r.sample(ones, r.randint(1, len(ones))))
        add(f"squeeze({sq})", lambda a: VKF.squeeze(a, sq), lambda a: np.squeeze(a, sq))
    bshape = tuple(r.choice([1, 2]) for _ in range(r.randint(0, 2))) + tuple(
        r.choice([2, 3]) if n == 1 and r.random() < 0.5 else n for n in shape)
    add(f"broadcast_to({bshape})", lambda a: VKF.broadcast_to(a, bshape),
        lambda a: np.broadcast_to(a, bshape))
    if ndim >= 1:
        ax = r.randint(-ndim, ndim - 1)
        if flips:
            add(f"flip({ax})", lambda a: VKF.flip(a, ax), lambda a: np.flip(a, ax))
            add("flipud", lambda a: VKF.flipud(a), lambda a: np.flipud(a))
        if size > 0:
            add("ascontiguousarray", lambda a: VKF.ascontiguousarray(a),
                lambda a: np.ascontiguousarray(a))
        i, j = r.randint(-ndim, ndim - 1), r.randint(-ndim, ndim - 1)
        add(f"swapaxes({i}, {j})", lambda a: VKF.swapaxes(a, i, j), lambda a: np.swapaxes(a, i, j))
        add(f".swapaxes({i}, {j})", lambda a: a.swapaxes(i, j), lambda a: a.swapaxes(i, j))
        k = r.randint(1, ndim)
        src, dst = r.sample(range(ndim), k), r.sample(range(-ndim, 0), k)
        if len({d % ndim for d in dst}) == k:
            add(f"moveaxis({src}, {dst})", lambda a: VKF.moveaxis(a, src, dst),
                lambda a: np.moveaxis(a, src, dst))
        s1, d1 = r.randrange(ndim), r.randrange(ndim)
        add(f"moveaxis({s1}, {d1})", lambda a: VKF.moveaxis(a, s1, d1),
            lambda a: np.moveaxis(a, s1, d1))
    if ndim >= 2:
        add("mT", lambda a: a.mT, lambda a: np.swapaxes(a, -1, -2))
        add("matrix_transpose", lambda a: VKF.matrix_transpose(a),
            lambda a: np.swapaxes(a, -1, -2))
        if flips:
            add("fliplr", lambda a: VKF.fliplr(a), lambda a: np.fliplr(a))
        a1, a2 = r.sample(range(-ndim, ndim), 2)
        if a1 % ndim != a2 % ndim and size > 0:
            off = r.randint(-3, 3)
            add(f"diagonal({off}, {a1}, {a2})", lambda a: VKF.diagonal(a, off, a1, a2),
                lambda a: np.diagonal(a, off, a1, a2))
            add(f".diagonal({off}, {a1}, {a2})", lambda a: a.diagonal(off, a1, a2),
                lambda a: a.diagonal(off, a1, a2))
        if size > 0:
            add(".diagonal()", lambda a: a.diagonal(), lambda a: a.diagonal())
    return r.choice(options)


def random_chain(r, x, ref, depth):
    """`depth` random steps, each an index or a view function, applied to x and to its numpy
    mirror ref alike; returns (vkarray result, numpy result, description)."""
    desc = []
    for _ in range(depth):
        if r.random() < 0.5:
            index = random_index(r, ref.shape)
            x, ref = x[index], np_view(ref, index)
            desc.append(f"[{index!r}]")
        else:
            name, fn_vk, fn_np = random_view_function(r, ref)
            x, ref = fn_vk(x), fn_np(ref)
            desc.append(name)
    return x, ref, " ".join(desc)


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


# ---------------------------------------------------------------------------------------------
# In-place operators and out= on views.

@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.complex64])
def test_inplace_operators_on_views(dtype):
    rng = np.random.default_rng(11)
    ref = random_data(rng, (6, 5), dtype, 0, 20)
    x = vk.asarray(ref)
    x[::2] += 1
    ref[::2] += 1
    v, w = x[1:, ::-1], ref[1:, ::-1]
    v *= 2
    w *= 2
    x[:, 1] -= x[:, 0]
    ref[:, 1] -= ref[:, 0]
    x.T[1:3] += x[0, :2][:, None]
    ref.T[1:3] += ref[0, :2][:, None]
    t = x[2]
    t += vk.asarray(ref[3])
    ref[2] += ref[3]
    check(x, ref)
    check(v, w)


@pytest.mark.parametrize("seed", range(12))
def test_out_into_views(seed):
    r, rng = random.Random(seed), np.random.default_rng(seed)
    dtype = [np.float32, np.float64, np.int32, np.int64][seed % 4]
    ref_c = random_data(rng, (6, 4), dtype)
    c = vk.asarray(ref_c)
    for step in range(4):
        index = random_index(r, ref_c.shape, int_chance=0.3)
        target = np_view(ref_c, index)
        # One input has the output's shape (out larger than the inputs' broadcast shape is
        # test_out_broadcasts_inputs_to_its_shape).
        a = random_data(rng, target.shape, dtype)
        b = random_data(rng, broadcast_source_shape(r, target.shape), dtype)
        if r.random() < 0.5:
            a, b = b, a
        fn = r.choice(["add", "multiply", "subtract", "maximum"])
        lazy_vk, lazy_np = c + c, ref_c + ref_c
        result = getattr(vk, fn)(vk.asarray(a), vk.asarray(b), out=c[index])
        getattr(np, fn)(a, b, out=target)
        context = (seed, step, index, fn)
        check(result, target, context)
        check(c, ref_c, context)
        check(lazy_vk, lazy_np, context)


@pytest.mark.parametrize("out_index", [Ellipsis, (slice(None, None, 2), slice(1, None))],
                         ids=["whole", "view"])
def test_out_broadcasts_inputs_to_its_shape(out_index):
    ref = np.zeros((6, 4), np.float32)
    out = vk.asarray(ref)
    target = ref[out_index]
    row = np.arange(target.shape[-1], dtype=np.float32)
    vk.add(vk.asarray(row), 1, out=out[out_index])
    np.add(row, 1, out=target)
    check(out, ref)


@pytest.mark.parametrize("kind", ["numpy", "vk", "list"])
@pytest.mark.parametrize("index, value_shape", [
    (0, (1, 4)), ((1, 2), (1,)), ((slice(None, None, -2),), (1, 1, 4)), (Ellipsis, (1, 3, 1)),
], ids=repr)
def test_value_with_extra_leading_unit_axes(index, value_shape, kind):
    ref = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = vk.asarray(ref)
    value = np.full(value_shape, -7, np.int32)
    ref[index] = value
    x[index] = {"numpy": value, "vk": vk.asarray(value), "list": value.tolist()}[kind]
    check(x, ref)


def test_out_view_with_lazy_inputs_is_one_kernel():
    a = vk.asarray(np.arange(8, dtype=np.float32))
    b = vk.asarray(np.ones(8, np.float32))
    c = vk.asarray(np.zeros(16, np.float32))
    before = vk.kernel_count()
    vk.add(a * 2, b, out=c[::2])
    assert vk.kernel_count() - before == 1
    want = np.zeros(16, np.float32)
    want[::2] = np.arange(8) * 2 + 1
    check(c, want)


# ---------------------------------------------------------------------------------------------
# Kernel counts of writes.

FUSED_WRITES = {
    "scalar": lambda x, y: x.__setitem__((slice(None, None, 2), 1), 5.0),
    "numpy array": lambda x, y: x.__setitem__(slice(1, 3), np.ones((2, 6), np.float32)),
    "list": lambda x, y: x.__setitem__((Ellipsis, 0), [1, 2, 3, 4, 5, 6]),
    "vk array": lambda x, y: x.__setitem__(slice(None, None, -1), vk.ones((6,), vk.float32)),
    "expression of another array": lambda x, y: x.__setitem__(slice(None), y.T[::-1] * 3 + 1),
    "in place": lambda x, y: x[::2].__iadd__(1),
    "in place with a view": lambda x, y: x[::2].__imul__(x[::2]),
    "disjoint halves": lambda x, y: x.__setitem__(slice(None, 3), x[3:]),
}
# Values that read the destination buffer, only at the elements written or outside them:
# write.h fuses these into the writing kernel too.
FUSED_WRITES_READING_DEST = {
    "same elements": lambda x, y: x.__setitem__(slice(1, None, 2), x[1::2] * 2 + x[1::2]),
    "disjoint expression": lambda x, y: x.__setitem__(slice(None, 3), x[3:] * x[3:] - 1),
    "disjoint scaled": lambda x, y: x.__setitem__((slice(None), slice(3, None)), x[:, :3] * 2),
}


def _count_kernels(write):
    """Kernels dispatched by write(x, y), x and y evaluated 6x6 float32 arrays."""
    x = vk.asarray(np.arange(36, dtype=np.float32).reshape(6, 6))
    y = vk.asarray(np.linspace(-1, 1, 36, dtype=np.float32).reshape(6, 6))
    x.get()
    y.get()
    before = vk.kernel_count()
    write(x, y)
    x.get()  # a write may be deferred until the buffer is read; it still counts here
    return vk.kernel_count() - before


@pytest.mark.parametrize("name", sorted(FUSED_WRITES))
def test_fused_write_is_one_kernel(name):
    assert _count_kernels(FUSED_WRITES[name]) == 1, name


@pytest.mark.parametrize("name", sorted(FUSED_WRITES_READING_DEST))
def test_fused_write_reading_destination_is_one_kernel(name):
    assert _count_kernels(FUSED_WRITES_READING_DEST[name]) == 1, name


def test_named_value_reading_destination_keeps_its_value():
    """A value bound to a name is computed before the write (2 kernels) and keeps the values
    it was made from; a temporary of the same statement fuses (1 kernel, above)."""
    ref = np.arange(36, dtype=np.float32).reshape(6, 6)
    x = vk.asarray(ref)
    x.get()
    t = x[1::2] * 2 + x[1::2]
    before = vk.kernel_count()
    x[1::2] = t
    assert vk.kernel_count() - before == 2
    want = ref[1::2] * 2 + ref[1::2]
    ref[1::2] = want
    check(x, ref)
    check(t, want)


def test_fused_writes_reading_destination_values():
    for name, write in FUSED_WRITES_READING_DEST.items():
        ref = np.arange(36, dtype=np.float32).reshape(6, 6)
        x = vk.asarray(ref)
        write(x, None)
        write(ref, None)
        check(x, ref, name)


def test_view_of_lazy_array_computes_it_once():
    z = vk.zeros((4, 4))
    before = vk.kernel_count()
    z[1:]
    z.T[::-1]
    assert vk.kernel_count() - before == 1


# ---------------------------------------------------------------------------------------------
# Overlapping source and destination.

OVERLAP_CASES = {
    "a[1:] = a[:-1]": lambda m, a: a.__setitem__(slice(1, None), a[:-1]),
    "a[:-1] = a[1:]": lambda m, a: a.__setitem__(slice(None, -1), a[1:]),
    "a[::-1] = a": lambda m, a: a.__setitem__(slice(None, None, -1), a),
    "a[:] = a[::-1]": lambda m, a: a.__setitem__(slice(None), a[::-1]),
    "a[::2] = a[1::2]": lambda m, a: a.__setitem__(slice(None, None, 2), a[1::2]),
    "a[1::2] = a[::2]": lambda m, a: a.__setitem__(slice(1, None, 2), a[::2]),
    "a[2:] = a[:-2] * 2 + a[2:]": lambda m, a: a.__setitem__(slice(2, None),
                                                             a[:-2] * 2 + a[2:]),
    "a[1:] += a[:-1]": lambda m, a: a[1:].__iadd__(a[:-1]),
    "a[::-1] += a": lambda m, a: a[::-1].__iadd__(a),
    "add(a[:-1], a[1:], out=a[1:])": lambda m, a: m.add(a[:-1], a[1:], out=a[1:]),
    "a[1:3] = a[0]": lambda m, a: a.__setitem__(slice(1, 3), a[0]),
    "a[...] = a[3]": lambda m, a: a.__setitem__(Ellipsis, a[3]),
}
OVERLAP_CASES_2D = {
    "a[:] = a.T": lambda m, a: a.__setitem__(slice(None), a.T),
    "a[...] = a.T + a": lambda m, a: a.__setitem__(Ellipsis, a.T + a),
    "a[1:, 1:] = a[:-1, :-1]": lambda m, a: a.__setitem__((slice(1, None), slice(1, None)),
                                                           a[:-1, :-1]),
    "a[:-1, :-1] = a[1:, 1:]": lambda m, a: a.__setitem__((slice(None, -1), slice(None, -1)),
                                                           a[1:, 1:]),
    "a[:, ::-1] = a": lambda m, a: a.__setitem__((slice(None), slice(None, None, -1)), a),
    "a[0] = a[:, 0]": lambda m, a: a.__setitem__(0, a[:, 0]),
    "a[:, 1:] = a[:, :1]": lambda m, a: a.__setitem__((slice(None), slice(1, None)), a[:, :1]),
    "a.T[1:] = a[:-1]": lambda m, a: a.T.__setitem__(slice(1, None), a[:-1]),
    "a[1:, 1:] += a[:-1, :-1]": lambda m, a: a[1:, 1:].__iadd__(a[:-1, :-1]),
    "a[:] = a.mT[::-1]": lambda m, a: a.__setitem__(slice(None), m.matrix_transpose(a)[::-1]),
    "a[::2, ::2] = a[1::2, 1::2]": lambda m, a: a.__setitem__(
        (slice(None, None, 2), slice(None, None, 2)), a[1::2, 1::2]),
    "diagonal: a[:, 0] = a.diagonal()": lambda m, a: a.__setitem__((slice(None), 0),
                                                                    a.diagonal()),
}


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.complex64])
@pytest.mark.parametrize("case", sorted(OVERLAP_CASES))
def test_overlap_1d(case, dtype):
    ref = random_data(np.random.default_rng(5), (8,), dtype)
    x = vk.asarray(ref)
    held_vk, held_np = x[1:-1:3], ref[1:-1:3]
    lazy_vk, lazy_np = x[::-1] * 1, ref[::-1] * 1
    OVERLAP_CASES[case](VKF, x)
    OVERLAP_CASES[case](NPF, ref)
    check(x, ref, case)
    check(held_vk, held_np, case)
    check(lazy_vk, lazy_np, case)


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.complex64])
@pytest.mark.parametrize("case", sorted(OVERLAP_CASES_2D))
def test_overlap_2d(case, dtype):
    ref = random_data(np.random.default_rng(6), (6, 6), dtype)
    x = vk.asarray(ref)
    lazy_vk, lazy_np = x.T - x, ref.T - ref
    OVERLAP_CASES_2D[case](VKF, x)
    OVERLAP_CASES_2D[case](NPF, ref)
    check(x, ref, case)
    check(lazy_vk, lazy_np, case)


@pytest.mark.parametrize("seed", range(24))
def test_random_overlapping_windows(seed):
    """x[window1] = f(x[window2]) for two windows of the same shape (steps of either sign)
    within one array, plain, as an expression reading both, and in place."""
    r, rng = random.Random(seed), np.random.default_rng(seed)
    dtype = [np.float32, np.int32, np.float64, np.uint8][seed % 4]
    shape = random_shape(r, min_ndim=1, max_ndim=3)
    shape = tuple(max(n, 2) * 2 for n in shape)
    ref = random_data(rng, shape, dtype, 0, 9)
    x = vk.asarray(ref)

    def window(length, n):
        step = r.choice([1, 1, 2, -1, -2])
        span = (length - 1) * abs(step) + 1
        start = r.randint(0, n - span)
        if step < 0:
            return slice(start + span - 1, start - 1 if start > 0 else None, step)
        return slice(start, start + span, step)

    for step in range(6):
        lengths = [r.randint(1, n // 2) for n in shape]
        w1 = tuple(window(k, n) for k, n in zip(lengths, shape))
        w2 = tuple(window(k, n) for k, n in zip(lengths, shape))
        kind = r.randrange(3)
        context = (seed, shape, step, w1, w2, kind)
        if kind == 0:
            x[w1] = x[w2]
            ref[w1] = ref[w2].copy()  # numpy 1.24 gets a[2:6] = a[1:8:2] wrong in place
        elif kind == 1:
            x[w1] = x[w2] + x[w1] * 2
            ref[w1] = ref[w2] + ref[w1] * 2
        else:
            v = x[w1]
            v += x[w2]
            ref[w1] += ref[w2]
        check(x, ref, context)


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
    assert isinstance(got, tuple) and len(got) == 2
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
