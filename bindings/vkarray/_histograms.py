"""numpy's histograms on the device: the compiled histogram and bincount, histogram_bin_edges,
digitize, and the multidimensional histograms (each coordinate binned with searchsorted against
its edges, the bin tuples flattened and counted with bincount)."""

import numpy as _np

from . import _math, _vkarray
from ._creation import linspace
from ._cumulative import diff
from ._dtypes import astype
from ._shaping import _asarray, _asarrays
from ._vkarray import bincount, histogram

__all__ = ["histogram", "histogramdd", "histogram2d", "histogram_bin_edges", "bincount",
           "digitize"]


def _edges(v, bins, rng, i):
    """The edges of dimension i: given (in their own dtype, as numpy keeps them), or bins + 1
    equal-width float64 edges over rng (default the data's min and max; an empty range widened
    by 0.5 each side, as numpy's)."""
    if not isinstance(bins, (int, _np.integer)):
        e = _asarray(bins, v.context)
        if e.shape[0] > 1 and not bool(_vkarray.all(e[1:] >= e[:-1])):
            raise ValueError(f"[histogramdd] `bins[{i}]` must be monotonically increasing, "
                             f"when an array")
        return e
    n = int(bins)
    if n < 1:
        raise ValueError(f"[histogramdd] `bins[{i}]` must be positive, when an integer")
    if rng is None:
        if v.shape[0] == 0:
            lo, hi = 0.0, 1.0
        else:
            lo, hi = float(_vkarray.min(v)), float(_vkarray.max(v))
    else:
        lo, hi = map(float, rng)
        if lo > hi:
            raise ValueError(f"[histogramdd] max must be larger than min in range parameter, "
                             f"got {rng}")
    if not (_np.isfinite(lo) and _np.isfinite(hi)):
        raise ValueError(f"[histogramdd] autodetected range of [{lo}, {hi}] is not finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return linspace(lo, hi, n + 1)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """numpy.histogramdd: sample is (N, D) or a sequence of D coordinate arrays; bins an int,
    a sequence of ints or of edge arrays; values on a last edge count in the last bin."""
    if isinstance(sample, (list, tuple)):
        coords = _asarrays("histogramdd", list(sample))
    else:
        s = _asarray(sample)
        s = _vkarray.reshape(s, (-1, 1)) if s.ndim == 1 else s
        if s.ndim != 2:
            raise ValueError(f"[histogramdd] sample must be (N, D), got shape {s.shape}")
        coords = [s[:, i] for i in _np.arange(s.shape[1])]
    d = len(coords)
    n = coords[0].shape[0] if coords else 0
    if any(c.ndim != 1 or c.shape[0] != n for c in coords):
        raise ValueError("[histogramdd] the coordinate arrays must be 1-d of one length")
    per_dim = [bins] * d if isinstance(bins, (int, _np.integer)) else list(bins)
    if len(per_dim) != d:
        raise ValueError("[histogramdd] The dimension of bins must be equal to the dimension "
                         "of the sample x.")
    ranges = [None] * d if range is None else list(range)
    if len(ranges) != d:
        raise ValueError(f"[histogramdd] range must have {d} entries, got {len(ranges)}")
    edges, flat, valid = [], None, None
    shape = []
    for i, (v, b, r) in enumerate(zip(coords, per_dim, ranges)):
        e = _edges(v, b, r, i)
        nb = e.shape[0] - 1
        idx = _vkarray.searchsorted(e, v, side="right")
        idx = _math.where(v == e[-1], nb, idx)  # the last edge belongs to the last bin
        ok = (idx >= 1) & (idx <= nb)
        valid = ok if valid is None else valid & ok
        flat = idx - 1 if flat is None else flat * nb + (idx - 1)
        edges.append(e)
        shape.append(nb)
    total = int(_np.prod(shape))
    flat = _math.where(valid, flat, total)
    w = None if weights is None else _asarray(weights, coords[0].context)
    counts = _vkarray.bincount(flat, weights=w, minlength=total + 1)
    h = astype(_vkarray.reshape(counts[:total], tuple(shape)), _np.float64)
    if density:
        widths = None
        for i, e in enumerate(edges):
            dw = _vkarray.reshape(diff(e), (1,) * i + (-1,) + (1,) * (d - i - 1))
            widths = dw if widths is None else widths * dw
        h = h / widths / _vkarray.sum(h)
    return h, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """numpy.histogram2d: H, xedges, yedges (bins: an int, a pair of ints or of edge
    arrays, or one edge array for both)."""
    x, y = _asarrays("histogram2d", [x, y])
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"[histogram2d] x and y must be 1-d of the same length, got shapes "
                         f"{x.shape} and {y.shape}")
    count = len(bins) if hasattr(bins, "__len__") else 1
    if count not in (1, 2):  # numpy: one edge array for both coordinates
        bins = [bins, bins]
    h, (xe, ye) = histogramdd([x, y], bins, range, density, weights)
    return h, xe, ye


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """numpy.histogram_bin_edges with a bin count or explicit edges (histogram's edges)."""
    return _vkarray.histogram(a, bins=bins, range=range, weights=weights)[1]


def _monotonicity(bins):
    """numpy's monotonicity check of digitize's bins: the direction of the first pair that
    differs (NaN differs from everything, and only "<" counts as increasing), then no pair
    against it, so NaNs at the large end pass; True for increasing (or no two that differ),
    False for decreasing, ValueError otherwise."""
    if bins.shape[0] < 2:
        return True
    lo, hi = bins[:-1], bins[1:]
    differ = ~(hi == lo)
    if not bool(_vkarray.any(differ)):
        return True
    j = int(_vkarray.argmax(differ))
    if bool(lo[j] < hi[j]):
        if not bool(_vkarray.any(lo > hi)):
            return True
    elif not bool(_vkarray.any(lo < hi)):
        return False
    raise ValueError("[digitize] bins must be monotonically increasing or decreasing")


def digitize(x, bins, right=False):
    """numpy.digitize: the index of the bin of each x (bins monotonic, either direction)."""
    x, bins = _asarrays("digitize", [x, bins])
    if x.dtype.kind == "c":
        raise TypeError("[digitize] x may not be complex")
    if bins.ndim != 1:
        raise ValueError("[digitize] object too deep for desired array")
    increasing = _monotonicity(bins)
    side = "left" if right else "right"
    if increasing:
        return _vkarray.searchsorted(bins, x, side=side)
    return bins.shape[0] - _vkarray.searchsorted(_vkarray.flip(bins), x, side=side)
