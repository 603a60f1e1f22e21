"""numpy's numerical helpers composed from vkarray operations on the device: interpolation,
convolution, finite differences and integration, cross products, ordering (lexsort,
digitize), 2-d histograms, covariance, set operations, polynomials."""

import numpy as _np

from ._namespace import vk as _vk
from ._joining import concatenate
from ._shaping import _AxisError, _asarray, _asarrays

__all__ = [
    "interp", "convolve", "correlate", "gradient", "unwrap", "cross", "trapz", "trapezoid",
    "lexsort", "digitize", "histogram2d", "cov", "corrcoef", "union1d", "intersect1d",
    "setdiff1d", "setxor1d", "trim_zeros", "polyval",
]


def _float(x):
    return x if x.dtype.kind in "fc" else _vk.astype(x, _np.float64)


def interp(x, xp, fp, left=None, right=None, period=None):
    """numpy.interp: piecewise-linear interpolation of (xp, fp) at x (xp increasing); left
    and right default to fp[0] and fp[-1]; `period` wraps x and xp."""
    x, xp, fp = _asarrays("interp", [x, xp, fp])
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("[interp] data points must be 1-D sequences")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("[interp] fp and xp are not of the same length")
    if xp.shape[0] == 0:
        raise ValueError("[interp] array of sample points is empty")
    ft = _np.complex128 if fp.dtype.kind == "c" else _np.float64
    x, xp, fp = (_vk.astype(x, _np.float64), _vk.astype(xp, _np.float64),
                 _vk.astype(fp, ft))
    if period is not None:
        if period == 0:
            raise ValueError("[interp] period must be a non-zero value")
        period = abs(period)
        left = right = None
        x, xp = _vk.remainder(x, period), _vk.remainder(xp, period)
        order = _vk.argsort(xp, stable=True)
        xp, fp = _vk.take(xp, order), _vk.take(fp, order)
        xp = concatenate([xp[-1:] - period, xp, xp[0:1] + period])
        fp = concatenate([fp[-1:], fp, fp[0:1]])
    n = xp.shape[0]
    if n == 1:
        r = _vk.broadcast_to(fp[0], x.shape)
    else:
        j = _vk.clip(_vk.searchsorted(xp, x, side="right") - 1, 0, n - 2)
        x0, x1 = _vk.take(xp, j), _vk.take(xp, j + 1)
        f0, f1 = _vk.take(fp, j), _vk.take(fp, j + 1)
        slope = (f1 - f0) / (x1 - x0)
        r = slope * (x - x0) + f0
        r = _vk.where(x == xp[-1], fp[-1], r)
    lo = fp[0] if left is None else left
    hi = fp[-1] if right is None else right
    r = _vk.where(x < xp[0], lo, _vk.where(x > xp[-1], hi, r))
    return _vk.astype(r, ft)


def _sliding_dot(a, v, lo, count):
    """out[k] = sum_j a[k + lo + j] * v[j] for k < count (a zero-padded outside its range):
    one gather of the windows and one matrix-vector product."""
    m = v.shape[0]
    pad_before = max(0, -lo)
    pad_after = max(0, lo + count + m - 1 - a.shape[0])
    t = _vk.result_type(a, v)
    a = _vk.astype(a, t)
    if pad_before or pad_after:
        a = _vk.pad(a, (pad_before, pad_after))
    start = lo + pad_before
    idx = (_vk.reshape(_vk.arange(count), (count, 1)) + _vk.reshape(_vk.arange(m), (1, m))
           + start)
    return _vk.matmul(_vk.take(a, idx), _vk.astype(v, t))


def _mode_range(mode, n, m):
    """(first window offset, count) of numpy's modes for lengths n >= m."""
    if mode == "valid":
        return 0, n - m + 1
    if mode == "same":
        return -(m // 2), n
    if mode == "full":
        return -(m - 1), n + m - 1
    raise ValueError(f"[convolve] mode must be one of 'valid', 'same', 'full', got {mode!r}")


def correlate(a, v, mode="valid"):
    """numpy.correlate: c[k] = sum_n a[n + k] * conj(v[n]) of 1-d sequences."""
    a, v = _asarrays("correlate", [a, v])
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("[correlate] object too deep for desired array")
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError(f"[correlate] {'a' if a.shape[0] == 0 else 'v'} cannot be empty")
    if v.dtype.kind == "c":
        v = _vk.conj(v)
    swapped = v.shape[0] > a.shape[0]
    if swapped:
        a, v = v, a
    lo, count = _mode_range(mode, a.shape[0], v.shape[0])
    r = _sliding_dot(a, v, lo, count)
    if swapped:  # numpy: correlate(v, a) reversed (and conjugated back for complex)
        r = _vk.flip(r)
        if r.dtype.kind == "c":
            r = _vk.conj(r)
    return r


def convolve(a, v, mode="full"):
    """numpy.convolve: the discrete linear convolution of two 1-d sequences."""
    a, v = _asarrays("convolve", [a, v])
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("[convolve] object too deep for desired array")
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError(f"[convolve] {'a' if a.shape[0] == 0 else 'v'} cannot be empty")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    lo, count = _mode_range(mode, a.shape[0], v.shape[0])
    return _sliding_dot(a, _vk.flip(v), lo, count)


def _axes(op, axis, ndim):
    axes = range(ndim) if axis is None else (axis if isinstance(axis, (tuple, list)) else
                                            (axis,))
    out = []
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise _AxisError(f"[{op}] axis {ax} is out of bounds for array of dimension {ndim}")
        out.append(ax % ndim)
    return out


def _sl(ndim, axis, s):
    index = [slice(None)] * ndim
    index[axis] = s
    return tuple(index)


def gradient(f, *varargs, axis=None, edge_order=1):
    """numpy.gradient with uniform (scalar) spacings: central differences inside, one-sided
    differences of order edge_order (1 or 2) at the edges."""
    f = _asarray(f)
    axes = _axes("gradient", axis, f.ndim)
    if len(varargs) == 0:
        dx = [1.0] * len(axes)
    elif len(varargs) == 1 and _np.ndim(varargs[0]) == 0:
        dx = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes) and all(_np.ndim(d) == 0 for d in varargs):
        dx = list(varargs)
    else:
        raise NotImplementedError("[gradient] coordinate arrays as spacing are not supported "
                                  "yet; pass scalar spacings")
    if edge_order not in (1, 2):
        raise ValueError("[gradient] 'edge_order' greater than 2 not supported")
    if f.dtype.kind not in "fc":
        f = _vk.astype(f, _np.float64)
    out = []
    for ax, h in zip(axes, dx):
        n = f.shape[ax]
        if n < edge_order + 1:
            raise ValueError("[gradient] Shape of array too small to calculate a numerical "
                             "gradient, at least (edge_order + 1) elements are required.")
        mid = (f[_sl(f.ndim, ax, slice(2, None))] - f[_sl(f.ndim, ax, slice(None, -2))]) / (2.0 * h)
        if edge_order == 1:
            first = (f[_sl(f.ndim, ax, slice(1, 2))] - f[_sl(f.ndim, ax, slice(0, 1))]) / h
            last = (f[_sl(f.ndim, ax, slice(-1, None))] - f[_sl(f.ndim, ax, slice(-2, -1))]) / h
        else:
            g = [f[_sl(f.ndim, ax, slice(i, i + 1 if i != -1 else None))] for i in (0, 1, 2)]
            first = (-1.5 * g[0] + 2.0 * g[1] - 0.5 * g[2]) / h
            e = [f[_sl(f.ndim, ax, slice(i, i + 1 if i != -1 else None))] for i in (-3, -2, -1)]
            last = (0.5 * e[0] - 2.0 * e[1] + 1.5 * e[2]) / h
        out.append(concatenate([first, mid, last], axis=ax))
    return out[0] if len(out) == 1 else tuple(out)


def unwrap(p, discont=None, axis=-1, *, period=2 * _np.pi):
    """numpy.unwrap: jumps larger than max(discont, period/2) replaced by their period
    complement (float path of numpy's algorithm)."""
    p = _float(_asarray(p))
    ax = _axes("unwrap", axis, p.ndim)[0]
    discont = period / 2 if discont is None else discont
    dd = _vk.diff(p, axis=ax)
    half = period / 2
    ddmod = _vk.remainder(dd + half, period) - half
    ddmod = _vk.where((ddmod == -half) & (dd > 0), half, ddmod)
    correct = _vk.where(_vk.abs(dd) < discont, 0.0, ddmod - dd)
    head = p[_sl(p.ndim, ax, slice(0, 1))]
    return concatenate([head, p[_sl(p.ndim, ax, slice(1, None))]
                        + _vk.cumsum(correct, axis=ax)], axis=ax)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross of 2- and 3-component vectors (2-component: the z component alone)."""
    a, b = _asarrays("cross", [a, b])
    if axis is not None:
        axisa = axisb = axisc = axis
    a = _vk.moveaxis(a, _axes("cross", axisa, a.ndim)[0], -1)
    b = _vk.moveaxis(b, _axes("cross", axisb, b.ndim)[0], -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("[cross] incompatible dimensions for cross product (dimension must "
                         "be 2 or 3)")
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    a2 = a[..., 2] if a.shape[-1] == 3 else None
    b2 = b[..., 2] if b.shape[-1] == 3 else None
    z = a0 * b1 - a1 * b0
    if a2 is None and b2 is None:
        return z
    zero = _vk.zeros((), a.dtype)
    a2 = zero if a2 is None else a2
    b2 = zero if b2 is None else b2
    r = _vk.stack(_vk.broadcast_arrays(a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, z), axis=-1)
    return _vk.moveaxis(r, -1, _axes("cross", axisc, r.ndim)[0])


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """numpy.trapezoid (numpy 1.x's trapz): the trapezoidal rule along axis."""
    y = _asarray(y)
    ax = _axes("trapezoid", axis, y.ndim)[0]
    if x is None:
        d = dx
    else:
        x = _asarray(x, y.context)
        d = _vk.diff(x)
        if x.ndim == 1:
            d = _vk.reshape(d, (-1,) + (1,) * (y.ndim - 1 - ax))
        else:
            d = _vk.diff(x, axis=ax)
    s = y[_sl(y.ndim, ax, slice(1, None))] + y[_sl(y.ndim, ax, slice(None, -1))]
    return _vk.sum(d * s / 2.0, axis=ax)


trapz = trapezoid


def lexsort(keys, axis=-1):
    """numpy.lexsort: indices sorting by the last key, then the one before, ... (stable
    sorts from the first key to the last)."""
    keys = _asarrays("lexsort", list(keys) if not isinstance(keys, _vk.ndarray) else
                     [keys[i] for i in range(keys.shape[0])])
    if not keys:
        raise TypeError("[lexsort] need sequence of keys with len > 0 in lexsort")
    if axis not in (-1, keys[0].ndim - 1) or keys[0].ndim != 1:
        raise NotImplementedError("[lexsort] only 1-d keys are supported yet")
    order = _vk.argsort(keys[0], stable=True)
    for k in keys[1:]:
        order = _vk.take(order, _vk.argsort(_vk.take(k, order), stable=True))
    return order


def digitize(x, bins, right=False):
    """numpy.digitize: the index of the bin of each x (bins monotonic, either direction)."""
    x, bins = _asarrays("digitize", [x, bins])
    if x.dtype.kind == "c":
        raise TypeError("[digitize] x may not be complex")
    if bins.ndim != 1:
        raise ValueError("[digitize] object too deep for desired array")
    d = _vk.diff(bins)
    increasing = bool(_vk.all(d >= 0))
    if not increasing and not bool(_vk.all(d <= 0)):
        raise ValueError("[digitize] bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if increasing:
        return _vk.searchsorted(bins, x, side=side)
    return bins.shape[0] - _vk.searchsorted(_vk.flip(bins), x, side=side)


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """numpy.histogram2d with equal-width bins (a bin count or a pair of counts): H, xedges,
    yedges; the last bin of each axis includes its right edge, as numpy's."""
    x, y = _asarrays("histogram2d", [x, y])
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"[histogram2d] x and y must be 1-d of the same length, got shapes "
                         f"{x.shape} and {y.shape}")
    nb = (bins, bins) if _np.ndim(bins) == 0 else tuple(bins)
    if not all(_np.ndim(b) == 0 for b in nb):
        raise NotImplementedError("[histogram2d] explicit bin edges are not supported yet")
    rng = range or (None, None)
    edges, idx = [], []
    for v, n, r in zip((x, y), nb, rng):
        lo, hi = (float(_vk.min(v)), float(_vk.max(v))) if r is None else map(float, r)
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        e = _vk.linspace(lo, hi, int(n) + 1)
        i = _vk.searchsorted(e, v, side="right")
        i = _vk.where(v == hi, int(n), i)  # the right edge belongs to the last bin
        edges.append(e)
        idx.append(i)
    valid = (idx[0] >= 1) & (idx[0] <= nb[0]) & (idx[1] >= 1) & (idx[1] <= nb[1])
    flat = _vk.where(valid, (idx[0] - 1) * int(nb[1]) + (idx[1] - 1), nb[0] * nb[1])
    w = None if weights is None else _asarray(weights, x.context)
    counts = _vk.bincount(flat, weights=w, minlength=int(nb[0] * nb[1]) + 1)
    h = _vk.reshape(counts[:-1], (int(nb[0]), int(nb[1])))
    h = _vk.astype(h, _np.float64)
    if density:
        area = _vk.reshape(_vk.diff(edges[0]), (-1, 1)) * _vk.reshape(_vk.diff(edges[1]), (1, -1))
        h = h / area / _vk.sum(h)
    return h, edges[0], edges[1]


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """numpy.cov without weights: variables in rows (rowvar) or columns."""
    if fweights is not None or aweights is not None:
        raise NotImplementedError("[cov] fweights and aweights are not supported yet")
    m = _asarray(m)
    if m.ndim > 2:
        raise ValueError("[cov] m has more than 2 dimensions")
    t = dtype or _np.result_type(m.dtype, _np.float64)
    x = _vk.astype(_vk.reshape(m, (1, -1)) if m.ndim < 2 else m, t)
    if not rowvar and x.shape[0] != 1:
        x = _vk.transpose(x)
    if y is not None:
        y = _vk.astype(_asarray(y, m.context), t)
        y = _vk.reshape(y, (1, -1)) if y.ndim < 2 else y
        if not rowvar and y.shape[0] != 1:
            y = _vk.transpose(y)
        x = concatenate([x, y], axis=0)
    ddof = (0 if bias else 1) if ddof is None else ddof
    n = x.shape[1]
    xc = x - _vk.mean(x, axis=1, keepdims=True)
    c = _vk.matmul(xc, _vk.conj(_vk.transpose(xc)) if xc.dtype.kind == "c" else
                   _vk.transpose(xc)) / max(n - ddof, 0)
    return _vk.squeeze(c)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """numpy.corrcoef: the covariance normalised by the standard deviations, real parts
    clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = _vk.sqrt(_vk.real(_vk.diagonal(c)))
    c = c / _vk.reshape(d, (-1, 1)) / _vk.reshape(d, (1, -1))
    if c.dtype.kind == "c":
        return _vk.astype(_vk.clip(_vk.real(c), -1, 1), c.dtype) + 1j * _vk.clip(_vk.imag(c), -1, 1)
    return _vk.clip(c, -1, 1)


def union1d(ar1, ar2):
    """numpy.union1d: the sorted unique values of either array."""
    a, b = _asarrays("union1d", [ar1, ar2])
    return _vk.unique(concatenate([_vk.ravel(a), _vk.ravel(b)]))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """numpy.intersect1d: the sorted values in both arrays."""
    if return_indices:
        raise NotImplementedError("[intersect1d] return_indices=True is not supported yet")
    a, b = _asarrays("intersect1d", [ar1, ar2])
    a, b = (_vk.ravel(a), _vk.ravel(b)) if assume_unique else (_vk.unique(a), _vk.unique(b))
    aux = _vk.sort(concatenate([a, b]))
    same = aux[1:] == aux[:-1]
    return _vk.compress(same, aux[:-1])


def setdiff1d(ar1, ar2, assume_unique=False):
    """numpy.setdiff1d: the sorted unique values of ar1 not in ar2."""
    a, b = _asarrays("setdiff1d", [ar1, ar2])
    a = _vk.ravel(a) if assume_unique else _vk.unique(a)
    return _vk.compress(_vk.isin(a, b, invert=True), a)


def setxor1d(ar1, ar2, assume_unique=False):
    """numpy.setxor1d: the sorted unique values in exactly one of the arrays."""
    a, b = _asarrays("setxor1d", [ar1, ar2])
    if not assume_unique:
        a, b = _vk.unique(a), _vk.unique(b)
    aux = _vk.sort(concatenate([_vk.ravel(a), _vk.ravel(b)]))
    if aux.shape[0] == 0:
        return aux
    true = _vk.ones((1,), dtype=_np.bool_)
    flag = concatenate([true, aux[1:] != aux[:-1], true])
    return _vk.compress(flag[1:] & flag[:-1], aux)


def trim_zeros(filt, trim="fb"):
    """numpy.trim_zeros: leading ('f') and/or trailing ('b') zeros removed from a 1-d array."""
    a = _asarray(filt)
    nz = _vk.flatnonzero(a)
    if nz.shape[0] == 0:
        return a[:0]
    first = int(nz[0]) if "f" in trim.lower() else 0
    last = int(nz[-1]) + 1 if "b" in trim.lower() else a.shape[0]
    return a[first:last]


def polyval(p, x):
    """numpy.polyval: Horner's rule with the coefficients p (highest power first)."""
    x = _asarray(x)
    p = _asarray(p, x.context)
    if p.ndim != 1:
        raise ValueError("[polyval] p must be a 1-d sequence of coefficients")
    y = _vk.zeros_like(x, dtype=_vk.result_type(p, x))
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y
