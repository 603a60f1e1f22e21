"""numpy's polynomial helpers on coefficient arrays (highest power first), on the device:
polyval (Horner's rule), polyadd, polysub, polymul, polydiv (long division), polyder, polyint,
polyfit (least squares through vkarray.linalg), and poly and roots (from and to roots; a
matrix's or companion matrix's eigenvalues by vkarray.linalg.eigvals)."""

import warnings as _warnings

import numpy as _np

from . import _math, _vkarray, linalg
from ._creation import arange, eye, full, zeros, zeros_like
from ._dtypes import astype
from ._grids import vander
from ._joining import concatenate
from ._logic import allclose
from ._manipulation import atleast_1d, trim_zeros
from ._numeric import convolve
from ._shaping import _asarray
from ._sorting import sort_complex

__all__ = [
    "polyval", "polyadd", "polysub", "polymul", "polyder", "polyint", "polyfit", "poly",
    "polydiv", "roots", "poly1d",
]


def polyval(p, x):
    """numpy.polyval: Horner's rule with the coefficients p (highest power first; a poly1d's
    coefficients); for a poly1d x, the composition p(x) as a poly1d."""
    if _is_poly1d(x):
        x = poly1d(x)
        p = _poly(p)
        result = poly1d(0)
        for i in range(p.shape[0]):
            result = result * x + poly1d(p[i:i + 1])
        return result
    x = _asarray(x)
    p = _asarray(_coeffs(p), x.context)
    if p.ndim != 1:
        raise ValueError("[polyval] p must be a 1-d sequence of coefficients")
    y = zeros_like(x, dtype=_vkarray.result_type(p, x))
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def _is_poly1d(p):
    return isinstance(p, (poly1d, _np.poly1d))  # numpy's own reaches here through NEP 18


def _coeffs(p):
    return p.coeffs if _is_poly1d(p) else p


def _poly(p):
    return _vkarray.ravel(_asarray(_coeffs(p)))


def _as_given(result, *inputs):
    """numpy's rule: a poly1d result where any input is a poly1d."""
    return poly1d(result) if any(_is_poly1d(p) for p in inputs) else result


def _add(a1, a2):
    a1, a2 = _poly(a1), _poly(a2)
    d = a1.shape[0] - a2.shape[0]
    if d > 0:
        a2 = concatenate([zeros((d,), dtype=a2.dtype), a2])
    elif d < 0:
        a1 = concatenate([zeros((-d,), dtype=a1.dtype), a1])
    return a1 + a2


def polyadd(a1, a2):
    """numpy.polyadd of coefficient sequences (highest power first; poly1d in, poly1d out)."""
    return _as_given(_add(a1, a2), a1, a2)


def polysub(a1, a2):
    """numpy.polysub: a1 - a2 of coefficient sequences."""
    return _as_given(_add(a1, -_poly(a2)), a1, a2)


def polymul(a1, a2):
    """numpy.polymul: the product polynomial (a convolution of the coefficients)."""
    return _as_given(convolve(_poly(a1), _poly(a2)), a1, a2)


def polyder(p, m=1):
    """numpy.polyder: the m-th derivative."""
    if m < 0:
        raise ValueError("[polyder] Order of derivative must be positive (see polyint)")
    given, p = p, _poly(p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * arange(n, 0, -1)
    return _as_given(p, given)


def polyint(p, m=1, k=None):
    """numpy.polyint: the m-th antiderivative with integration constants k (default 0)."""
    if m < 0:
        raise ValueError("[polyint] Order of integral must be positive (see polyder)")
    ks = [0.0] * m if k is None else list(_np.atleast_1d(k))
    if len(ks) == 1 and m > 1:
        ks = ks * m
    if len(ks) < m:
        raise ValueError("[polyint] k must be a scalar or a rank-1 array of length 1 or >m.")
    given = p
    p = astype(_poly(p), _np.result_type(_poly(p).dtype, _np.float64))
    for i in range(m):
        n = p.shape[0]
        p = concatenate([p / arange(n, 0, -1), full((1,), ks[i], dtype=p.dtype)])
    return _as_given(p, given)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """numpy.polyfit by least squares on the column-scaled Vandermonde matrix, in numpy's
    steps: weights w scale its rows; full=True returns (c, residuals, rank, singular values,
    rcond); cov=True or 'unscaled' also the covariance of c. A rank below deg + 1 warns
    (numpy's RankWarning; the rank is read to the host)."""
    deg = int(deg)
    if deg < 0:
        raise ValueError("[polyfit] expected deg >= 0")
    order = deg + 1
    x, y = _asarray(x) + 0.0, _asarray(y) + 0.0
    if x.ndim != 1:
        raise TypeError("[polyfit] expected 1D vector for x")
    if x.size == 0:
        raise TypeError("[polyfit] expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("[polyfit] expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("[polyfit] expected x and y to have same length")
    rcond = x.shape[0] * _np.finfo(x.dtype).eps if rcond is None else rcond
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = _asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("[polyfit] expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("[polyfit] expected w and y to have the same length")
        column = _vkarray.reshape(w, (-1, 1))
        lhs *= column
        rhs *= column if rhs.ndim == 2 else w
    scale = _math.sqrt(_vkarray.sum(lhs * lhs, axis=0))
    lhs /= scale
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond=rcond)
    c = c / scale if c.ndim == 1 else c / _vkarray.reshape(scale, (-1, 1))
    if rank != order and not full:
        _warnings.warn("Polyfit may be poorly conditioned", _np.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    base = linalg.inv(_vkarray.transpose(lhs) @ lhs)
    base = base / (_vkarray.reshape(scale, (-1, 1)) * _vkarray.reshape(scale, (1, -1)))
    if cov == "unscaled":
        fac = 1
    else:
        if x.shape[0] <= order:
            raise ValueError("[polyfit] the number of data points must exceed order to scale "
                             f"the covariance matrix (points = {x.shape[0]}, order = {order})")
        fac = resids / (x.shape[0] - order)
    return c, (base * fac if y.ndim == 1 else _vkarray.reshape(base, base.shape + (1,)) * fac)


def roots(p):
    """numpy.roots: the roots of the polynomial with coefficients p (highest power first):
    the eigenvalues of its companion matrix (vkarray.linalg.eigvals, on the device), plus a
    zero root per trailing zero coefficient. Where the leading and trailing zeros are is read
    to the host (it decides the result's length)."""
    p = atleast_1d(_asarray(_coeffs(p)))
    if p.ndim != 1:
        raise ValueError("[roots] Input must be a rank-1 array.")
    nonzero = _vkarray.flatnonzero(p).get()
    if len(nonzero) == 0:
        return zeros(0, context=p.context)
    trailing = p.shape[0] - int(nonzero[-1]) - 1
    p = p[int(nonzero[0]):int(nonzero[-1]) + 1]
    if p.dtype.kind not in "fc":
        p = astype(p, _np.float64)
    n = p.shape[0]
    if n > 1:
        a = eye(n - 1, k=-1, dtype=p.dtype, context=p.context)
        a[0, :] = -p[1:] / p[0]
        r = linalg.eigvals(a)
    else:
        r = zeros(0, dtype=p.dtype, context=p.context)
    return concatenate([r, zeros(trailing, dtype=r.dtype, context=p.context)])


def poly(seq_of_zeros):
    """numpy.poly: the coefficients (highest power first) of the monic polynomial with the
    given roots, or with a square matrix's eigenvalues (vkarray.linalg.eigvals) as roots.
    Complex roots that come in conjugate pairs give a real result, as numpy's (the check reads
    one boolean to the host)."""
    z = atleast_1d(_asarray(seq_of_zeros))
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = linalg.eigvals(z)
    elif z.ndim == 1:
        z = astype(z, _np.mintypecode(z.dtype.char))
    else:
        raise ValueError("[poly] input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    a = full((1,), 1, dtype=z.dtype)
    zero = zeros((1,), dtype=z.dtype)
    for i in range(z.shape[0]):  # a * (x - z[i])
        a = concatenate([a, zero]) - z[i] * concatenate([zero, a])
    if a.dtype.kind == "c":
        r = astype(z, _np.complex128)
        if bool(_vkarray.all(sort_complex(r) == sort_complex(_math.conj(r)))):
            a = _math.real(a).copy()
    return a


def polydiv(u, v):
    """numpy.polydiv: quotient and remainder of u / v (long division on the device), the
    remainder's leading near-zeros (numpy's allclose(r[0], 0, rtol=1e-14)) trimmed: each
    trimming step reads one boolean to the host."""
    given = (u, v)
    u, v = _poly(u) + 0.0, _poly(v) + 0.0
    t = _np.result_type(u.dtype, v.dtype)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = zeros((max(m - n + 1, 1),), dtype=t)
    r = astype(u, t, copy=True)
    for k in range(0, m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while r.shape[0] > 1 and allclose(r[0], 0, rtol=1e-14):
        r = r[1:]
    return _as_given(q, *given), _as_given(r, *given)


class poly1d:  # noqa: N801 — numpy's name
    """numpy.poly1d: a polynomial of its coefficients (highest power first, leading zeros
    trimmed), a vkarray array on the device: evaluation, arithmetic with polynomials and
    scalars, powers, division (polydiv), deriv, integ, roots and coefficient access. Equality
    and trimming read the values they decide on; repr and str format a host copy."""

    __module__ = "vkarray"
    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._coeffs, self._variable = c_or_r._coeffs, c_or_r._variable
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c = atleast_1d(_asarray(c_or_r))
        if c.ndim > 1:
            raise ValueError("[poly1d] Polynomial must be 1d only.")
        c = trim_zeros(c, trim="f")
        if c.shape[0] == 0:
            c = zeros((1,), dtype=c.dtype, context=c.context)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        """The coefficients, highest power first (a vkarray array)."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:  # numpy's: only in-place changes
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs
    variable = property(lambda self: self._variable, doc="The variable's name in str().")
    order = property(lambda self: self._coeffs.shape[0] - 1, doc="The degree.")
    o = order
    roots = property(lambda self: roots(self._coeffs), doc="The roots (vkarray.roots).")
    r = roots

    def __array__(self, dtype=None):
        """numpy.asarray(p): the coefficients, downloaded."""
        host = self._coeffs.get()
        return host if dtype is None else host.astype(dtype)

    def __repr__(self):
        return f"poly1d({repr(self._coeffs.get())[6:-1]})"

    def __str__(self):
        return str(_np.poly1d(self._coeffs.get(), variable=self._variable))

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if _np.isscalar(other) or _is_scalar_array(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    __rmul__ = __mul__

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not _np.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("[poly1d] Power to non-negative integers only.")
        # numpy's [1]: an int64 polynomial, which each product promotes with the coefficients
        res = full((1,), 1, dtype=_np.int64, context=self._coeffs.context)
        for _ in range(int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if _np.isscalar(other) or _is_scalar_array(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if _np.isscalar(other) or _is_scalar_array(other):
            return poly1d(other / self._coeffs)
        return polydiv(poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool(_vkarray.all(self._coeffs == other._coeffs))

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        """The coefficient of x**val (0 beyond the degree)."""
        if val < 0 or val > self.order:
            return self._coeffs.dtype.type(0)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("[poly1d] Does not support negative powers.")
        if key > self.order:
            pad = zeros((key - self.order,), dtype=self._coeffs.dtype,
                        context=self._coeffs.context)
            self._coeffs = concatenate([pad, self._coeffs])
        self._coeffs[self.order - key] = val

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """The m-th antiderivative (polyint) as a poly1d."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The m-th derivative (polyder) as a poly1d."""
        return poly1d(polyder(self._coeffs, m=m))


def _is_scalar_array(x):
    return isinstance(x, _vkarray.ndarray) and x.ndim == 0
