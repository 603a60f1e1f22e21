"""Joining and splitting (vkarray/_joining.py) against numpy: values, dtypes and shapes over
several dtypes, 0-d, empty and size-1 inputs, negative axes, numpy's exception types for bad
input, and kernel counts."""

import numpy as np
import pytest

import vkarray as vk
from shaping_testing import DTYPES, sample, check, same_error, kernels, device


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
    # Each part is a small write into the result: recorded (array/write.h, step 3), and run
    # together, one kernel for parts of one shape. A run holds each value once: a part
    # written again runs the run first, then itself.
    assert kernels(lambda: vk.concatenate([a, b])) == 1
    assert kernels(lambda: vk.concatenate([a + 1, b * 2], axis=1)) == 1  # lazy inputs fuse
    assert kernels(lambda: vk.concatenate([a, b, a], axis=None)) == 2
    assert kernels(lambda: vk.stack([a, a, a], axis=1)) == 3
    v = device(sample((4,), "float32"))
    assert kernels(lambda: vk.column_stack([v, v + 1])) == 1
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
