"""numpy's polynomial helpers on coefficient arrays (highest power first), on the device:
polyval (Horner's rule), polyadd, polysub, polymul, polyder, polyint and polyfit (least squares
through vkarray.linalg)."""

import numpy as _np

from . import _math, _vkarray, linalg
from ._creation import arange, full, zeros, zeros_like
from ._dtypes import astype
from ._grids import vander
from ._joining import concatenate
from ._numeric import convolve
from ._shaping import _asarray

__all__ = [
    "polyval", "polyadd", "polysub", "polymul", "polyder", "polyint", "polyfit",
]


def polyval(p, x):
    """numpy.polyval: Horner's rule with the coefficients p (highest power first)."""
    x = _asarray(x)
    p = _asarray(p, x.context)
    if p.ndim != 1:
        raise ValueError("[polyval] p must be a 1-d sequence of coefficients")
    y = zeros_like(x, dtype=_vkarray.result_type(p, x))
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def _poly(p):
    return _vkarray.ravel(_asarray(p))


def polyadd(a1, a2):
    """numpy.polyadd of coefficient sequences (highest power first)."""
    a1, a2 = _poly(a1), _poly(a2)
    d = a1.shape[0] - a2.shape[0]
    if d > 0:
        a2 = concatenate([zeros((d,), dtype=a2.dtype), a2])
    elif d < 0:
        a1 = concatenate([zeros((-d,), dtype=a1.dtype), a1])
    return a1 + a2


def polysub(a1, a2):
    """numpy.polysub: a1 - a2 of coefficient sequences."""
    return polyadd(a1, -_poly(a2))


def polymul(a1, a2):
    """numpy.polymul: the product polynomial (a convolution of the coefficients)."""
    return convolve(_poly(a1), _poly(a2))


def polyder(p, m=1):
    """numpy.polyder: the m-th derivative."""
    if m < 0:
        raise ValueError("[polyder] Order of derivative must be positive (see polyint)")
    p = _poly(p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * arange(n, 0, -1)
    return p


def polyint(p, m=1, k=None):
    """numpy.polyint: the m-th antiderivative with integration constants k (default 0)."""
    if m < 0:
        raise ValueError("[polyint] Order of integral must be positive (see polyder)")
    ks = [0.0] * m if k is None else list(_np.atleast_1d(k))
    if len(ks) == 1 and m > 1:
        ks = ks * m
    if len(ks) < m:
        raise ValueError("[polyint] k must be a scalar or a rank-1 array of length 1 or >m.")
    p = astype(_poly(p), _np.result_type(_poly(p).dtype, _np.float64))
    for i in range(m):
        n = p.shape[0]
        p = concatenate([p / arange(n, 0, -1), full((1,), ks[i], dtype=p.dtype)])
    return p


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """numpy.polyfit by least squares on the column-scaled Vandermonde matrix, as numpy
    computes it (full=True, w= and cov= are not supported yet)."""
    if full or w is not None or cov:
        raise NotImplementedError("[polyfit] full=True, w= and cov= are not supported yet")
    deg = int(deg)
    if deg < 0:
        raise ValueError("[polyfit] expected deg >= 0")
    x, y = _asarray(x), _asarray(y)
    if x.ndim != 1:
        raise TypeError("[polyfit] expected 1D vector for x")
    if x.size == 0:
        raise TypeError("[polyfit] expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("[polyfit] expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("[polyfit] expected x and y to have same length")
    t = _np.result_type(x.dtype, y.dtype, 1.0)
    x, y = astype(x, t), astype(y, t)
    rcond = x.shape[0] * _np.finfo(t).eps if rcond is None else rcond
    lhs = vander(x, deg + 1)
    scale = _math.sqrt(_vkarray.sum(lhs * lhs, axis=0))
    c = linalg.lstsq(lhs / scale, y, rcond=rcond)[0]
    return c / scale if c.ndim == 1 else c / _vkarray.reshape(scale, (-1, 1))
