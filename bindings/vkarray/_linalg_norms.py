"""vkarray.linalg's norms: numpy.linalg.norm and the array API's vector_norm and matrix_norm,
composed from lazy reductions (and the SVD for the 2, -2 and 'nuc' matrix norms)."""

import operator as _operator

import numpy as _np

from . import _vkarray as _vk
from . import _math
from ._shaping import _asarray


def _svdvals(x):
    """Singular values of the stack x: linalg.svdvals, whose Jacobi kernel sees each matrix
    scaled by a power of two (entries 120 orders of magnitude apart would otherwise square
    past the dtype's range and never converge)."""
    from .linalg import svdvals  # linalg imports this module
    return svdvals(x)


def _abs2(x):
    """|x|² elementwise, real (complex: re² + im², as numpy's norm)."""
    if x.dtype.kind == "c":
        return _math.square(_math.real(x)) + _math.square(_math.imag(x))
    return x * x


def _real_of(x):
    return _np.dtype(x.dtype.char.lower()) if x.dtype.kind == "c" else x.dtype


def _vector_norm(x, axis, ord, keepdims):
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    if ord == _np.inf:
        return _vk.max(_math.abs(x), axis=axis, keepdims=keepdims)
    if ord == -_np.inf:
        return _vk.min(_math.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return _vk.sum((x != 0).astype(_real_of(x)), axis=axis, keepdims=keepdims)
    if ord == 1:
        return _vk.sum(_math.abs(x), axis=axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return _math.sqrt(_vk.sum(_abs2(x), axis=axis, keepdims=keepdims))
    ord = float(ord)
    return _vk.sum(_math.abs(x) ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _svd_norm(x, row, col, op):
    s = _svdvals(_vk.moveaxis(x, (row, col), (-2, -1)))
    return op(s, axis=-1)


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: vector norms of any order, matrix norms 'fro', 'nuc', 1, -1, 2, -2,
    inf and -inf (2, -2 and 'nuc' through the SVD, real matrices only)."""
    x = _asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(_np.float64)
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            r = _math.sqrt(_vk.sum(_abs2(x)))
            return _vk.reshape(r, (1,) * nd) if keepdims else r
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = int(axis)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
        axis = (axis,)
    if len(axis) == 1:
        return _vector_norm(x, axis, ord, keepdims)
    if len(axis) != 2:
        raise ValueError("Improper number of dimensions to norm.")
    row, col = (_operator.index(a) for a in axis)
    if not (-nd <= row < nd and -nd <= col < nd):
        raise _np.AxisError(f"axis {axis} is out of bounds for array of dimension {nd}")
    row, col = row % nd, col % nd
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord == 2:
        r = _svd_norm(x, row, col, _vk.max)
    elif ord == -2:
        r = _svd_norm(x, row, col, _vk.min)
    elif ord in (1, -1):
        red = _vk.max if ord == 1 else _vk.min
        r = red(_vk.sum(_math.abs(x), axis=row), axis=col - 1 if col > row else col)
    elif ord in (_np.inf, -_np.inf):
        red = _vk.max if ord > 0 else _vk.min
        r = red(_vk.sum(_math.abs(x), axis=col), axis=row - 1 if row > col else row)
    elif ord in (None, "fro", "f"):
        r = _math.sqrt(_vk.sum(_abs2(x), axis=(row, col)))
    elif ord == "nuc":
        r = _svd_norm(x, row, col, _vk.sum)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        r = _vk.reshape(r, tuple(shape))
    return r


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The array API's vector_norm: over all axes (None), one, or a tuple of axes."""
    x = _asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(_np.float64)
    if axis is None:
        r = _vector_norm(_vk.reshape(x, (-1,)), 0, ord, False)
        return _vk.reshape(r, (1,) * x.ndim) if keepdims else r
    return _vector_norm(x, axis, ord, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The array API's matrix_norm over the last two axes."""
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)
