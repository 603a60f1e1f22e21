"""Helpers of the vkarray.linalg tests: random matrices and the bounds of docs/accuracy.md
("Linear algebra")."""

import numpy as np

SIZES = [1, 2, 3, 7, 33, 100]
FLOATS = [np.float32, np.float64]


def eps(dtype):
    return float(np.finfo(dtype).eps)


def mx(x):
    x = np.asarray(x, dtype=np.float64)
    return float(np.abs(x).max()) if x.size else 0.0


def bound(dtype, n, scale=1.0):
    return 20 * max(n, 1) * eps(dtype) * max(scale, np.finfo(np.float64).tiny)


def random(shape, dtype, seed=0, cond=None):
    """Random matrices (the last two axes); with cond, singular values spaced geometrically
    from 1 down to 1/cond."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if cond is not None and min(shape[-2:]) > 1:
        u, _, vt = np.linalg.svd(a, full_matrices=False)
        k = min(shape[-2:])
        s = np.geomspace(1.0, 1.0 / cond, k)
        a = (u * s[..., None, :]) @ vt
    return a.astype(dtype)


def spd(n, dtype, seed=0, batch=()):
    a = random(batch + (n, n), np.float64, seed)
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


def mm(a, b):
    return np.asarray(a, np.float64) @ np.asarray(b, np.float64)


def assert_orthonormal_columns(q, dtype):
    q = np.asarray(q, np.float64)
    k = q.shape[-1]
    assert mx(np.swapaxes(q, -1, -2) @ q - np.eye(k)) <= bound(dtype, q.shape[-2])
