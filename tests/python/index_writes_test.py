"""Advanced indexing writes against numpy: assignment through integer arrays (repeated
indices: the last one wins) and boolean masks (one fused select), put and fill_diagonal
through strided views, and errors that leave the array unchanged."""

import numpy as np
import pytest

import vkarray as vk
from indexing_testing import data, random_advanced_index, random_case


@pytest.mark.parametrize("value", [0, -7.5, np.float32(3)])
def test_mask_assignment_is_one_select(value):
    rng = np.random.default_rng(5)
    ref = rng.standard_normal((6, 7))
    x = vk.asarray(ref)
    x[0].eval()  # storage before counting
    m = ref > 0
    before = vk.kernel_count()
    x[vk.asarray(m)] = value
    x.eval()
    assert vk.kernel_count() - before == 1
    ref[m] = value
    np.testing.assert_array_equal(x.get(), ref)
    x[ref[:, 0] > 0] = 5  # a mask of the leading axis, from the host
    ref[ref[:, 0] > 0] = 5
    np.testing.assert_array_equal(x.get(), ref)
    before = vk.kernel_count()
    x[x < 0] = 0  # a temporary lazy mask of x itself fuses into the select
    x.eval()
    assert vk.kernel_count() - before == 1
    ref[ref < 0] = 0
    np.testing.assert_array_equal(x.get(), ref)
    m = x > 0.5  # a named mask keeps its value: computed first, then the select
    before = vk.kernel_count()
    x[m] = 2.0
    x.eval()
    assert vk.kernel_count() - before == 2
    np.testing.assert_array_equal(m.get(), ref > 0.5)
    ref[ref > 0.5] = 2.0
    np.testing.assert_array_equal(x.get(), ref)


@pytest.mark.parametrize("seed", range(30))
def test_random_scatters_match_numpy(seed):
    """Assignment through random advanced indices, repeated indices included (the last
    assignment wins, as numpy's), mirrored on numpy over several steps; a view and a lazy
    expression made before each write are checked too."""
    r, rng, shape, dtype, ref = random_case(seed, 1000 + seed)
    x = vk.asarray(ref)
    for _ in range(3):
        index = random_advanced_index(r, rng, shape)
        target = ref[index].shape
        value = data(rng, target[r.randint(0, len(target)):], dtype)  # broadcasts
        view = x[(0,) * (len(shape) - 1)] if len(shape) > 1 else x[:]
        before = ref.copy()
        lazy = x * 1
        ref[index] = value
        x[index] = value if r.random() < 0.5 else vk.asarray(value)
        np.testing.assert_array_equal(x.get(), ref, err_msg=repr(index))
        np.testing.assert_array_equal(view.get(), ref[(0,) * (len(shape) - 1)] if len(shape) > 1
                                      else ref)
        np.testing.assert_array_equal(lazy.get(), before * 1)


def test_scatter_with_repeated_indices_keeps_the_last():
    ref = np.zeros(5)
    x = vk.asarray(ref)
    idx = [1, 3, 1, 1, 0, 3]
    vals = np.arange(6.0) + 1
    ref[idx] = vals
    x[idx] = vals
    np.testing.assert_array_equal(x.get(), ref)  # [5, 4, 0, 6, 0]
    x[vk.asarray(np.array(idx))] = vk.asarray(vals[::-1].copy())
    ref[idx] = vals[::-1]
    np.testing.assert_array_equal(x.get(), ref)


def test_mask_assignment_with_an_array_value():
    rng = np.random.default_rng(7)
    ref = rng.standard_normal((5, 4))
    x = vk.asarray(ref)
    m = ref > 0
    vals = np.arange(m.sum(), dtype=float)
    ref[m] = vals
    x[vk.asarray(m)] = vals
    np.testing.assert_array_equal(x.get(), ref)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put(mode):
    ref = np.arange(12.0).reshape(3, 4)
    x = vk.asarray(ref)
    ind = [0, 5, -1, 5] if mode == "raise" else [0, 17, -20, 5]
    np.put(ref, ind, [10, 20, 30], mode=mode)
    vk.put(x, ind, [10, 20, 30], mode=mode)
    np.testing.assert_array_equal(x.get(), ref)
    np.put(ref, ind, [], mode=mode)  # no values: nothing changes
    vk.put(x, ind, vk.asarray(np.zeros(0)), mode=mode)
    np.testing.assert_array_equal(x.get(), ref)


@pytest.mark.parametrize("view", [lambda a: a[:, ::2], lambda a: a.T, lambda a: a[1:, 1:3]])
def test_put_and_fill_diagonal_write_through_strided_views(view):
    ref = np.arange(12.0).reshape(3, 4)
    x = vk.asarray(ref)
    np.put(view(ref), [0, 3, -1], [-1, -2, -3], mode="wrap")
    vk.put(view(x), [0, 3, -1], [-1, -2, -3], mode="wrap")
    np.testing.assert_array_equal(x.get(), ref)
    np.fill_diagonal(view(ref), 50, wrap=True)
    vk.fill_diagonal(view(x), 50, wrap=True)
    np.testing.assert_array_equal(x.get(), ref)


def test_scatter_errors_change_nothing():
    ref = np.arange(12.0).reshape(3, 4)
    x = vk.asarray(ref)
    with pytest.raises(IndexError):
        x[[0, 3]] = 1
    with pytest.raises(IndexError):
        x[vk.asarray(np.array([0, -4]))] = 1
    with pytest.raises(ValueError):
        x[[0, 1]] = np.ones(3)  # (3,) into (2, 4)
    with pytest.raises(ValueError):
        vk.broadcast_to(x[0], (2, 4))[[0]] = 1  # read-only
    with pytest.raises(IndexError):
        vk.put(x, [12], [1.0])
    np.testing.assert_array_equal(x.get(), ref)
