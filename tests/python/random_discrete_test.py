"""vkarray.random's discrete and multivariate distributions against their exact probabilities
(random_stats.py: chi-square at significance 1e-4, 20000-50000 draws each, fixed seeds), and the
element streams of the looping samplers against a host reference."""

import math

import numpy as np
import pytest

import vkarray as vk
from random_stats import Z, assert_chi2, assert_ks, assert_mean, beta_cdf, lgamma, poisson_pmf
from random_testing import element_uniforms

N = 50000


def draw(name, *args, seed=1, size=N):
    x = np.asarray(getattr(vk.random.default_rng(seed), name)(*args, size=size))
    assert x.dtype == np.int64 or name == "dirichlet"
    return x


@pytest.mark.parametrize("lam", [0.0, 0.4, 7.5, 10.0, 37.0, 2.5e5])
def test_poisson(lam):
    x = draw("poisson", lam)
    if lam == 0:
        assert (x == 0).all()
        return
    sd = math.sqrt(lam)
    k = np.arange(max(0, int(lam - 6 * sd)), int(lam + 6 * sd) + 2)
    assert_chi2(x, poisson_pmf(lam, k), k, f"poisson({lam})")


def binomial_pmf(n, p, k):
    return np.exp(lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * np.log(p) +
                  (n - k) * np.log1p(-p))


@pytest.mark.parametrize("n,p", [(1, 0.3), (20, 0.5), (100, 0.2), (500, 0.07), (2000, 0.45),
                                 (300, 0.93), (10**7, 0.25)])
def test_binomial(n, p):
    x = draw("binomial", n, p)
    sd = math.sqrt(n * p * (1 - p))
    k = np.arange(max(0, int(n * p - 7 * sd)), min(n, int(n * p + 7 * sd) + 1) + 1)
    assert_chi2(x, binomial_pmf(n, p, k), k, f"binomial({n}, {p})")


def test_binomial_edges():
    rng = vk.random.default_rng(2)
    assert (np.asarray(rng.binomial(0, 0.5, 10)) == 0).all()
    assert (np.asarray(rng.binomial(7, 1.0, 10)) == 7).all()
    assert (np.asarray(rng.binomial(7, 0.0, 10)) == 0).all()
    np.testing.assert_array_equal(np.asarray(rng.binomial(5.9, 1.0, 3)), [5, 5, 5])


@pytest.mark.parametrize("n,p", [(3.5, 0.4), (40.0, 0.9)])
def test_negative_binomial(n, p):
    x = draw("negative_binomial", n, p)
    k = np.arange(0, int(n * (1 - p) / p + 10 * math.sqrt(n * (1 - p)) / p) + 1)
    pmf = np.exp(lgamma(k + n) - lgamma(n) - lgamma(k + 1) + n * math.log(p) +
                 k * math.log1p(-p))
    assert_chi2(x, pmf, k, f"negative_binomial({n}, {p})")


@pytest.mark.parametrize("p", [0.02, 0.5, 1.0])
def test_geometric(p):
    x = draw("geometric", p)
    if p == 1:
        assert (x == 1).all()
        return
    k = np.arange(1, 12 if p > 0.1 else 400)
    assert_chi2(x, p * (1 - p) ** (k - 1), k, f"geometric({p})")


@pytest.mark.parametrize("good,bad,nsample", [(5, 7, 4), (30, 20, 45), (600, 400, 500),
                                              (10**8, 3 * 10**8, 10**6), (8, 3, 11)])
def test_hypergeometric(good, bad, nsample):
    x = draw("hypergeometric", good, bad, nsample)
    total = good + bad
    mean = nsample * good / total
    sd = math.sqrt(mean * (bad / total) * (total - nsample) / max(total - 1, 1))
    lo, hi = max(0, nsample - bad), min(nsample, good)
    k = np.arange(max(lo, int(mean - 7 * sd)), min(hi, int(mean + 7 * sd) + 1) + 1)
    pmf = np.exp(lgamma(good + 1) - lgamma(k + 1) - lgamma(good - k + 1) + lgamma(bad + 1) -
                 lgamma(nsample - k + 1) - lgamma(bad - nsample + k + 1) - lgamma(total + 1) +
                 lgamma(nsample + 1) + lgamma(total - nsample + 1))
    if lo == hi:
        assert (x == lo).all()
        return
    assert_chi2(x, pmf, k, f"hypergeometric({good}, {bad}, {nsample})")


def zipf_norm(a, top):
    """sum of k^-a for k = 1 .. top: 10^6 terms, then Euler-Maclaurin for the rest."""
    m = 10**6
    head = np.sum(np.arange(1, m + 1, dtype=np.float64) ** -a)
    if top <= m:
        return np.sum(np.arange(1, top + 1, dtype=np.float64) ** -a)
    integral = (m ** (1 - a) - top ** (1 - a)) / (a - 1)
    return head + integral - m ** -a / 2 + top ** -a / 2 - a * m ** (-a - 1) / 12


@pytest.mark.parametrize("a", [1.05, 1.6, 3.0, 2000.0])
def test_zipf(a):
    x = draw("zipf", a)
    assert x.min() >= 1
    if a > 100:  # P(X > 1) = 2^-a / zeta(a): every draw is 1
        assert (x == 1).all()
        return
    # Values above 2^63 - 1 are not drawn (numpy's law): normalized over 1 .. 2^63 - 1.
    k = np.arange(1, 60)
    pmf = k.astype(np.float64) ** -a / zipf_norm(a, 2**63 - 1)
    assert_chi2(x, pmf, k, f"zipf({a})")


@pytest.mark.parametrize("p", [0.0, 0.3, 0.95, 1 - 1e-9])
def test_logseries(p):
    x = draw("logseries", p)
    if p == 0:
        assert (x == 1).all()
        return
    k = np.arange(1, 80)
    assert_chi2(x, -p**k / (k * math.log1p(-p)), k, f"logseries({p})")


def test_dirichlet_marginals_are_betas():
    alpha = np.array([0.2, 1.5, 4.0])
    x = draw("dirichlet", alpha, size=20000)
    assert x.shape == (20000, 3) and x.dtype == np.float64
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-13)
    for i, a in enumerate(alpha):
        assert_ks(x[:, i], lambda v, a=a: beta_cdf(a, alpha.sum() - a, v), f"dirichlet[{i}]")
    tiny = np.asarray(vk.random.default_rng(3).dirichlet([1e-4, 1e-4], 2000))
    assert np.isfinite(tiny).all()  # gammas that underflow float64 still give rows
    assert abs(np.mean(tiny[:, 0] > 0.5) - 0.5) < 0.06


def test_multinomial_and_multivariate_hypergeometric():
    p = [0.1, 0.25, 0.05, 0.6]
    x = draw("multinomial", 30, p, size=20000)
    assert x.shape == (20000, 4) and (x.sum(axis=1) == 30).all()
    for i, pi in enumerate(p):
        k = np.arange(0, 31)
        assert_chi2(x[:, i], binomial_pmf(30, pi, k), k, f"multinomial[{i}]")
    batch = np.asarray(vk.random.default_rng(4).multinomial([[5], [50]], [[0.5, 0.5]] * 3))
    assert batch.shape == (2, 3, 2) and (batch.sum(axis=-1) == [[5], [50]]).all()
    colors = [12, 30, 8]
    m = np.asarray(vk.random.default_rng(5).multivariate_hypergeometric(colors, 20,
                                                                          size=20000))
    assert m.shape == (20000, 3) and (m.sum(axis=1) == 20).all()
    assert_mean(m[:, 2], 20 * 8 / 50, 20 * (8 / 50) * (42 / 50) * 30 / 49, "mvhg[2]")


def test_multivariate_normal():
    mean, cov = np.array([1.0, -2.0, 0.5]), np.array([[2.0, 0.5, 0.0], [0.5, 1.0, -0.3],
                                                      [0.0, -0.3, 0.5]])
    # z-tests at ALPHA of each mean and covariance entry: the standard errors of a normal
    # sample's mean, sqrt(cov_ii / n), and covariance, sqrt((cov_ii cov_jj + cov_ij^2) / n).
    n = 50000
    var = np.diag(cov)
    se_cov = np.sqrt((np.outer(var, var) + cov**2) / n)
    for method in ("svd", "eigh", "cholesky"):
        x = np.asarray(vk.random.default_rng(6).multivariate_normal(mean, cov, size=(100, 500),
                                                                     method=method))
        assert x.shape == (100, 500, 3)
        flat = x.reshape(-1, 3)
        assert (np.abs(flat.mean(axis=0) - mean) < Z * np.sqrt(var / n)).all(), method
        assert (np.abs(np.cov(flat.T) - cov) < Z * se_cov).all(), method
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        vk.random.default_rng(1).multivariate_normal([0, 0], [[1, 2], [2, 1]])
    with pytest.raises(ValueError, match="positive-semidefinite"):
        vk.random.default_rng(1).multivariate_normal([0, 0], [[1, 2], [2, 1]],
                                                     check_valid="raise")


def test_poisson_and_binomial_streams_equal_host_reference():
    # Small means run the sequential searches: their draws follow from the element streams
    # (blocks (counter + i, j, 0)) exactly; comparisons at the decision thresholds may differ
    # by the last bit of exp() (the device's and numpy's), so a few elements may disagree.
    rng = vk.random.default_rng(77)
    n, lam = 3000, 3.5
    c = rng.counter
    got = np.asarray(rng.poisson(lam, n))
    assert rng.counter == c + n  # one block of the counter per element
    u = element_uniforms(rng.key, c, n, 16)
    want = np.argmax(np.cumprod(u, axis=1) <= math.exp(-lam), axis=1)
    assert np.mean(got == want) > 0.999
    c = rng.counter
    got = np.asarray(rng.binomial(12, 0.3, n))
    u = element_uniforms(rng.key, c, n, 1)[:, 0]
    cdf = np.cumsum(binomial_pmf(12, 0.3, np.arange(13)))
    assert np.mean(got == np.searchsorted(cdf, u)) > 0.999
