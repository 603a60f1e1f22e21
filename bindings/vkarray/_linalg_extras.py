"""numpy.linalg's compositions on top of vkarray.linalg: multi_dot (the cheapest order of a
chain of products), cond (condition numbers), tensorsolve and tensorinv."""

import numpy as _np

from . import _vkarray as _vk
from . import linalg as _linalg  # imported by linalg.py once its own functions are defined
from ._products import matmul
from ._shaping import _asarray, _asarrays

__all__ = ["multi_dot", "cond", "tensorsolve", "tensorinv"]


def _chain_order(dims):
    """numpy's dynamic programming over the chain's dimensions: split[i][j] is where the
    cheapest product of matrices i..j splits."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = _np.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(arrays, *, out=None):
    """numpy.linalg.multi_dot: the product of a chain of 2-d arrays (the first and last may be
    1-d) in the order with the fewest multiplications."""
    arrays = _asarrays("multi_dot", list(arrays))
    n = len(arrays)
    if n < 2:
        raise ValueError("[multi_dot] Expecting at least two arrays.")
    first, last = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first:
        arrays[0] = _vk.reshape(arrays[0], (1, -1))
    if last:
        arrays[-1] = _vk.reshape(arrays[-1], (-1, 1))
    for i, a in enumerate(arrays):
        if a.ndim != 2:
            raise ValueError(f"[multi_dot] {a.ndim}-dimensional array given at position {i}. "
                             f"Array must be two-dimensional")
    split = _chain_order([arrays[0].shape[0]] + [a.shape[1] for a in arrays])

    def product(i, j):
        if i == j:
            return arrays[i]
        return matmul(product(i, split[i][j]), product(split[i][j] + 1, j))

    r = product(0, n - 1)
    if first and last:
        r = _vk.reshape(r, ())
    elif first or last:
        r = _vk.ravel(r)
    return _vk._finish(r, out, op="multi_dot", casting="unsafe")


def cond(x, p=None):
    """numpy.linalg.cond: ratio of extreme singular values (p None, 2, -2), otherwise
    norm(x, p) * norm(inv(x), p)."""
    x = _asarray(x)
    if x.ndim < 2:
        raise _np.linalg.LinAlgError(f"{x.ndim}-dimensional array given. Array must be at "
                                     f"least two-dimensional")
    if p is None or p in (2, -2):
        s = _linalg.svdvals(x)
        hi, lo = s[..., 0], s[..., -1]
        return hi / lo if p != -2 else lo / hi
    if x.shape[-1] != x.shape[-2]:
        raise _np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    axes = (-2, -1)
    return (_linalg.norm(x, ord=p, axis=axes)
            * _linalg.norm(_linalg.inv(x), ord=p, axis=axes))


def tensorsolve(a, b, axes=None):
    """numpy.linalg.tensorsolve: x with tensordot(a, x, x.ndim) == b."""
    a, b = _asarrays("tensorsolve", [a, b])
    if axes is not None:
        rest = [k for k in range(a.ndim) if k not in [ax % a.ndim for ax in axes]]
        a = _vk.transpose(a, rest + [ax % a.ndim for ax in axes])
    x_shape = a.shape[-(a.ndim - b.ndim):] if a.ndim > b.ndim else ()
    prod = int(_np.prod(x_shape))
    if int(_np.prod(a.shape[:b.ndim])) != prod:
        raise _np.linalg.LinAlgError("Input arrays must satisfy the requirement "
                                     "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    x = _linalg.solve(_vk.reshape(a, (prod, prod)), _vk.reshape(b, (prod,)))
    return _vk.reshape(x, x_shape)


def tensorinv(a, ind=2):
    """numpy.linalg.tensorinv: the inverse of a with respect to tensordot over ind axes."""
    a = _asarray(a)
    if ind <= 0:
        raise ValueError("[tensorinv] Invalid ind argument.")
    inv_shape = a.shape[ind:] + a.shape[:ind]
    prod = int(_np.prod(a.shape[:ind]))
    if int(_np.prod(a.shape[ind:])) != prod:
        raise _np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    return _vk.reshape(_linalg.inv(_vk.reshape(a, (prod, -1))), inv_shape)
