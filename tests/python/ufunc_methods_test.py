"""The ufunc methods reduce, accumulate, reduceat and at against numpy's: every axis, keepdims,
dtype, initial and where combination of add.reduce, the other ufuncs' reductions by their
algorithm (direct, pairwise tree, sequential fold), scans, reduceat's i >= j segments, and at
with repeated indices (each occurrence applied, in order), all computed on the device."""

import numpy as np
import pytest

import vkarray as vk
from ufunc_testing import same

RNG = np.random.default_rng(5)


def data(dtype, shape):
    if np.dtype(dtype).kind == "b":
        return RNG.random(shape) > 0.4
    if np.dtype(dtype).kind == "u":
        return RNG.integers(0, 6, shape).astype(dtype)
    return (RNG.standard_normal(shape) * 3).round().astype(dtype)


AXES = [0, 1, -1, None, (0, 2), (), (2, 0, 1)]


def fold(n, a, axis, initial=None, where=None):
    """op folded along one axis in numpy's order, by numpy's elementwise op: the reference for
    reductions numpy may not regroup (numpy 1.24's own reduce of arctan2, power and copysign
    on floats skips elements where its AVX-512 loops run; its accumulate is right)."""
    a = np.moveaxis(a, axis, 0)
    m = None if where is None else np.moveaxis(np.broadcast_to(where, np.moveaxis(
        a, 0, axis).shape), axis, 0)
    r, start = (a[0], 1) if initial is None else (np.full(a.shape[1:], initial, a.dtype), 0)
    with np.errstate(all="ignore"):
        for i in range(start, a.shape[0]):
            step = n(r, a[i]).astype(r.dtype)
            r = step if m is None else np.where(m[i], step, r)
    return r


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.float32, np.bool_, np.complex64])
@pytest.mark.parametrize("axis", AXES, ids=str)
def test_add_reduce_every_combination(dtype, axis):
    a = data(dtype, (3, 4, 5))
    mask = RNG.random((3, 4, 5)) > 0.3
    x = vk.asarray(a)
    for keepdims in (False, True):
        for initial in (np._NoValue, 5):
            for where in (True, mask, mask[0, :, :1]):
                kw = dict(axis=axis, keepdims=keepdims, initial=initial, where=where)
                vkw = dict(kw, where=vk.asarray(where) if where is not True else True)
                same(vk.add.reduce(x, **vkw), np.add.reduce(a, **kw))
    for dt in (np.float64, np.int64, np.complex128):
        if np.can_cast(a.dtype, dt, "same_kind"):
            same(vk.add.reduce(x, axis=axis, dtype=dt), np.add.reduce(a, axis=axis, dtype=dt))


@pytest.mark.parametrize("name,dtype", [
    ("multiply", np.int16), ("maximum", np.float32), ("minimum", np.int32),
    ("fmax", np.float64), ("logical_and", np.float32), ("logical_or", np.int8),
    ("bitwise_and", np.uint8), ("bitwise_or", np.int16), ("bitwise_xor", np.int32),
    ("logical_xor", np.int8), ("hypot", np.float32), ("logaddexp", np.float64),
    ("gcd", np.int32), ("subtract", np.int16), ("divide", np.int32), ("power", np.int8),
    ("arctan2", np.float32), ("equal", np.bool_), ("remainder", np.float64),
])
def test_reduce_of_other_ufuncs(name, dtype):
    a = data(dtype, (5, 6))
    if name in ("divide", "remainder", "power"):
        a = np.where(a == 0, 2, a).astype(dtype)
    if name == "power":
        a = np.clip(a, 1, 2).astype(dtype)
    x, u, n = vk.asarray(a), getattr(vk, name), getattr(np, name)
    reorderable = n.identity is not None or name in ("maximum", "minimum", "fmax")
    for axis in [0, 1, -1] + ([None, (0, 1)] if reorderable else []):
        for keepdims in (False, True):
            with np.errstate(all="ignore"):
                want = n.reduce(a, axis=axis, keepdims=keepdims)
            if not reorderable:
                want = fold(n, a.astype(want.dtype), axis)
                want = np.expand_dims(want, axis) if keepdims else want
            same(u.reduce(x, axis=axis, keepdims=keepdims), want)
    init = 1 if name not in ("logical_and", "logical_or", "logical_xor", "equal") else True
    mask = RNG.random(a.shape) > 0.5
    with np.errstate(all="ignore"):
        want = n.reduce(a, axis=1, initial=init, where=mask)
    if not reorderable:
        want = fold(n, a.astype(want.dtype), 1, init, mask)
    same(u.reduce(x, axis=1, initial=init, where=vk.asarray(mask)), want)


def test_reduce_large_and_odd_lengths():
    for n in (1, 2, 7, 1001, 65537):
        a = RNG.integers(0, 2**31, n).astype(np.int64)
        x = vk.asarray(a)
        same(vk.bitwise_xor.reduce(x), np.bitwise_xor.reduce(a))
        same(vk.bitwise_or.reduce(x.reshape(1, n), axis=1), np.bitwise_or.reduce(a[None], axis=1))
    a = RNG.integers(-3, 3, 70).astype(np.int64)
    same(vk.subtract.reduce(vk.asarray(a)), np.subtract.reduce(a))  # 5 fused folds


def test_reduce_errors_are_numpys():
    x = vk.asarray(data(np.int16, (3, 4)))
    for call, error, text in [
        (lambda m: m.subtract.reduce(x if m is vk else x.get(), axis=None), ValueError,
         r"reduction operation 'subtract' is not reorderable"),
        (lambda m: m.subtract.reduce(x if m is vk else x.get(), where=x.get() > 0), ValueError,
         r"does not have an identity, so to use a where mask"),
        (lambda m: m.maximum.reduce(m.zeros((0, 3)), axis=0), ValueError,
         r"zero-size array to reduction operation maximum which has no identity"),
        (lambda m: m.add.reduce(x if m is vk else x.get(), axis=2), np.AxisError,
         r"axis 2 is out of bounds"),
        (lambda m: m.add.reduce(x if m is vk else x.get(), axis=(0, 0)), ValueError,
         r"duplicate value in 'axis'"),
        (lambda m: m.equal.reduce(x if m is vk else x.get()), TypeError, r"No loop matching"),
        (lambda m: m.sin.reduce(x if m is vk else x.get()), ValueError,
         r"reduce only supported for binary functions"),
        (lambda m: m.divmod.reduce(x if m is vk else x.get()), ValueError,
         r"only supported for functions returning a single value"),
    ]:
        with pytest.raises(error):
            call(np)
        with pytest.raises(error, match=text):
            call(vk)


def test_reduce_out_and_zero_d():
    a = data(np.float32, (3, 4))
    out = vk.zeros(4, np.int32)
    assert vk.add.reduce(vk.asarray(a), axis=0, out=out) is out  # reductions cast unsafely
    same(out, np.add.reduce(a, axis=0, out=np.zeros(4, np.int32)))
    with pytest.raises(ValueError, match=r"out has shape \(1, 4\)"):
        vk.add.reduce(vk.asarray(a), axis=0, out=vk.zeros((1, 4)))
    same(vk.add.reduce(vk.asarray(np.float64(3))), np.add.reduce(np.float64(3)))
    same(vk.multiply.reduce(vk.zeros((0, 2), np.uint8)), np.multiply.reduce(np.zeros((0, 2),
                                                                                   np.uint8)))


@pytest.mark.parametrize("name,dtype", [
    ("add", np.int8), ("multiply", np.float32), ("maximum", np.int16), ("minimum", np.float64),
    ("logical_and", np.float32), ("logical_or", np.int8), ("fmax", np.float32),
    ("bitwise_xor", np.int32), ("bitwise_and", np.uint8), ("logaddexp", np.float64),
    ("hypot", np.float32), ("subtract", np.int16), ("divide", np.float64), ("equal", np.bool_),
])
def test_accumulate(name, dtype):
    a = data(dtype, (6, 9))
    if np.dtype(dtype).kind == "f":
        a[1, 2] = np.nan if name.startswith("f") else a[1, 2]
    if name == "divide":
        a = np.where(a == 0, 3, a)
    x, u, n = vk.asarray(a), getattr(vk, name), getattr(np, name)
    for axis in (0, 1, -1):
        with np.errstate(all="ignore"):
            same(u.accumulate(x, axis=axis), n.accumulate(a, axis=axis))
    if np.dtype(dtype).kind in "iu" and name in ("add", "maximum", "subtract"):
        same(u.accumulate(x, axis=1, dtype=np.float64), n.accumulate(a, axis=1, dtype=np.float64))
    wide = np.int64 if name.startswith("bitwise") else np.float64
    out = vk.zeros(a.shape, wide)
    with np.errstate(all="ignore"):
        want = n.accumulate(a, axis=0, out=np.zeros(a.shape, wide))
    assert u.accumulate(x, axis=0, out=out) is out
    same(out, want)


def test_accumulate_long_axis_and_errors():
    a = RNG.integers(0, 2**20, 5000).astype(np.int32)
    same(vk.bitwise_or.accumulate(vk.asarray(a)), np.bitwise_or.accumulate(a))
    f = RNG.standard_normal(3000)
    same(vk.logaddexp.accumulate(vk.asarray(f)), np.logaddexp.accumulate(f), rtol=1e-12)
    with pytest.raises(TypeError, match=r"cannot accumulate on a scalar"):
        vk.add.accumulate(vk.asarray(np.float64(2)))
    with pytest.raises(ValueError, match=r"accumulate does not allow multiple axes"):
        vk.add.accumulate(vk.zeros((2, 2)), axis=None)
    same(vk.add.accumulate(vk.asarray(f[:5]), axis=(0,)), np.add.accumulate(f[:5], axis=(0,)))
