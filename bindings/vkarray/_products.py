"""Matrix and tensor products: numpy's signatures (out=, dtype=, tensordot's axes forms) over
the C++ functions of array/matmul.h, which run on the GEMM kernel."""

import operator

import numpy as _np

from . import _vkarray


def _as_operand(x, dtype):
    a = _vkarray.asarray(x)
    if dtype is not None and a.dtype != _np.dtype(dtype):
        if not _np.can_cast(a.dtype, dtype, casting="same_kind"):
            raise TypeError(
                f"Cannot cast ufunc 'matmul' input from dtype('{a.dtype}') to "
                f"dtype('{_np.dtype(dtype)}') with casting rule 'same_kind'")
        a = a.astype(dtype)
    return a


def _store(result, out, what):
    if out is None:
        return result
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"[{what}] out= tuple must have 1 element, got {len(out)}")
        out = out[0]
    if not isinstance(out, _vkarray.ndarray):
        raise TypeError(f"[{what}] out= must be a vkarray.ndarray, got {type(out).__name__}")
    if out.shape != result.shape:
        raise ValueError(
            f"{what}: Output operand 0 has shape {out.shape}, but the result has shape "
            f"{result.shape}")
    if not _np.can_cast(result.dtype, out.dtype, casting="same_kind"):
        raise TypeError(
            f"Cannot cast ufunc '{what}' output from dtype('{result.dtype}') to "
            f"dtype('{out.dtype}') with casting rule 'same_kind'")
    out[...] = result
    return out


def matmul(x1, x2, /, out=None, *, dtype=None):
    """numpy.matmul (``x1 @ x2``): batched matrix products with numpy's rules for 1-d operands
    and broadcast batch dimensions, run on the tiled GEMM kernel. ``dtype`` casts both operands
    first (same_kind); ``out`` receives the result."""
    return _store(_vkarray._matmul(_as_operand(x1, dtype), _as_operand(x2, dtype)), out,
                  "matmul")


def dot(a, b, out=None):
    """numpy.dot: a * b when either is 0-d, else sums over a's last axis and b's second-to-last
    (its only axis when 1-d)."""
    return _store(_vkarray._dot(a, b), out, "dot")


def outer(a, b, out=None):
    """numpy.outer: every element of the flattened a times every element of the flattened b."""
    return _store(_vkarray._outer(a, b), out, "outer")


def tensordot(a, b, axes=2):
    """numpy.tensordot: axes is an int n (a's last n axes with b's first n), or a pair of axis
    lists (or of single axes)."""
    try:
        axes_a, axes_b = axes
    except TypeError:
        return _vkarray._tensordot_n(a, b, operator.index(axes))
    try:
        axes_a = [operator.index(x) for x in axes_a]
    except TypeError:
        axes_a = [operator.index(axes_a)]
    try:
        axes_b = [operator.index(x) for x in axes_b]
    except TypeError:
        axes_b = [operator.index(axes_b)]
    return _vkarray._tensordot(a, b, axes_a, axes_b)
