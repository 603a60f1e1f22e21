"""Helpers of the view and assignment tests: random data, shapes, basic indices and view
functions, mirrored between vkarray and numpy, and exact comparison."""

import numpy as np

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
