"""numpy's window functions on the device: hanning, hamming, bartlett, blackman and kaiser,
and i0 (the modified Bessel function kaiser's window is made of)."""

import numpy as _np

from . import _math
from ._creation import arange, asarray, ones, zeros
from ._dtypes import astype
from ._shaping import _asarray

__all__ = [
    "hanning", "hamming", "bartlett", "blackman", "kaiser", "i0",
]


def _window(M, fn):
    if M < 1:
        return zeros((0,))
    if M == 1:
        return ones((1,))
    return fn(arange(1 - M, M, 2, dtype=_np.float64))


def hanning(M):
    """numpy.hanning: 0.5 + 0.5 cos(pi n / (M - 1)), n = 1-M, 3-M, ..., M-1."""
    return _window(M, lambda n: 0.5 + 0.5 * _math.cos(_np.pi * n / (M - 1)))


def hamming(M):
    """numpy.hamming: 0.54 + 0.46 cos(pi n / (M - 1))."""
    return _window(M, lambda n: 0.54 + 0.46 * _math.cos(_np.pi * n / (M - 1)))


def bartlett(M):
    """numpy.bartlett: the triangular window, numpy's formula."""
    return _window(M, lambda n: _math.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1)))


def blackman(M):
    """numpy.blackman: 0.42 + 0.5 cos(pi n/(M-1)) + 0.08 cos(2 pi n/(M-1))."""
    return _window(M, lambda n: 0.42 + 0.5 * _math.cos(_np.pi * n / (M - 1))
                   + 0.08 * _math.cos(2.0 * _np.pi * n / (M - 1)))


# Cephes' Chebyshev coefficients of exp(-x) I0(x) on [0, 8] and of exp(-x) sqrt(x) I0(x) on
# (8, inf), as numpy's i0 uses them.
_I0A = [-4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16,
        1.715391285555133e-15, -1.1685332877993451e-14, 7.676185498604936e-14,
        -4.856446783111929e-13, 2.95505266312964e-12, -1.726826291441556e-11,
        9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
        -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07,
        1.1173875391201037e-06, -4.4167383584587505e-06, 1.6448448070728896e-05,
        -5.754195010082104e-05, 0.00018850288509584165, -0.0005763755745385824,
        0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
        -0.02373741480589947, 0.04930528423967071, -0.09490109704804764, 0.17162090152220877,
        -0.3046826723431984, 0.6767952744094761]


_I0B = [-7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17,
        3.461222867697461e-17, -2.8276239805165836e-16, -3.425485619677219e-16,
        1.7725601330565263e-15, 3.8116806693526224e-15, -9.554846698828307e-15,
        -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
        7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
        -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10,
        3.3962320257083865e-09, 2.266668990498178e-08, 2.0489185894690638e-07,
        2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
        0.8044904110141088]


def _chbevl(x, coefficients):
    b0, b1, b2 = coefficients[0], 0.0, 0.0
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def i0(x):
    """numpy.i0: the modified Bessel function of the first kind, order 0, by numpy's
    Chebyshev expansions (one fused expression)."""
    x = _asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("[i0] i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = astype(x, _np.float64)
    x = _math.abs(x)
    small = _math.exp(x) * _chbevl(x / 2.0 - 2, _I0A)
    safe = _math.where(x <= 8.0, 8.0, x)
    large = _math.exp(safe) * _chbevl(32.0 / safe - 2.0, _I0B) / _math.sqrt(safe)
    return _math.where(x <= 8.0, small, large)


def kaiser(M, beta):
    """numpy.kaiser: the Kaiser window of M points and shape beta."""
    if M == 1:
        return ones(1)
    if M < 1:
        return zeros((0,))
    n = arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * _math.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(asarray(float(beta)))
