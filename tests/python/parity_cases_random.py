"""Parity cases of vkarray.random's distributions, legacy functions and RandomState: each draw
against numpy's Generator draw of the same call (shape, dtype, and quantiles within a tolerance
of the reference's spread; the values themselves differ, vkarray's streams being its own).
The distributions' statistical tests are random_distributions_test.py's."""

import warnings

import numpy as np

import vkarray as vk
from parity_registry import check

N = 4000
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


def _quantiles(got, want, tol=0.15):
    """Shape, dtype, and each quantile within tol of the reference's 10-90% spread (quantiles,
    not moments: several of these distributions have no mean)."""
    got = got.get() if isinstance(got, vk.ndarray) else np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want)
    g, w = np.quantile(got, QUANTILES), np.quantile(want, QUANTILES)
    spread = max(w[-1] - w[0], 1.0 if want.dtype.kind in "iu" else 1e-12)
    assert np.all(np.abs(g - w) <= tol * spread + (1 if want.dtype.kind in "iu" else 0)), (g, w)


# name, arguments (the size last), as the module function and numpy's Generator method take them.
DRAWS = [
    ("standard_exponential", (N,)), ("standard_gamma", (2.5, N)), ("gamma", (0.5, 2.0, N)),
    ("beta", (0.5, 3.0, N)), ("chisquare", (4.0, N)), ("noncentral_chisquare", (3.0, 2.0, N)),
    ("f", (5.0, 12.0, N)), ("noncentral_f", (5.0, 12.0, 1.5, N)), ("standard_t", (3.0, N)),
    ("standard_cauchy", (N,)), ("laplace", (1.0, 2.0, N)), ("logistic", (1.0, 2.0, N)),
    ("gumbel", (1.0, 2.0, N)), ("lognormal", (0.5, 0.75, N)), ("pareto", (2.5, N)),
    ("power", (3.0, N)), ("rayleigh", (2.0, N)), ("weibull", (1.5, N)), ("wald", (1.0, 3.0, N)),
    ("triangular", (-1.0, 0.5, 2.0, N)), ("vonmises", (1.0, 4.0, N)), ("poisson", (6.5, N)),
    ("binomial", (40, 0.3, N)), ("negative_binomial", (4.0, 0.4, N)), ("geometric", (0.3, N)),
    ("hypergeometric", (30, 40, 20, N)), ("zipf", (2.5, N)), ("logseries", (0.7, N)),
]

for _name, _args in DRAWS:
    def _draw(name=_name, args=_args):
        vk.random.seed(11)
        _quantiles(getattr(vk.random, name)(*args),
                   getattr(np.random.default_rng(11), name)(*args))
    check(f"random.{_name}", _draw)


def _multivariate():
    rng = np.random.default_rng(4)
    vk.random.seed(4)
    alpha = [0.5, 2.0, 4.0]
    d = vk.random.dirichlet(alpha, N)
    _quantiles(d, rng.dirichlet(alpha, N))
    np.testing.assert_allclose(d.get().sum(axis=1), 1.0, rtol=1e-12)
    m = vk.random.multinomial(30, [0.2, 0.3, 0.5], N)
    _quantiles(m, rng.multinomial(30, [0.2, 0.3, 0.5], N))
    assert (m.get().sum(axis=1) == 30).all()
    cov = np.array([[2.0, 0.6], [0.6, 1.0]])
    x = vk.random.multivariate_normal([1.0, -1.0], cov, N).get()
    _quantiles(x, rng.multivariate_normal([1.0, -1.0], cov, N))
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.15)


check("random.dirichlet", _multivariate)
check("random.multinomial", _multivariate)
check("random.multivariate_normal", _multivariate)


def _legacy_streams():
    vk.random.seed(21)
    a = vk.random.random_sample(8).get()
    for alias in ("ranf", "sample", "random"):
        vk.random.seed(21)
        np.testing.assert_array_equal(getattr(vk.random, alias)(8).get(), a)
    # A RandomState draws the stream of default_rng with its seed.
    np.testing.assert_array_equal(vk.random.RandomState(21).random_sample(8).get(), a)
    np.testing.assert_array_equal(vk.random.default_rng(21).random(8).get(), a)
    saved = vk.random.get_state()
    b = vk.random.poisson(3.0, 10).get()
    vk.random.set_state(saved)
    np.testing.assert_array_equal(vk.random.poisson(3.0, 10).get(), b)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = vk.random.random_integers(3, 6, 2000).get()
    assert any(issubclass(x.category, DeprecationWarning) for x in w)
    assert r.min() == 3 and r.max() == 6 and r.dtype == np.int64
    bits = vk.random.bytes(13)
    assert isinstance(bits, bytes) and len(bits) == 13


for _name in ("ranf", "sample", "RandomState", "get_state", "set_state", "random_integers",
              "bytes"):
    check(f"random.{_name}", _legacy_streams)
