"""numpy's numerical helpers composed from vkarray operations on the device: interpolation
(interp), convolution (convolve, correlate), finite differences and integration (gradient,
trapezoid, trapz), unwrap and cross products."""

import numpy as _np

from . import _math, _vkarray
from ._creation import arange, zeros
from ._cumulative import cumsum, diff
from ._dtypes import astype
from ._joining import concatenate, stack
from ._products import matmul
from ._reorder import pad
from ._sorting import argsort
from ._shaping import _AxisError, _asarray, _asarrays

__all__ = [
    "interp", "convolve", "correlate", "gradient", "unwrap", "cross", "trapezoid", "trapz",
]


def _float(x):
    return x if x.dtype.kind in "fc" else astype(x, _np.float64)


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
    x, xp, fp = (astype(x, _np.float64), astype(xp, _np.float64),
                 astype(fp, ft))
    if period is not None:
        if period == 0:
            raise ValueError("[interp] period must be a non-zero value")
        period = abs(period)
        left = right = None
        x, xp = _math.remainder(x, period), _math.remainder(xp, period)
        order = argsort(xp, stable=True)
        xp, fp = _vkarray.take(xp, order), _vkarray.take(fp, order)
        xp = concatenate([xp[-1:] - period, xp, xp[0:1] + period])
        fp = concatenate([fp[-1:], fp, fp[0:1]])
    n = xp.shape[0]
    if n == 1:
        r = _vkarray.broadcast_to(fp[0], x.shape)
    else:
        j = _math.clip(_vkarray.searchsorted(xp, x, side="right") - 1, 0, n - 2)
        x0, x1 = _vkarray.take(xp, j), _vkarray.take(xp, j + 1)
        f0, f1 = _vkarray.take(fp, j), _vkarray.take(fp, j + 1)
        slope = (f1 - f0) / (x1 - x0)
        r = slope * (x - x0) + f0
        r = _math.where(x == xp[-1], fp[-1], r)
    lo = fp[0] if left is None else left
    hi = fp[-1] if right is None else right
    r = _math.where(x < xp[0], lo, _math.where(x > xp[-1], hi, r))
    return astype(r, ft)


def _sliding_dot(a, v, lo, count):
    """out[k] = sum_j a[k + lo + j] * v[j] for k < count (a zero-padded outside its range):
    one gather of the windows and one matrix-vector product."""
    m = v.shape[0]
    pad_before = max(0, -lo)
    pad_after = max(0, lo + count + m - 1 - a.shape[0])
    t = _vkarray.result_type(a, v)
    a = astype(a, t)
    if pad_before or pad_after:
        a = pad(a, (pad_before, pad_after))
    start = lo + pad_before
    idx = (_vkarray.reshape(arange(count), (count, 1)) + _vkarray.reshape(arange(m), (1, m))
           + start)
    return matmul(_vkarray.take(a, idx), astype(v, t))


def _mode_range(mode, n, m):
    """(first window offset, count) of numpy's modes for lengths n >= m."""
    if mode == "valid":
        return 0, n - m + 1
    if mode == "same":
        return -(m // 2), n
    if mode == "full":
        return -(m - 1), n + m - 1
    raise ValueError(f"[convolve] mode must be one of 'valid', 'same', 'full', got {mode!r}")


def _sequences(op, a, v):
    """a and v as non-empty 1-d ndarrays (numpy's errors otherwise)."""
    a, v = _asarrays(op, [a, v])
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"[{op}] object too deep for desired array")
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError(f"[{op}] {'a' if a.shape[0] == 0 else 'v'} cannot be empty")
    return a, v


def correlate(a, v, mode="valid"):
    """numpy.correlate: c[k] = sum_n a[n + k] * conj(v[n]) of 1-d sequences."""
    a, v = _sequences("correlate", a, v)
    if v.dtype.kind == "c":
        v = _math.conj(v)
    swapped = v.shape[0] > a.shape[0]
    if swapped:
        a, v = v, a
    lo, count = _mode_range(mode, a.shape[0], v.shape[0])
    r = _sliding_dot(a, v, lo, count)
    if swapped:  # numpy: correlate(v, a) reversed (and conjugated back for complex), a copy
        r = _vkarray.ascontiguousarray(_vkarray.flip(r))
        if r.dtype.kind == "c":
            r = _math.conj(r)
    return r


def convolve(a, v, mode="full"):
    """numpy.convolve: the discrete linear convolution of two 1-d sequences (a 0-d operand
    is one element, as numpy's; correlate refuses it, as numpy's)."""
    a, v = (x if x.ndim else _vkarray.reshape(x, (1,)) for x in _asarrays("convolve", [a, v]))
    a, v = _sequences("convolve", a, v)
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    lo, count = _mode_range(mode, a.shape[0], v.shape[0])
    return _sliding_dot(a, _vkarray.flip(v), lo, count)


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


def _spacings(f, axes, varargs):
    """numpy's gradient spacings, one per axis: a Python float (uniform), or the differences
    of that axis' coordinate array (a device float64 array), which numpy reduces to the
    scalar case when they are all equal."""
    if len(varargs) == 0:
        return [1.0] * len(axes)
    if len(varargs) == 1 and _np.ndim(varargs[0]) == 0:
        varargs = varargs * len(axes)
    if len(varargs) != len(axes):
        raise TypeError("[gradient] invalid number of arguments")
    out = []
    for ax, d in zip(axes, varargs):
        if _np.ndim(d) == 0:
            out.append(d)
            continue
        d = _asarray(d, f.context)
        if d.ndim != 1:
            raise ValueError("[gradient] distances must be either scalars or 1d")
        if d.shape[0] != f.shape[ax]:
            raise ValueError("[gradient] when 1d, distances must match the length of the "
                             "corresponding dimension")
        if d.dtype.kind in "biu":
            d = astype(d, _np.float64)
        dd = diff(d)
        uniform = dd.shape[0] > 0 and bool(_vkarray.all(dd == dd[0]))
        out.append(dd[0].item() if uniform else dd)
    return out


def gradient(f, *varargs, axis=None, edge_order=1):
    """numpy.gradient: central differences inside (second order, for uniform or coordinate-
    array spacings), one-sided differences of order edge_order (1 or 2) at the edges, by
    numpy's formulas."""
    f = _asarray(f)
    axes = _axes("gradient", axis, f.ndim)
    dx = _spacings(f, axes, varargs)
    if edge_order not in (1, 2):
        raise ValueError("[gradient] 'edge_order' greater than 2 not supported")
    if f.dtype.kind not in "fc":
        f = astype(f, _np.float64)
    out = []
    for ax, h in zip(axes, dx):
        n = f.shape[ax]
        if n < edge_order + 1:
            raise ValueError("[gradient] Shape of array too small to calculate a numerical "
                             "gradient, at least (edge_order + 1) elements are required.")

        def at(i, j=None):
            return f[_sl(f.ndim, ax, slice(i, j))]

        if isinstance(h, _vkarray.ndarray):
            out.append(astype(_nonuniform(at, h, f.ndim, ax, edge_order), f.dtype))
            continue
        mid = (at(2) - at(None, -2)) / (2.0 * h)
        if edge_order == 1:
            first = (at(1, 2) - at(0, 1)) / h
            last = (at(-1) - at(-2, -1)) / h
        else:  # numpy's weights, each divided by h first (the same rounding)
            first = (-1.5 / h) * at(0, 1) + (2.0 / h) * at(1, 2) + (-0.5 / h) * at(2, 3)
            last = (0.5 / h) * at(-3, -2) + (-2.0 / h) * at(-2, -1) + (1.5 / h) * at(-1)
        out.append(concatenate([first, mid, last], axis=ax))
    return out[0] if len(out) == 1 else tuple(out)


def _nonuniform(at, dx, ndim, ax, edge_order):
    """numpy's gradient along ax for the coordinate differences dx (float64, length n - 1):
    its three-point weights, computed on the device and broadcast along ax."""
    def along(w):
        return _vkarray.reshape(w, (1,) * ax + (-1,) + (1,) * (ndim - ax - 1))

    dx1, dx2 = dx[:-1], dx[1:]
    a = -dx2 / (dx1 * (dx1 + dx2))
    b = (dx2 - dx1) / (dx1 * dx2)
    c = dx1 / (dx2 * (dx1 + dx2))
    mid = along(a) * at(None, -2) + along(b) * at(1, -1) + along(c) * at(2)
    if edge_order == 1:
        first = (at(1, 2) - at(0, 1)) / along(dx[0:1])
        last = (at(-1) - at(-2, -1)) / along(dx[-1:])
    else:
        d1, d2 = along(dx[0:1]), along(dx[1:2])
        first = (-(2.0 * d1 + d2) / (d1 * (d1 + d2)) * at(0, 1)
                 + (d1 + d2) / (d1 * d2) * at(1, 2) - d1 / (d2 * (d1 + d2)) * at(2, 3))
        d1, d2 = along(dx[-2:-1]), along(dx[-1:])
        last = (d2 / (d1 * (d1 + d2)) * at(-3, -2) - (d2 + d1) / (d1 * d2) * at(-2, -1)
                + (2.0 * d2 + d1) / (d2 * (d1 + d2)) * at(-1))
    return concatenate([first, mid, last], axis=ax)


def unwrap(p, discont=None, axis=-1, *, period=2 * _np.pi):
    """numpy.unwrap: jumps larger than max(discont, period/2) replaced by their period
    complement (float path of numpy's algorithm)."""
    p = _float(_asarray(p))
    ax = _axes("unwrap", axis, p.ndim)[0]
    discont = period / 2 if discont is None else discont
    dd = diff(p, axis=ax)
    half = period / 2
    ddmod = _math.remainder(dd + half, period) - half
    ddmod = _math.where((ddmod == -half) & (dd > 0), half, ddmod)
    correct = _math.where(_math.abs(dd) < discont, 0.0, ddmod - dd)
    head = p[_sl(p.ndim, ax, slice(0, 1))]
    return concatenate([head, p[_sl(p.ndim, ax, slice(1, None))]
                        + cumsum(correct, axis=ax)], axis=ax)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross of 2- and 3-component vectors (2-component: the z component alone)."""
    a, b = _asarrays("cross", [a, b])
    if axis is not None:
        axisa = axisb = axisc = axis
    a = _vkarray.moveaxis(a, _axes("cross", axisa, a.ndim)[0], -1)
    b = _vkarray.moveaxis(b, _axes("cross", axisb, b.ndim)[0], -1)
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
    zero = zeros((), a.dtype)
    a2 = zero if a2 is None else a2
    b2 = zero if b2 is None else b2
    r = stack(_vkarray.broadcast_arrays(a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, z), axis=-1)
    return _vkarray.moveaxis(r, -1, _axes("cross", axisc, r.ndim)[0])


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """numpy.trapezoid (numpy 1.x's trapz): the trapezoidal rule along axis."""
    y = _asarray(y)
    ax = _axes("trapezoid", axis, y.ndim)[0]
    if x is None:
        d = dx
    else:
        x = _asarray(x, y.context)
        d = diff(x)
        if x.ndim == 1:
            d = _vkarray.reshape(d, (-1,) + (1,) * (y.ndim - 1 - ax))
        else:
            d = diff(x, axis=ax)
    s = y[_sl(y.ndim, ax, slice(1, None))] + y[_sl(y.ndim, ax, slice(None, -1))]
    return _vkarray.sum(d * s / 2.0, axis=ax)


trapz = trapezoid
