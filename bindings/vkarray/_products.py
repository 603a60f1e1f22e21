"""Matrix and tensor products: numpy's matmul signature (out=, dtype=) over the GEMM kernel."""

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
