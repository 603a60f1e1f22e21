"""Exact distribution functions (numpy and math only, no scipy) and the goodness-of-fit tests the
distribution tests use.

Every test draws from a fixed seed, so it passes or fails the same way each run; its
significance ALPHA is the probability that a correct sampler's draw, for a seed picked at
random, fails it. Each test is a Kolmogorov-Smirnov test (continuous), a chi-square test
(discrete) or a z-test of a mean at ALPHA = 1e-4. The distribution suites make about 100 (65
through these helpers, 27 z-tests of multivariate_normal's moments, a few frequency checks at
4 standard errors): a family-wise false-failure probability near 1%."""

import math

import numpy as np

ALPHA = 1e-4
Z = 3.8906  # the two-sided normal quantile of ALPHA
_lgamma = np.frompyfunc(math.lgamma, 1, 1)
_erf = np.frompyfunc(math.erf, 1, 1)


def lgamma(x):
    return np.asarray(_lgamma(np.asarray(x, dtype=np.float64)), dtype=np.float64)


def normal_cdf(x):
    return 0.5 * (1 + np.asarray(_erf(np.asarray(x, np.float64) / math.sqrt(2)), np.float64))


def gamma_cdf(a, x):
    """The regularized lower incomplete gamma P(a, x), elementwise: the series below a + 1, the
    continued fraction (modified Lentz) above (Numerical Recipes 6.2), each to 1e-15."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.zeros(x.shape)
    pos = x > 0
    lead = np.where(pos, a * np.log(np.where(pos, x, 1)) - x - lgamma(a), -np.inf)
    s = pos & (x < a + 1)
    if s.any():
        ap, term = a[s].copy(), 1 / a[s]
        total = term.copy()
        for _ in range(2000):
            ap += 1
            term *= x[s] / ap
            total += term
            if np.all(np.abs(term) < np.abs(total) * 1e-16):
                break
        out[s] = total * np.exp(lead[s])
    c = pos & ~s
    if c.any():
        b = x[c] + 1 - a[c]
        cc, d = np.full(b.shape, 1e300), 1 / b
        h = d.copy()
        for i in range(1, 2000):
            an = -i * (i - a[c])
            b += 2
            d = an * d + b
            d = np.where(np.abs(d) < 1e-300, 1e-300, d)
            cc = b + an / cc
            cc = np.where(np.abs(cc) < 1e-300, 1e-300, cc)
            d = 1 / d
            delta = d * cc
            h *= delta
            if np.all(np.abs(delta - 1) < 1e-16):
                break
        out[c] = 1 - np.exp(lead[c]) * h
    return out


def beta_cdf(a, b, x):
    """The regularized incomplete beta I_x(a, b), elementwise (Numerical Recipes 6.4's
    continued fraction, on the side of x where it converges fast)."""
    a, b, x = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, x)))
    x = np.clip(x, 0, 1)
    swap = x > (a + 1) / (a + b + 2)
    aa, bb, xx = np.where(swap, b, a), np.where(swap, a, b), np.where(swap, 1 - x, x)
    inner = (xx > 0) & (xx < 1)
    safe = np.where(inner, xx, 0.5)
    front = np.exp(lgamma(aa + bb) - lgamma(aa) - lgamma(bb) + aa * np.log(safe) +
                   bb * np.log1p(-safe)) / aa
    qab, qap, qam = aa + bb, aa + 1, aa - 1
    c, d = np.ones(xx.shape), 1 - qab * safe / qap
    d = 1 / np.where(np.abs(d) < 1e-300, 1e-300, d)
    h = d.copy()
    for m in range(1, 3000):
        m2 = 2 * m
        for num in (m * (bb - m) * safe / ((qam + m2) * (aa + m2)),
                    -(aa + m) * (qab + m) * safe / ((aa + m2) * (qap + m2))):
            d = 1 + num * d
            d = 1 / np.where(np.abs(d) < 1e-300, 1e-300, d)
            c = 1 + num / c
            c = np.where(np.abs(c) < 1e-300, 1e-300, c)
            h *= d * c
        if np.all(np.abs(d * c - 1) < 1e-15):
            break
    val = np.where(inner, front * h, np.where(xx >= 1, 1.0, 0.0))
    return np.where(swap, 1 - val, val)


def poisson_pmf(lam, k):
    k = np.asarray(k, np.float64)
    return np.exp(k * math.log(lam) - lam - lgamma(k + 1)) if lam > 0 else (k == 0) * 1.0


def ks_statistic(sample, cdf):
    x = np.sort(np.asarray(sample, np.float64).ravel())
    n = len(x)
    f = cdf(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


def assert_ks(sample, cdf, what=""):
    """Kolmogorov-Smirnov at ALPHA: D below sqrt(-ln(ALPHA / 2) / (2 n)) (the asymptotic
    critical value, within 1% of the exact one from n = 1000 on)."""
    n = np.asarray(sample).size
    d, crit = ks_statistic(sample, cdf), math.sqrt(-math.log(ALPHA / 2) / (2 * n))
    assert d < crit, f"{what}: KS D = {d:.5f} >= {crit:.5f} (n = {n})"


def chi2_critical(dof):
    """The chi-square quantile 1 - ALPHA by Wilson-Hilferty: above the exact one by under 5% at
    2 degrees of freedom, under 1% from 20 (a slightly smaller false-failure probability; the
    one-sided normal quantile of ALPHA is 3.719)."""
    k = float(dof)
    return k * (1 - 2 / (9 * k) + 3.719 * math.sqrt(2 / (9 * k))) ** 3


def assert_chi2(sample, pmf_values, support, what=""):
    """Chi-square goodness of fit at ALPHA of integer draws against pmf_values over `support`
    (consecutive integers; whatever the pmf leaves, both tails, is one more cell). Cells with
    an expected count under 5 are merged into their neighbours."""
    x = np.asarray(sample).ravel()
    n = x.size
    support = np.asarray(support)
    inside = x[(x >= support[0]) & (x <= support[-1])] - support[0]
    observed = np.bincount(inside.astype(np.int64), minlength=support.size).astype(np.float64)
    expected = n * np.asarray(pmf_values, np.float64)
    rest_obs, rest_exp = n - observed.sum(), n - expected.sum()
    cells_o, cells_e, acc_o, acc_e = [], [], 0.0, 0.0
    for o, e in zip(np.append(observed, rest_obs), np.append(expected, max(rest_exp, 0.0))):
        acc_o, acc_e = acc_o + o, acc_e + e
        if acc_e >= 5:
            cells_o.append(acc_o)
            cells_e.append(acc_e)
            acc_o, acc_e = 0.0, 0.0
    if cells_e:
        cells_o[-1] += acc_o
        cells_e[-1] += acc_e
    if acc_e == 0 and acc_o > 0 and not cells_e:
        raise AssertionError(f"{what}: draws outside the support")
    cells_o, cells_e = np.array(cells_o), np.array(cells_e)
    assert len(cells_e) >= 2, f"{what}: too few cells"
    stat = float(((cells_o - cells_e) ** 2 / cells_e).sum())
    crit = chi2_critical(len(cells_e) - 1)
    assert stat < crit, f"{what}: chi-square {stat:.1f} >= {crit:.1f} ({len(cells_e)} cells)"


def assert_mean(sample, mean, var, what=""):
    """The sample mean within Z standard errors of the exact mean (a z-test at ALPHA)."""
    x = np.asarray(sample, np.float64).ravel()
    err = Z * math.sqrt(var / x.size)
    assert abs(x.mean() - mean) < err, f"{what}: mean {x.mean():.6g} vs {mean:.6g} +- {err:.2g}"
