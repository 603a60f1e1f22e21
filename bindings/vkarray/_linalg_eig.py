"""vkarray.linalg.eig and eigvals: eigenvalues (and right eigenvectors) of general square
matrices, on the device.

The shifted QR algorithm in complex arithmetic: each step factors the active window of T -
mu*I with vkarray.linalg.qr (a GPU Householder QR) and forms R Q + mu*I, a similarity, so T
converges to upper-triangular (Schur) form; mu is the Wilkinson shift of the window's last
2x2 block (an exceptional shift after 10 steps without progress). When the last row of the
window is below eps * ||A|| it is deflated. Each step reads back two rows of the window (a
few hundred bytes) to choose the shift and decide deflation: the only host work. Eigenvectors
are the Schur vectors Z (the product of the Qs) times the eigenvectors of the triangular T,
found by back-substitution (one device matvec per row), each normalized to unit length with
its largest component real, as LAPACK's geev does. Stacks of matrices are solved one after
the other.

numpy calls LAPACK's geev (Hessenberg reduction, double-shift real QR): eigenvalues agree to
rounding, but their order differs (the order deflation finds them, not LAPACK's), and an
eigenvector is determined only up to a unit factor (fixed here as LAPACK fixes it). For real
input the results are real when every eigenvalue's imaginary part is below n * eps * ||A||,
else complex, as numpy's are real or complex; complex conjugate pairs are conjugate to
rounding, not exactly.
"""

import cmath as _cmath
from collections import namedtuple as _namedtuple

import numpy as _np

from . import _math
from . import _vkarray as _vk
from . import linalg as _linalg  # imported by linalg.py once its own functions are defined
from ._creation import arange, copy, eye, zeros
from ._dtypes import astype
from ._joining import stack

__all__ = ["eig", "eigvals"]

EigResult = _namedtuple("EigResult", ["eigenvalues", "eigenvectors"])


def _check(a, op):
    a = _linalg._stacked(a)
    real = _linalg._linalg_dtype(a.dtype)
    complex_dtype = _np.result_type(real, _np.complex64)
    if a.size and not bool(_vk.all(_math.isfinite(a))):
        raise _linalg.LinAlgError(f"[{op}] Array must not contain infs or NaNs")
    return a, real, complex_dtype


def _wilkinson(t):
    """The eigenvalue of the 2x2 block t closer to its last diagonal entry."""
    a, b, c, d = complex(t[0, 0]), complex(t[0, 1]), complex(t[1, 0]), complex(t[1, 1])
    half = (a + d) / 2
    disc = _cmath.sqrt(((a - d) / 2) ** 2 + b * c)
    mu1, mu2 = half + disc, half - disc
    return mu1 if abs(mu1 - d) <= abs(mu2 - d) else mu2


def _schur(a, vectors, op):
    """(T, Z): A = Z T Z^H with T upper triangular (Z None without vectors)."""
    n = a.shape[-1]
    dtype = a.dtype
    eps = float(_np.finfo(dtype).eps)
    t = copy(a)
    t.eval()
    z = eye(n, dtype=dtype, context=a.context) if vectors else None
    scale = float(_math.sqrt(_vk.sum(_math.real(t * _math.conj(t)))))
    m, steps, stuck = n, 0, 0
    while m > 1 and scale > 0:
        rows = t[m - 2:m, :m].get()
        if float(_np.linalg.norm(rows[1, :m - 1])) <= eps * scale:
            t[m - 1, :m - 1] = 0
            m, stuck = m - 1, 0
            continue
        steps += 1
        stuck += 1
        if steps > 30 * n:
            raise _linalg.LinAlgError(f"[{op}] Eigenvalues did not converge")
        mu = _wilkinson(rows[:, m - 2:m])
        if stuck % 10 == 0:  # no deflation for a while: perturb the shift off a cycle
            mu += 1.5 * abs(complex(rows[1, m - 2])) * complex(0.75, 0.5)
        identity = eye(m, dtype=dtype, context=a.context)
        q, r = _linalg.qr(t[:m, :m] - identity * mu)
        t[:m, :m] = r @ q + identity * mu
        if vectors:
            if m < n:
                t[:m, m:] = _math.conj(_vk.matrix_transpose(q)) @ t[:m, m:]
            z[:, :m] = z[:, :m] @ q
    return t, z


def _triangular_vectors(t, lam, eps, scale):
    """Unit upper-triangular X with T X = X diag(lam): column k solves (T - lam_k) x = 0
    with x_k = 1, by back-substitution over the rows (all columns at once)."""
    n = t.shape[-1]
    x = eye(n, dtype=t.dtype, context=t.context)
    x.eval()
    cols = arange(n, context=t.context)
    small = max(eps * scale, float(_np.finfo(t.dtype).tiny))
    diag = _vk.diagonal(t)
    for i in range(n - 2, -1, -1):
        s = t[i, i + 1:] @ x[i + 1:, :]
        d = diag[i] - lam
        d = _math.where(_math.abs(d) < small, small, d)  # repeated eigenvalues: LAPACK's guard
        x[i, :] = _math.where(cols > i, -s / d, x[i, :])
    return x


def _normalized(v):
    """Columns of unit 2-norm with their largest-magnitude component real and positive."""
    mag = _math.abs(v)
    v = v / _math.sqrt(_vk.sum(mag * mag, axis=0, keepdims=True))
    idx = _vk.argmax(_math.abs(v), axis=0)
    top = _vk.take_along_axis(v, _vk.expand_dims(idx, 0), axis=0)
    return v * (_math.conj(top) / _math.abs(top))


def _one(a, vectors, op):
    n = a.shape[-1]
    t, z = _schur(a, vectors, op)
    lam = copy(_vk.diagonal(t))
    if not vectors:
        return lam, None
    eps = float(_np.finfo(a.dtype).eps)
    scale = float(_math.sqrt(_vk.sum(_math.real(a * _math.conj(a))))) if n else 0.0
    x = _triangular_vectors(t, lam, eps, scale)
    return lam, _normalized(z @ x)


def _eig(a, vectors, op):
    a, real, complex_dtype = _check(a, op)
    n = a.shape[-1]
    batch = a.shape[:-2]
    ac = astype(a, complex_dtype)
    flat = _vk.reshape(ac, (-1, n, n)) if batch else ac[None]
    values, vecs = [], []
    for k in range(flat.shape[0]):
        if n == 0:
            values.append(zeros(0, dtype=complex_dtype, context=a.context))
            vecs.append(zeros((0, 0), dtype=complex_dtype, context=a.context))
            continue
        lam, v = _one(copy(flat[k]), vectors, op)
        values.append(lam)
        vecs.append(v)
    w = _vk.reshape(stack(values), batch + (n,))
    v = _vk.reshape(stack(vecs), batch + (n, n)) if vectors else None
    if real.kind == "f" and n:
        # Real input: real results when every eigenvalue is real to rounding (numpy's rule).
        scale = float(_vk.max(_math.abs(a))) * n
        tol = n * float(_np.finfo(real).eps) * max(scale, float(_np.finfo(real).tiny))
        real_w = _math.abs(_math.imag(w)) <= tol
        if bool(_vk.all(real_w)):
            w = _math.real(w)
            v = _math.real(v) if vectors else None
        else:  # real eigenvalues (and their vectors) of a real matrix are real, as LAPACK's
            w = _math.where(real_w, _math.real(w), w)
            if vectors:
                v = _math.where(_vk.expand_dims(real_w, -2), _math.real(v), v)
    return w, v


def eig(a):
    """numpy.linalg.eig: the eigenvalues w and right eigenvectors v (columns, unit length)
    of each square matrix, a @ v = v * w, on the device (the module docstring says how, and
    where the results differ from LAPACK's: eigenvalue order, conjugate pairs)."""
    w, v = _eig(a, True, "eig")
    return EigResult(w, v)


def eigvals(a):
    """numpy.linalg.eigvals: the eigenvalues of each square matrix, on the device (eig's
    algorithm without the Schur vectors)."""
    return _eig(a, False, "eigvals")[0]
