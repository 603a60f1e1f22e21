"""Shared inputs of the advanced-indexing tests (indexing_test.py, index_writes_test.py):
values of each dtype and random index tuples mixing integer arrays, slices, ints, None and an
ellipsis, as numpy accepts them."""

import random

import numpy as np

DTYPES = [np.float32, np.float64, np.int8, np.int32, np.uint8, np.int64, np.bool_, np.complex64]


def data(rng, shape, dtype):
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.integers(-8, 8, shape) + 1j * rng.integers(-8, 8, shape)).astype(dtype)
    if np.issubdtype(dtype, np.unsignedinteger):
        return rng.integers(0, 100, shape).astype(dtype)
    return rng.integers(-50, 50, shape).astype(dtype)


def random_case(seed, draw_seed):
    """A random array for a seeded case: its shape (1 to 4 axes of 1 to 5), its dtype (of
    DTYPES, by `seed`) and values, and the generators (random.Random, numpy's, seeded with
    `draw_seed`) that drew them, for the case to go on drawing with."""
    r = random.Random(draw_seed)
    rng = np.random.default_rng(draw_seed)
    shape = tuple(r.randint(1, 5) for _ in range(r.randint(1, 4)))
    dtype = DTYPES[seed % len(DTYPES)]
    return r, rng, shape, dtype, data(rng, shape, dtype)


def random_advanced_index(r, rng, shape):
    """An index tuple with 1 to 3 integer arrays (broadcastable together, negative values
    included) mixed with slices, ints, None and an ellipsis."""
    nd = len(shape)
    n_arrays = r.randint(1, min(3, nd))
    axes = sorted(r.sample(range(nd), n_arrays))
    bshape = tuple(r.randint(1, 3) for _ in range(r.randint(0, 2)))
    items = []
    for d in range(nd):
        if d in axes:
            ishape = tuple(1 if r.random() < 0.3 else b for b in bshape)
            idx = rng.integers(-shape[d], shape[d], ishape)
            items.append(idx if r.random() < 0.7 else idx.tolist() if idx.ndim else int(idx))
        else:
            c = r.random()
            if c < 0.5:
                items.append(slice(None))
            elif c < 0.8:
                items.append(slice(r.randint(-shape[d], shape[d]), None, r.choice([1, 2, -1])))
            else:
                items.append(r.randrange(shape[d]))
    if r.random() < 0.3:
        items.insert(r.randint(0, len(items)), None)
    # A trailing run of full slices may become an ellipsis.
    if r.random() < 0.3 and items and isinstance(items[-1], slice) and items[-1] == slice(None):
        items[-1] = Ellipsis
    return tuple(items)
