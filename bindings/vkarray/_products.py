"""Matrix and tensor products: numpy's signatures (out=, dtype=, tensordot's axes forms) over
the C++ functions of array/matmul.h, which run on the GEMM kernel: matmul (a vkarray.ufunc
with numpy's gufunc signature), dot, vdot, vecdot, inner, outer, tensordot, kron, einsum and
einsum_path, and trace."""

import operator

import numpy as _np

from . import _vkarray
from ._creation import asarray
from ._einsum import einsum
from ._shaping import _asarray
from ._ufunc import ufunc
from ._vkarray import inner, kron, vdot, vecdot

__all__ = ["matmul", "dot", "vdot", "vecdot", "inner", "outer", "tensordot", "kron", "einsum",
           "einsum_path", "trace"]


def _matmul(x1, x2):
    return _vkarray._matmul(asarray(x1), asarray(x2))


matmul = ufunc("matmul", _matmul, 2, signature="(n?,k),(k,m?)->(n?,m?)", doc="""\
numpy.matmul (``x1 @ x2``): batched matrix products with numpy's rules for 1-d operands and
broadcast batch dimensions, run on the tiled GEMM kernel. A vkarray.ufunc with numpy's gufunc
signature: ``dtype`` casts both operands first (under casting=), ``out`` receives the result;
it has no reduce, accumulate, outer, at or reduceat, as numpy's has none.""")


def dot(a, b, out=None):
    """numpy.dot: a * b when either is 0-d, else sums over a's last axis and b's second-to-last
    (its only axis when 1-d). out= must have the result's dtype, as numpy's (no casting)."""
    r = _vkarray._dot(a, b)
    if out is not None and isinstance(out, _vkarray.ndarray) and out.dtype != r.dtype:
        raise ValueError(f"[dot] output array is not acceptable (must have the right datatype, "
                         f"{r.dtype}, got {out.dtype})")
    return _vkarray._finish(r, out, op="dot", exact_shape=True)


def outer(a, b, out=None):
    """numpy.outer: every element of the flattened a times every element of the flattened b."""
    return _vkarray._finish(_vkarray._outer(a, b), out, op="outer", exact_shape=True)


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


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path: the contraction order numpy would choose; it depends on shapes only,
    so numpy plans it on zero-strided host stand-ins (no download)."""
    stand_ins = [_np.broadcast_to(_np.zeros((), o.dtype), o.shape)
                 if isinstance(o, _vkarray.ndarray) else o for o in operands]
    return _np.einsum_path(subscripts, *stand_ins, optimize=optimize, einsum_call=einsum_call)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """numpy.trace: the sum of the diagonal with offset `offset` of axes (axis1, axis2), one
    fused reduction of the diagonal view; a 0-d array for 2-d input. Integers and bools sum in
    int64 (unsigned: uint64) unless `dtype` says otherwise, as numpy's sum does."""
    a = _asarray(a)
    if a.ndim < 2:
        raise ValueError("[trace] diag requires an array of at least two dimensions")
    return _vkarray.sum(_vkarray.diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype,
                        out=out)
