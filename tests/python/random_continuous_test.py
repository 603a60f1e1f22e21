"""vkarray.random's continuous distributions against their exact CDFs (random_stats.py:
Kolmogorov-Smirnov at significance 1e-4, 20000 draws each, fixed seeds), array-valued
parameters, dtypes and fusion."""

import math

import numpy as np
import pytest

import vkarray as vk
from random_stats import assert_ks, assert_mean, beta_cdf, gamma_cdf, normal_cdf

N = 20000


def draw(name, *args, seed=1, **kwargs):
    return np.asarray(getattr(vk.random.default_rng(seed), name)(*args, size=N, **kwargs))


@pytest.mark.parametrize("shape", [0.03, 0.5, 1.0, 2.5, 40.0, 3000.0])
def test_standard_gamma(shape):
    x = draw("standard_gamma", shape)
    assert x.dtype == np.float64 and (x >= 0).all()
    assert_ks(x, lambda v: gamma_cdf(shape, v), f"gamma({shape})")


def test_standard_gamma_of_huge_and_tiny_shapes():
    # Mean and variance are both the shape (the CDF's series converges too slowly to test).
    assert_mean(draw("standard_gamma", 1e9), 1e9, 1e9, "gamma(1e9)")
    # Shapes near 0 put most of the mass below float64's range: P(G < 1e-300) = the regularized
    # gamma, about (1e-300)^a / Gamma(a + 1).
    x = draw("standard_gamma", 1e-3)
    p_tiny = 1e-300**1e-3 / math.gamma(1.001)
    assert abs(np.mean(x < 1e-300) - p_tiny) < 4 * math.sqrt(p_tiny * (1 - p_tiny) / N)


def test_standard_gamma_float32_and_scale():
    x = draw("standard_gamma", 0.7, dtype=np.float32)
    assert x.dtype == np.float32
    assert_ks(x, lambda v: gamma_cdf(0.7, v), "gamma(0.7) float32")
    y = draw("gamma", 3.0, 2.5)
    assert_ks(y, lambda v: gamma_cdf(3.0, v / 2.5), "gamma(3, 2.5)")


@pytest.mark.parametrize("a,b", [(0.3, 0.6), (2.0, 5.0), (1e-3, 1e-3)])
def test_beta(a, b):
    x = draw("beta", a, b)
    assert ((x >= 0) & (x <= 1)).all()
    if a < 0.01:  # almost every draw is 0 or 1 in float64: their frequencies are equal
        assert abs(np.mean(x > 0.5) - 0.5) < 4 * math.sqrt(0.25 / N)
        return
    assert_ks(x, lambda v: beta_cdf(a, b, v), f"beta({a}, {b})")


def test_chisquare_f_and_t():
    assert_ks(draw("chisquare", 3.0), lambda v: gamma_cdf(1.5, v / 2), "chisquare(3)")
    d1, d2 = 5.0, 8.0
    assert_ks(draw("f", d1, d2), lambda v: beta_cdf(d1 / 2, d2 / 2, d1 * v / (d1 * v + d2)),
              "f(5, 8)")
    df = 4.0

    def t_cdf(v):
        tail = 0.5 * beta_cdf(df / 2, 0.5, df / (df + v * v))
        return np.where(v > 0, 1 - tail, tail)
    assert_ks(draw("standard_t", df), t_cdf, "t(4)")


def test_noncentral_chisquare_and_f():
    df, nonc = 2.5, 3.0
    i = np.arange(80)
    w = np.exp(-nonc / 2 + i * math.log(nonc / 2) - np.array([math.lgamma(k + 1) for k in i]))

    def nc_chi2_cdf(v):  # a Poisson(nonc / 2) mixture of chi-square(df + 2 i)
        return sum(wk * gamma_cdf(df / 2 + k, v / 2) for k, wk in zip(i, w))
    assert_ks(draw("noncentral_chisquare", df, nonc), nc_chi2_cdf, "noncentral_chisquare")
    assert_mean(draw("noncentral_chisquare", 0.5, 0.0, seed=2), 0.5, 2 * 0.5, "nonc = 0")
    d1, d2 = 3.0, 7.0

    def nc_f_cdf(v):
        y = d1 * v / (d1 * v + d2)
        return sum(wk * beta_cdf(d1 / 2 + k, d2 / 2, y) for k, wk in zip(i, w))
    assert_ks(draw("noncentral_f", d1, d2, nonc), nc_f_cdf, "noncentral_f")


CLOSED_FORMS = [
    ("standard_cauchy", (), lambda v: 0.5 + np.arctan(v) / np.pi),
    ("laplace", (1.0, 2.0), lambda v: np.where(v < 1, 0.5 * np.exp((v - 1) / 2),
                                                1 - 0.5 * np.exp(-(v - 1) / 2))),
    ("logistic", (-1.0, 0.5), lambda v: 1 / (1 + np.exp(-(v + 1) / 0.5))),
    ("gumbel", (0.5, 2.0), lambda v: np.exp(-np.exp(-(v - 0.5) / 2))),
    ("lognormal", (0.3, 0.8), lambda v: normal_cdf((np.log(v) - 0.3) / 0.8)),
    ("pareto", (2.5,), lambda v: 1 - (1 + v) ** -2.5),
    ("power", (0.4,), lambda v: np.clip(v, 0, 1) ** 0.4),
    ("rayleigh", (1.5,), lambda v: 1 - np.exp(-v * v / (2 * 1.5**2))),
    ("weibull", (0.7,), lambda v: 1 - np.exp(-v**0.7)),
    ("wald", (1.5, 2.0), lambda v: normal_cdf(np.sqrt(2.0 / v) * (v / 1.5 - 1)) +
     np.exp(2 * 2.0 / 1.5) * normal_cdf(-np.sqrt(2.0 / v) * (v / 1.5 + 1))),
    ("triangular", (-1.0, 0.5, 3.0), lambda v: np.where(
        v <= 0.5, (v + 1) ** 2 / (4.0 * 1.5), 1 - (3 - v) ** 2 / (4.0 * 2.5))),
]


@pytest.mark.parametrize("name,args,cdf", CLOSED_FORMS, ids=[c[0] for c in CLOSED_FORMS])
def test_closed_forms(name, args, cdf):
    assert_ks(draw(name, *args), cdf, name)


@pytest.mark.parametrize("mu,kappa", [(0.5, 0.3), (-2.0, 8.0), (3.0, 1e7)])
def test_vonmises(mu, kappa):
    x = draw("vonmises", mu, kappa)
    assert ((x >= -np.pi) & (x <= np.pi)).all()
    # The CDF on [-pi, pi] by integrating the density (trapezoids on 2^18 intervals).
    t = np.linspace(-np.pi, np.pi, 2**18 + 1)
    dens = np.exp(kappa * (np.cos(t - mu) - 1))
    cum = np.concatenate([[0], np.cumsum((dens[1:] + dens[:-1]) / 2)])
    assert_ks(x, lambda v: np.interp(v, t, cum / cum[-1]), f"vonmises({mu}, {kappa})")


def test_array_parameters_broadcast():
    rng = vk.random.default_rng(5)
    shape = vk.asarray([[0.5], [2.0], [9.0]])  # (3, 1) against (4,)
    scale = np.array([1.0, 2.0, 3.0, 4.0])
    g = np.asarray(rng.gamma(shape, scale, size=(2000, 3, 4)))
    assert g.shape == (2000, 3, 4)
    means = g.mean(axis=0)
    want = np.array([[0.5], [2.0], [9.0]]) * scale
    assert (np.abs(means - want) < 4.5 * np.sqrt(want * scale / 2000)).all()
    assert rng.beta([0.5, 2.0], 3.0).shape == (2,)
    assert rng.triangular(0.0, [0.1, 0.5, 0.9], 1.0, size=(5, 3)).shape == (5, 3)
    assert rng.standard_gamma(2.0).shape == ()
    with pytest.raises(ValueError, match="shape mismatch"):
        rng.gamma(np.ones(3), size=(4,))
    # Every element draws from its own parameters: zeros give zeros, in place.
    w = np.asarray(rng.weibull(np.array([0.0, 1.0] * 500)))
    assert (w[::2] == 0).all() and (w[1::2] > 0).all()


def test_out_and_dtype():
    rng = vk.random.default_rng(6)
    out = vk.zeros((3, 4), dtype=np.float32)
    assert rng.standard_gamma(2.0, dtype=np.float32, out=out) is out
    assert (np.asarray(out) > 0).all()
    with pytest.raises(TypeError, match="Unsupported dtype int32"):
        rng.standard_gamma(2.0, size=3, dtype=np.int32)


def test_closed_forms_fuse_and_samplers_take_their_own_kernel():
    rng = vk.random.default_rng(7)
    y = rng.laplace(0.0, 2.0, 1000) * 3 + 1
    before = vk.kernel_count()
    vk.eval(y)
    assert vk.kernel_count() - before == 1  # a closed-form draw and arithmetic: one kernel
    s = vk.sum(rng.logistic(size=1000))
    before = vk.kernel_count()
    vk.eval(s)
    assert vk.kernel_count() - before == 1  # and reduced where it is drawn
    # A sampler runs its own kernel when called (a library kernel); the scale and what follows
    # fuse into one kernel after it.
    before = vk.kernel_count()
    z = rng.gamma(2.0, 3.0, 1000) * 2 + 1
    assert vk.kernel_count() - before == 1
    vk.eval(z)
    assert vk.kernel_count() - before == 2
