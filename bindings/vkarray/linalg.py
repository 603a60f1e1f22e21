"""vkarray.linalg: numpy.linalg (and the array API's linalg extension) on the GPU.

The factorizations (LU, Cholesky, Householder QR, Jacobi SVD and symmetric eigensolver) are
batched GPU kernels, one workgroup per matrix (array/linalg/linalg.h); everything else is composed
here from them and from lazy array operations. Calls whose errors depend on the values
(solve/inv of a singular matrix, cholesky of one that is not positive definite, convergence
checks of svd/eigh, lstsq's and matrix_rank's integer ranks) evaluate eagerly: they read a flag
back from the device. float32 stays float32, bool and integers compute in float64, float16
raises TypeError as numpy's linalg does; complex64 and complex128 compute as they are (eigh and
svd as Hermitian and unitary Jacobi).
"""

import operator as _operator
from collections import namedtuple as _namedtuple

import numpy as _np

from . import _vkarray as _vk
from . import _math
from ._creation import arange, asarray, eye as _eye, zeros
from ._dtypes import astype
from ._sorting import count_nonzero
from ._grids import triu as _triu
from ._joining import stack as _stack
from ._products import matmul, trace as _trace
from ._shaping import _asarray
from ._linalg_norms import matrix_norm, norm, vector_norm  # noqa: F401  (exported)

__all__ = [
    "LinAlgError", "norm", "vector_norm", "matrix_norm", "solve", "inv", "det", "slogdet",
    "cholesky", "qr", "eigh", "eigvalsh", "svd", "svdvals", "lstsq", "pinv", "matrix_power",
    "matrix_rank", "trace", "cross", "outer", "diagonal", "matmul", "tensordot", "vecdot",
    "matrix_transpose", "solve_triangular", "multi_dot", "cond", "tensorsolve", "tensorinv",
    "eig", "eigvals",
]

# numpy's own class: code catching numpy.linalg.LinAlgError catches vkarray's.
LinAlgError = _np.linalg.LinAlgError


def _linalg_dtype(dtype):
    """The dtype numpy.linalg computes in (TypeError for float16)."""
    dtype = _np.dtype(dtype)
    if dtype == _np.float16:
        raise TypeError("array type float16 is unsupported in linalg")
    return dtype if dtype.kind in "fc" else _np.dtype(_np.float64)


def _stacked(a, square=True):
    a = _asarray(a)
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if square and a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    _linalg_dtype(a.dtype)
    return a


# The array API's (and numpy 2's) named results; plain tuples to numpy 1.x code.
EighResult = _namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = _namedtuple("QRResult", ["Q", "R"])
SlogdetResult = _namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = _namedtuple("SVDResult", ["U", "S", "Vh"])


def _power_of_two_scale(a):
    """(a / 2^k, 2^k per matrix, shaped batch + (1,)) with 2^k just at or below max|a| (1
    where a matrix is zero or not finite). The Jacobi solvers square entries: scaling by a
    power of two keeps them from overflowing or underflowing and changes no rounding."""
    dtype = _linalg_dtype(a.dtype)
    real = _np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
    c = _vk.max(_math.abs(a), axis=(-2, -1)).get().astype(_np.float64)
    info = _np.finfo(real)  # 2^k with 1 <= max|a| / 2^k < 2, a normal number of real
    k = _np.clip(_np.frexp(c)[1] - 1, info.minexp, info.maxexp - 1)
    scale = _np.where(_np.isfinite(c) & (c > 0), _np.ldexp(1.0, k), 1.0)
    scale = asarray(scale.astype(real).reshape(c.shape + (1,)), context=a.context)
    return a / _vk.expand_dims(scale, -1), scale


def _eps(dtype):
    return float(_np.finfo(_linalg_dtype(dtype)).eps)


def tensordot(x1, x2, axes=2):
    """numpy.tensordot: the named axes moved together and contracted as one matrix product."""
    a, b = _asarray(x1), _asarray(x2)
    if isinstance(axes, int):
        axes_a, axes_b = list(range(a.ndim - axes, a.ndim)), list(range(axes))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) else list(axes_b)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    axes_a = [ax % a.ndim for ax in axes_a]
    axes_b = [ax % b.ndim for ax in axes_b]
    for i, j in zip(axes_a, axes_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError("shape-mismatch for sum")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    k = int(_np.prod([a.shape[i] for i in axes_a], dtype=_np.int64))
    am = _vk.reshape(_vk.transpose(a, free_a + axes_a), (-1, k))
    bm = _vk.reshape(_vk.transpose(b, axes_b + free_b), (k, -1))
    shape = tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b)
    return _vk.reshape(matmul(am, bm), shape)


vecdot = _vk.vecdot
matrix_transpose = _vk.matrix_transpose


def _mT(x):
    return _vk.matrix_transpose(x)


def _mH(x):
    """The conjugate transpose of the last two axes."""
    t = _vk.matrix_transpose(x)
    return _math.conj(t) if t.dtype.kind == "c" else t


# --- Factorizations --------------------------------------------------------------------


def solve(a, b):
    """numpy.linalg.solve (numpy 1.x broadcasting: b is a stack of vectors when
    b.ndim == a.ndim - 1). LinAlgError("Singular matrix") for an exactly zero pivot."""
    a = _stacked(a)
    b = _asarray(b, a.context)
    _linalg_dtype(b.dtype)
    n = a.shape[-1]
    vector = b.ndim == a.ndim - 1
    if b.ndim == 0 or (b.shape[-1] if vector else b.shape[-2] if b.ndim >= 2 else -1) != n:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0 "
                         f"(b of shape {b.shape} for a of shape {a.shape})")
    bm = _vk.expand_dims(b, -1) if vector else b
    batch = _np.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    a = _vk.broadcast_to(a, batch + a.shape[-2:])
    bm = _vk.broadcast_to(bm, batch + bm.shape[-2:])
    if n == 0:  # nothing to factor, nothing singular
        dtype = _np.result_type(_linalg_dtype(a.dtype), _linalg_dtype(b.dtype))
        x = zeros(bm.shape, dtype, context=a.context)
    else:
        x = _vk._linalg_solve(a, bm)
    return _vk.squeeze(x, -1) if vector else x


def inv(a):
    """numpy.linalg.inv: LU with partial pivoting, then n solves per matrix."""
    a = _stacked(a)
    if a.shape[-1] == 0:  # nothing to factor, nothing singular
        return zeros(a.shape, _linalg_dtype(a.dtype), context=a.context)
    return _vk._linalg_inv(a)


def cholesky(a, *, upper=False):
    """numpy.linalg.cholesky: the lower factor (its transpose with upper=True)."""
    lower = _vk._linalg_cholesky(_stacked(a))
    if not upper:
        return lower
    return _math.conj(_mT(lower)) if lower.dtype.kind == "c" else _mT(lower)


def _lu(a):
    a = _stacked(a)
    lu, piv = _vk._linalg_lu_factor(a)
    n = a.shape[-1]
    diag = _vk.diagonal(lu, 0, -2, -1)
    steps = arange(n, dtype=_np.int32, context=a.context)
    swaps = _vk.sum(piv != steps, axis=-1)
    perm_sign = 1 - 2 * (swaps % 2)
    return diag, perm_sign.astype(lu.dtype)


def det(a):
    """numpy.linalg.det: the product of U's diagonal, signed by the pivots' parity."""
    diag, sign = _lu(a)
    return sign * _vk.prod(diag, axis=-1)


def slogdet(a):
    """numpy.linalg.slogdet: (sign, log|det|); (0, -inf) for a singular matrix. For complex
    matrices sign is complex of modulus 1 (or 0)."""
    diag, sign = _lu(a)
    mag = _math.abs(diag)
    if diag.dtype.kind == "c":
        unit = _math.where(mag == 0, 0, diag / _math.where(mag == 0, 1, mag).astype(diag.dtype))
    else:
        unit = _math.sign(diag)
    sign = sign * _vk.prod(unit, axis=-1)
    return SlogdetResult(sign, _vk.sum(_math.log(mag), axis=-1))


def qr(a, mode="reduced"):
    """numpy.linalg.qr with modes 'reduced', 'complete' and 'r' (Householder, geqrf's signs)."""
    if mode not in ("reduced", "complete", "r"):
        if mode in ("raw", "full", "f", "economic", "e"):
            raise ValueError(f"qr: mode '{mode}' is not supported by vkarray yet")
        raise ValueError(f"Unrecognized mode '{mode}'")
    out = _vk._linalg_qr(_stacked(a, square=False), mode)
    return out[0] if mode == "r" else QRResult(*out)


def _uplo(a, UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    a = _stacked(a)
    return a if UPLO == "L" else _mH(a)


def eigh(a, UPLO="L"):
    """numpy.linalg.eigh: (w ascending, v) by parallel cyclic Jacobi on the GPU, on the
    matrices scaled by a power of two."""
    a = _uplo(a, UPLO)
    if a.size == 0:
        return EighResult(*_vk._linalg_eigh(a, True))
    a, scale = _power_of_two_scale(a)
    w, v = _vk._linalg_eigh(a, True)
    return EighResult(w * scale, v)


def eigvalsh(a, UPLO="L"):
    """numpy.linalg.eigvalsh."""
    a = _uplo(a, UPLO)
    if a.size == 0:
        return _vk._linalg_eigh(a, False)[0]
    a, scale = _power_of_two_scale(a)
    return _vk._linalg_eigh(a, False)[0] * scale


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """numpy.linalg.svd by one-sided Jacobi on the GPU: (u, s, vh), or s. `hermitian` is
    accepted and changes nothing (the result is the same). The matrices are scaled by a power
    of two first, so that entries near the dtype's limits neither overflow nor underflow."""
    a = _stacked(a, square=False)
    scale = None
    if a.size:
        a, scale = _power_of_two_scale(a)
    out = _vk._linalg_svd(a, bool(full_matrices), bool(compute_uv))
    s = out[1] if compute_uv else out[0]
    if scale is not None:
        s = s * scale
    return SVDResult(out[0], s, out[2]) if compute_uv else s


def svdvals(x):
    """The array API's svdvals: the singular values, descending."""
    return svd(x, compute_uv=False)


def solve_triangular(a, b, lower=False, unit_diagonal=False):
    """x with a x = b for triangular a (..., n, n) (only its `lower` or upper triangle is
    read) and b (..., n, k) or (..., n); LinAlgError for a zero diagonal element."""
    a = _stacked(a)
    b = _asarray(b, a.context)
    n = a.shape[-1]
    vector = b.ndim == a.ndim - 1
    bm = _vk.expand_dims(b, -1) if vector else b
    if bm.ndim < 2 or bm.shape[-2] != n:
        raise ValueError(f"solve_triangular: b of shape {b.shape} does not match a of shape "
                         f"{a.shape}")
    batch = _np.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    a = _vk.broadcast_to(a, batch + a.shape[-2:])
    bm = _vk.broadcast_to(bm, batch + bm.shape[-2:])
    if lower:  # reversing rows and columns turns a lower triangle into an upper one
        a = _vk.flip(a, (-2, -1))
        bm = _vk.flip(bm, -2)
    u = _triu(a)
    if unit_diagonal:
        eye = _eye(n, dtype=bool, context=a.context)
        u = _math.where(eye, _np.ones((), a.dtype), u)
    elif n and bool(_vk.any(_vk.diagonal(u, 0, -2, -1) == 0)):
        raise LinAlgError("singular matrix: a diagonal element is zero")
    piv = _vk.broadcast_to(arange(n, dtype=_np.int32, context=a.context), batch + (n,))
    x = _vk._linalg_lu_solve(u, piv, bm)
    if lower:
        x = _vk.flip(x, -2)
    return _vk.squeeze(x, -1) if vector else x


# --- Composites ------------------------------------------------------------------------


def pinv(a, rcond=None, hermitian=False, *, rtol=None):
    """numpy.linalg.pinv through the SVD: singular values at most rcond·max(s) dropped
    (rcond defaults to 1e-15 as in numpy 1.x; rtol, the array API's name, to max(M, N)·eps)."""
    a = _stacked(a, square=False)
    if rcond is not None and rtol is not None:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if rcond is None:
        rcond = 1e-15 if rtol is None else rtol
    m, n = a.shape[-2:]
    dtype = _linalg_dtype(a.dtype)
    if m == 0 or n == 0:
        return zeros(a.shape[:-2] + (n, m), dtype=dtype, context=a.context)
    u, s, vh = svd(a, full_matrices=False)
    rcond = _asarray(rcond, a.context)
    cutoff = _vk.expand_dims(rcond, -1) * _vk.max(s, axis=-1, keepdims=True)
    keep = s > cutoff
    s_inv = _math.where(keep, 1 / _math.where(keep, s, 1), 0).astype(dtype)
    return matmul(_mH(vh), _vk.expand_dims(s_inv, -1) * _mH(u))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """numpy.linalg.matrix_rank: singular values above tol (default max(s)·max(M, N)·eps)."""
    A = _asarray(A)
    if A.ndim < 2:
        return astype(_vk.any(A != 0), _np.int64)
    s = svdvals(A)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * _eps(A.dtype)
        else:
            rtol = _vk.expand_dims(_asarray(rtol, A.context), -1)
        tol = _vk.max(s, axis=-1, keepdims=True) * rtol
    else:
        tol = _vk.expand_dims(_asarray(tol, A.context), -1)
    return count_nonzero(s > tol, axis=-1)


def lstsq(a, b, rcond=None):
    """numpy.linalg.lstsq: (x, residuals, rank, s) through the SVD of a (2-d); singular values
    at most rcond·max(s) are dropped (rcond None: eps·max(M, N), numpy 2's default; a negative
    rcond: eps). residuals: squared 2-norms of b - a x per column when rank == N < M, else
    empty. rank is read back (eager)."""
    a = _asarray(a)
    b = _asarray(b, a.context)
    if a.ndim != 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    if b.ndim not in (1, 2):
        raise LinAlgError(f"{b.ndim}-dimensional array given. Array must be one or "
                          "two-dimensional")
    m, n = a.shape
    if b.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    dtype = _np.result_type(_linalg_dtype(a.dtype), _linalg_dtype(b.dtype))
    real = _np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
    bm = _vk.expand_dims(b, -1) if b.ndim == 1 else b
    eps = float(_np.finfo(real).eps)
    if rcond is None:
        rcond = eps * max(m, n)
    elif rcond < 0:
        rcond = eps
    if m == 0 or n == 0:
        x = zeros((n, bm.shape[1]), dtype=dtype, context=a.context)
        s = zeros((0,), dtype=real, context=a.context)
        res = zeros((0,), dtype=real, context=a.context)
        if n == 0 and m > 0:  # numpy's residuals where rank == n < m: all of b
            res = _vk.sum(_math.square(_math.abs(bm.astype(dtype))), axis=0)
        return (_vk.squeeze(x, -1) if b.ndim == 1 else x), res, _np.int32(0), s
    u, s, vh = svd(a.astype(dtype), full_matrices=False)
    keep = s > rcond * _vk.max(s)
    rank = int(count_nonzero(keep))
    s_inv = _math.where(keep, 1 / _math.where(keep, s, 1), 0).astype(dtype)
    uTb = matmul(_mH(u), bm.astype(dtype))
    x = matmul(_mH(vh), _vk.expand_dims(s_inv, -1) * uTb)
    if rank == n and m > n:
        r = bm.astype(dtype) - matmul(a.astype(dtype), x)
        res = _vk.sum(_math.square(_math.abs(r)), axis=0)
    else:
        res = zeros((0,), dtype=real, context=a.context)
    if b.ndim == 1:
        x = _vk.squeeze(x, -1)
    return x, res, _np.int32(rank), s  # numpy's rank is an int32 scalar


def matrix_power(a, n):
    """numpy.linalg.matrix_power by repeated squaring (inv first for negative n)."""
    a = _asarray(a)
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    try:
        n = _operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        eye = _eye(a.shape[-1], dtype=a.dtype, context=a.context)
        return _vk.copy(_vk.broadcast_to(eye, a.shape))
    if n < 0:
        a = inv(a)
        n = -n
    result, base = None, a
    while True:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if not n:
            return _vk.copy(result) if result is a else result
        base = matmul(base, base)


def trace(x, /, *, offset=0, dtype=None):
    """The array API's linalg.trace: over the last two axes."""
    return _trace(x, offset, -2, -1, dtype)


def diagonal(x, /, *, offset=0):
    """The array API's linalg.diagonal: of the last two axes."""
    return _vk.diagonal(x, offset, -2, -1)


def outer(x1, x2, /):
    """The array API's linalg.outer of two 1-d arrays."""
    a, b = _asarray(x1), _asarray(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"outer: Input arrays must be one-dimensional, got {a.ndim}-d and "
                         f"{b.ndim}-d")
    return _vk.expand_dims(a, 1) * _vk.expand_dims(b, 0)


def cross(x1, x2, /, *, axis=-1):
    """The array API's linalg.cross of 3-vectors along `axis` (broadcasting the others)."""
    a, b = _asarray(x1), _asarray(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("cross: inputs must be at least 1-dimensional")
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but "
                         f"they are {a.shape[axis]} and {b.shape[axis]} dimensional instead.")
    a, b = _vk.moveaxis(a, axis, -1), _vk.moveaxis(b, axis, -1)
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    c = _stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return _vk.moveaxis(c, -1, axis)

# numpy.linalg's compositions of the functions above (they import this module).
from ._linalg_extras import cond, multi_dot, tensorinv, tensorsolve  # noqa: E402,F401
# General (non-symmetric) eigenproblems, by shifted QR on the device (they import this module).
from ._linalg_eig import eig, eigvals  # noqa: E402,F401
