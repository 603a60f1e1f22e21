"""sort, argsort, partition and argpartition (and the ndarray methods) against numpy: every
dtype, ties (argsort equals numpy's kind='stable' exactly), NaN/inf/-0.0 placement, any axis
of strided views, numpy's exception types, determinism."""

import numpy as np
import pytest

import vkarray as vk

ALL_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
              "float16", "float32", "float64", "complex64", "complex128"]
SIZES = [0, 1, 7, 1000, 4097]


def data(shape, dtype, seed=0):
    """Seeded values with many ties; floats mix in NaN, +-inf and -0.0; integers reach their
    dtype's extremes."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        v = rng.integers(-20, 20, n).astype(np.int64)
        v = v.astype(dtype) if dtype.kind == "i" else (v % 40).astype(dtype)
        ext = rng.integers(0, n, min(n, 8))
        v[ext[: len(ext) // 2]] = info.min
        v[ext[len(ext) // 2:]] = info.max
        return v.reshape(shape)
    real = rng.integers(-8, 8, n).astype(np.float64) / 4
    special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, -np.nan])
    pick = rng.random(n) < 0.15
    real[pick] = special[rng.integers(0, len(special), pick.sum())]
    if dtype.kind == "c":
        imag = rng.integers(-3, 3, n).astype(np.float64)
        pick = rng.random(n) < 0.15
        imag[pick] = special[rng.integers(0, len(special), pick.sum())]
        out = np.empty(n, dtype)
        out.real, out.imag = real, imag
        return out.reshape(shape)
    return real.astype(dtype).reshape(shape)


def same(got, want):
    """Equal dtype, shape and values; NaN equals NaN, and -0.0 and 0.0 sit where numpy's are."""
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape)
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_sort_and_stable_argsort_1d(dtype, n):
    a = data((n,), dtype, seed=n)
    x = vk.asarray(a)
    same(vk.argsort(x), np.argsort(a, kind="stable"))
    same(vk.sort(x), a[np.argsort(a, kind="stable")])
    np.testing.assert_array_equal(np.asarray(vk.sort(x)), np.sort(a))  # numpy's default kind


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_large_multi_level(dtype):
    a = data((1000003,), dtype, seed=3)
    x = vk.asarray(a)
    got = vk.argsort(x)
    same(got, np.argsort(a, kind="stable"))
    same(vk.sort(x), np.sort(a, kind="stable"))


@pytest.mark.parametrize("dtype", ["float64", "int16", "uint8", "complex64", "bool"])
@pytest.mark.parametrize("shape,axis", [((5, 300), 0), ((5, 300), 1), ((5, 300), -1),
                                        ((1000, 7), 1), ((1000, 7), 0), ((3, 40, 6), 1),
                                        ((3, 40, 6), 0), ((3, 40, 6), -1), ((17, 3, 2), None)])
def test_along_axes(dtype, shape, axis):
    a = data(shape, dtype, seed=len(shape))
    x = vk.asarray(a)
    same(vk.argsort(x, axis=axis), np.argsort(a, axis=axis, kind="stable"))
    same(vk.sort(x, axis=axis), np.sort(a, axis=axis, kind="stable"))


def test_strided_views():
    a = data((40, 30), "float32", seed=5)
    x = vk.asarray(a)
    for index in [np.s_[::2, 1:], np.s_[::-1, ::3], np.s_[5:, :]]:
        for axis in (0, 1):
            same(vk.argsort(x[index], axis=axis), np.argsort(a[index], axis=axis, kind="stable"))
    same(vk.sort(x.T, axis=1), np.sort(a.T, axis=1, kind="stable"))


def test_nan_inf_negative_zero_placement():
    a = np.array([np.nan, 1, -0.0, np.inf, 0.0, -np.inf, -0.0, np.nan, -1e-300, 5e-324],
                 dtype=np.float64)
    same(vk.sort(vk.asarray(a)), np.sort(a, kind="stable"))
    same(vk.argsort(vk.asarray(a)), np.argsort(a, kind="stable"))
    c = np.array([complex(np.nan, 1), complex(1, np.nan), 2, complex(np.nan, np.nan), 1 + 1j,
                  complex(np.nan, 0), complex(-0.0, 1), complex(0.0, np.nan), 1 + 1j])
    same(vk.argsort(vk.asarray(c)), np.argsort(c, kind="stable"))


def test_methods_in_place():
    a = data((6, 50), "int32", seed=7)
    x = vk.asarray(a)
    assert x.sort() is None
    same(x, np.sort(a))
    y = vk.asarray(a)
    y.sort(axis=0)
    same(y, np.sort(a, axis=0))
    same(vk.asarray(a).argsort(axis=0), np.argsort(a, axis=0, kind="stable"))
    z = vk.asarray(a)
    assert z.partition(3) is None
    p = np.asarray(z)
    assert np.all(p[:, :3] <= p[:, 3:4]) and np.all(p[:, 4:] >= p[:, 3:4])
    same(p[:, 3], np.partition(a, 3)[:, 3])


@pytest.mark.parametrize("dtype", ["float32", "int8", "uint64", "complex128"])
@pytest.mark.parametrize("kth", [0, 5, -1, [2, 30], (0, -1)])
def test_partition_contract(dtype, kth):
    a = data((4, 37), dtype, seed=11)
    x = vk.asarray(a)
    want = np.partition(a, kth)
    got = np.asarray(vk.partition(x, kth))
    idx = np.asarray(vk.argpartition(x, kth))
    assert idx.dtype == np.int64
    same(np.take_along_axis(a, idx, -1)[:, np.atleast_1d(kth)], want[:, np.atleast_1d(kth)])
    for k in np.atleast_1d(kth):
        same(got[:, k], want[:, k])
        s = np.sort(a, axis=-1)  # numpy's order: before k are <= a_k, after k are >= a_k
        k = k % a.shape[1]
        np.testing.assert_array_equal(np.sort(got[:, :k], axis=-1), s[:, :k])
        np.testing.assert_array_equal(np.sort(got[:, k + 1:], axis=-1), s[:, k + 1:])


def test_kinds_and_errors():
    a = data((3, 4), "float32")
    x = vk.asarray(a)
    for kind in ["quicksort", "mergesort", "heapsort", "stable"]:
        same(vk.argsort(x, kind=kind), np.argsort(a, kind="stable"))
    same(vk.sort(x, stable=True), np.sort(a, kind="stable"))
    for np_call, vk_call in [
        (lambda: np.sort(a, axis=2), lambda: vk.sort(x, axis=2)),
        (lambda: np.argsort(a, axis=-3), lambda: vk.argsort(x, axis=-3)),
        (lambda: np.sort(np.float32(1).reshape(())), lambda: vk.sort(vk.asarray(np.float32(1)))),
        (lambda: np.sort(a, kind="bogus"), lambda: vk.sort(x, kind="bogus")),
        (lambda: np.partition(a, 4), lambda: vk.partition(x, 4)),
        (lambda: np.partition(a, -5), lambda: vk.partition(x, -5)),
        (lambda: np.argpartition(a, [1, 9]), lambda: vk.argpartition(x, [1, 9])),
        (lambda: np.partition(a, 1.5), lambda: vk.partition(x, 1.5)),
    ]:
        with pytest.raises(Exception) as np_err:
            np_call()
        with pytest.raises(type(np_err.value)):
            vk_call()
    same(x, a)  # unchanged by the failed calls


def test_deterministic():
    a = data((4097,), "float64", seed=13)
    x = vk.asarray(a)
    first = np.asarray(vk.argsort(x))
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(vk.argsort(x)), first)


REAL_DTYPES = [d for d in ALL_DTYPES if not d.startswith("complex")]


def clean(a):
    """a without the values whose bits a sort of values alone cannot keep in stable order
    (-0.0 and NaNs other than the quiet NaN): such arrays sort as keys alone."""
    if a.dtype.kind != "f":
        return a
    a = np.where(a == 0, 0, a).astype(a.dtype)
    return np.where(np.isnan(a), np.nan, a).astype(a.dtype)


@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("n", [1, 2, 1023, 4096, 70001])
def test_sort_of_values_alone(dtype, n):
    # One row of a real dtype without -0.0 or signed NaNs: the keys move without indices (on
    # a device with subgroup ballots) and are turned back into values.
    a = clean(data((n,), dtype, seed=n + 1))
    same(vk.sort(vk.asarray(a)), np.sort(a, kind="stable"))
    same(vk.sort(vk.asarray(a.reshape(7, -1) if n % 7 == 0 else a), axis=None),
         np.sort(a, kind="stable"))


def test_sort_of_values_keeps_nan_bits_and_zero_signs_through_the_permutation():
    # -0.0 and a NaN of another sign or payload need the stable permutation: their bits come
    # back where numpy's stable sort puts them.
    payload = np.array([0x7FC00001, 0xFFC00000, 0x7FC00000], dtype=np.uint32).view(np.float32)
    a = np.concatenate([payload, np.float32([-0.0, 0.0, 1.0, -0.0, np.inf])] * 500)
    got = np.asarray(vk.sort(vk.asarray(a)))
    want = np.sort(a, kind="stable")
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("dtype", ["float32", "int16", "uint64", "float64", "bool", "complex64"])
def test_portable_passes_agree(dtype):
    # The 4-bit passes (a device without subgroup ballots) and the 8-bit ones give numpy's
    # answers: one row, several rows (more than 256, so two row passes) and values alone.
    ctx = vk.Context(disable_features=["subgroup_ballot"])
    a = data((4099,), dtype, seed=21)
    rows = data((300, 9), dtype, seed=22)
    for context in (ctx, None):
        x = vk.asarray(a, context=context) if context else vk.asarray(a)
        same(vk.argsort(x), np.argsort(a, kind="stable"))
        same(vk.sort(x), np.sort(a, kind="stable"))
        if dtype != "complex64":
            same(vk.sort(vk.asarray(clean(a), context=context)), np.sort(clean(a), kind="stable"))
        y = vk.asarray(rows, context=context) if context else vk.asarray(rows)
        same(vk.argsort(y, axis=1), np.argsort(rows, axis=1, kind="stable"))
        same(vk.sort(y, axis=0), np.sort(rows, axis=0, kind="stable"))


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_partitions_of_several_tiles(dtype):
    # More tiles than a pass has partitions (2048): each workgroup ranks a run of tiles in
    # order, carrying its digit offsets; some partitions are empty.
    a = data((2**21 + 12345,), dtype, seed=9)
    x = vk.asarray(a)
    same(vk.argsort(x), np.argsort(a, kind="stable"))
    same(vk.sort(vk.asarray(clean(a))), np.sort(clean(a), kind="stable"))
