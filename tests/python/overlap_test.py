"""In-place operators and out= on views, the kernel counts of writes, and overlapping source
and destination, against numpy. Seeded like views_test.py."""

import random

import numpy as np
import pytest

import vkarray as vk
from views_testing import VKF, NPF, random_data, random_shape, random_index, np_view, broadcast_source_shape, check


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
    c.get()  # a write may be recorded until the buffer is read (write.h); it still counts here
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
    x.get()  # a write may be recorded until the buffer is read (write.h); it still counts here
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
