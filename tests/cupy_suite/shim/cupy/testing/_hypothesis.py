"""chi_square_test: Pearson's goodness-of-fit test for the random tests' histograms."""

import math

import numpy


def _upper_regularized_gamma(a, x):
    """Q(a, x) = Gamma(a, x) / Gamma(a): the series of P for x < a + 1, else the continued
    fraction of Q (both converge fast there)."""
    if x <= 0:
        return 1.0
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    # Lentz's method for the continued fraction of Q.
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefix) * h


def chi_square_test(observed, expected, alpha=0.05, df=None):
    """True when the hypothesis that `observed` counts follow `expected` is not rejected at
    level alpha (df defaults to the number of bins minus one)."""
    observed = numpy.asarray(observed, dtype=numpy.float64)
    expected = numpy.asarray(expected, dtype=numpy.float64)
    if df is None:
        df = observed.size - 1
    stat = float(numpy.sum((observed - expected) ** 2 / expected))
    return _upper_regularized_gamma(df / 2.0, stat / 2.0) > alpha
