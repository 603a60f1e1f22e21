"""vkarray.random's distributions' arguments as numpy takes them: errors (numpy's own messages
and exception types, for numbers and arrays), sizes and shapes, NaN parameters; determinism per
seed, launch splits and replicas; and RandomState, numpy's legacy API."""

import warnings

import numpy as np
import pytest

import vkarray as vk

nan, inf = np.nan, np.inf

# Invalid calls: (method, arguments). numpy's Generator raises for each; vkarray must raise the
# same exception type with numpy's message.
INVALID = [
    ("standard_gamma", (-1.0,)), ("gamma", (1.0, -2.0)), ("beta", (0.0, 1.0)),
    ("beta", (1.0, -1.0)), ("chisquare", (0.0,)), ("noncentral_chisquare", (0.0, 1.0)),
    ("noncentral_chisquare", (1.0, -1.0)), ("f", (1.0, 0.0)), ("noncentral_f", (1.0, 1.0, -1.0)),
    ("standard_t", (0.0,)), ("laplace", (0.0, -1.0)), ("logistic", (0.0, -1.0)),
    ("gumbel", (0.0, -1.0)), ("lognormal", (0.0, -1.0)), ("pareto", (0.0,)), ("power", (-1.0,)),
    ("rayleigh", (-1.0,)), ("weibull", (-1.0,)), ("wald", (0.0, 1.0)), ("wald", (1.0, 0.0)),
    ("triangular", (1.0, 0.0, 2.0)), ("triangular", (0.0, 3.0, 2.0)),
    ("triangular", (1.0, 1.0, 1.0)), ("vonmises", (0.0, -1.0)), ("poisson", (-1.0,)),
    ("poisson", (nan,)), ("poisson", (1e19,)), ("binomial", (-1, 0.5)), ("binomial", (5, 1.5)),
    ("binomial", (5, nan)), ("negative_binomial", (0.0, 0.5)), ("negative_binomial", (nan, 0.5)),
    ("negative_binomial", (1.0, 0.0)), ("negative_binomial", (1e10, 1e-12)),
    ("geometric", (0.0,)), ("geometric", (1.5,)), ("hypergeometric", (-1, 1, 1)),
    ("hypergeometric", (-1, 5, 1)), ("hypergeometric", (5, -1, 1)),
    ("hypergeometric", (5, 5, -1)), ("hypergeometric", (5, 5, 11)),
    ("hypergeometric", (10**9, 5, 1)), ("zipf", (1.0,)), ("zipf", (nan,)), ("logseries", (1.0,)),
    ("logseries", (-0.5,)), ("dirichlet", ([1.0, 0.0],)), ("dirichlet", ([[1.0, 1.0]],)),
    ("multinomial", (-1, [0.5, 0.5])), ("multinomial", (5, [0.7, 0.6, 0.1])),
    ("multinomial", (5, [-0.1, 1.1])), ("multinomial", (5, 0.5)),
    ("multivariate_hypergeometric", ([3, -1], 2)), ("multivariate_hypergeometric", ([3, 1], 5)),
    ("multivariate_hypergeometric", ([3, 1], -1)), ("multivariate_hypergeometric", ([3, 1], 2.5)),
    ("multivariate_normal", ([0.0], [[1.0, 0.0], [0.0, 1.0]])),
    ("multivariate_normal", ([[0.0]], [[1.0]])), ("binomial", (np.array([5.5]), 0.5)),
    # numpy's non-negative parameters refuse -0.0 (a set sign bit) and take NaN.
    ("normal", (0.0, -1.0)), ("normal", (0.0, -0.0)), ("exponential", (-0.0,)),
    ("gamma", (-0.0,)), ("laplace", (0.0, -0.0)), ("weibull", (-0.0,)),
    ("vonmises", (0.0, -0.0)), ("noncentral_chisquare", (1.0, -0.0)),
    ("uniform", (0.0, inf)),
]


def numpy_error(name, args):
    try:
        getattr(np.random.default_rng(0), name)(*args)
    except Exception as e:  # noqa: BLE001 — numpy's exception is the reference
        return type(e), str(e)
    raise AssertionError(f"numpy accepts {name}{args}")


@pytest.mark.parametrize("name,args", INVALID, ids=[f"{n}{a}" for n, a in INVALID])
def test_errors_match_numpy(name, args):
    exc, message = numpy_error(name, args)
    rng = vk.random.default_rng(0)
    with pytest.raises(exc) as info:
        getattr(rng, name)(*args)
    if exc is ValueError:
        assert message in str(info.value)
    # The first parameter as an array: checked on the device, with numpy's result.
    if all(np.ndim(a) == 0 for a in args) and name != "multivariate_hypergeometric":
        exc, message = numpy_error(name, (np.full(3, args[0]),) + args[1:])
        with pytest.raises(exc) as info:
            getattr(rng, name)(vk.asarray(np.full(3, args[0])), *args[1:])
        if exc is ValueError:
            assert message in str(info.value)


@pytest.mark.parametrize("call,text", [
    (lambda r: r.poisson(-1.5), "[poisson] lam < 0 or lam is NaN (lam = -1.5)"),
    (lambda r: r.poisson(np.array([[1.0, 2.0], [-3.0, -4.0]])),
     "[poisson] lam < 0 or lam contains NaNs (lam[1, 0] = -3.0)"),
    (lambda r: r.binomial(vk.asarray([5, -3]), 0.5), "[binomial] n < 0 (n[1] = -3)"),
    (lambda r: r.gamma(2.0, -0.0), "[gamma] scale < 0 (scale = -0.0)"),
    (lambda r: r.negative_binomial(1e10, 1e-12), "(n = 10000000000.0, p = 1e-12)"),
    (lambda r: r.hypergeometric(5, 5, 11),
     "[hypergeometric] ngood + nbad < nsample (ngood = 5, nbad = 5, nsample = 11)"),
    (lambda r: r.hypergeometric([5, 5], 5, [3, 11]),
     "ngood + nbad < nsample (at index (1): ngood = 5, nbad = 5, nsample = 11)"),
    (lambda r: r.triangular([0.0, 1.0], [1.0, 0.5], 2.0),
     "[triangular] left > mode (at index (1): left = 1.0, mode = 0.5)"),
    (lambda r: r.multinomial(5, [[0.2, 0.8], [0.7, -0.1]]),
     "pvals < 0, pvals > 1 or pvals contains NaNs (pvals[1, 1] = -0.1)"),
    (lambda r: r.normal(0.0, [1.0, -2.0]), "[normal] scale < 0 (scale[1] = -2.0)"),
    (lambda r: r.exponential(-0.0), "[exponential] scale < 0 (scale = -0.0)"),
    (lambda r: r.multivariate_normal([0.0], np.eye(2)),
     "[multivariate_normal] mean and cov must have same length (mean.shape = (1,), "
     "cov.shape = (2, 2))"),
])
def test_errors_name_the_op_and_the_values(call, text):
    """numpy's message, after the op's name and followed by the values that broke it: a
    number, or an array's first offending element (its index in the parameter, or in the
    broadcast parameters when a check compares several)."""
    rng = vk.random.default_rng(0)
    with pytest.raises(ValueError) as info:
        call(rng)
    assert text in str(info.value)


def test_a_refused_draw_uses_no_blocks_and_nan_parameters_give_nan():
    rng = vk.random.default_rng(1)
    c = rng.counter
    with pytest.raises(ValueError):
        rng.poisson([1.0, -2.0])
    assert rng.counter == c
    for name, args in [("standard_gamma", (nan,)), ("gamma", (nan, 1.0)), ("beta", (nan, 1.0)),
                       ("chisquare", (nan,)), ("noncentral_chisquare", (1.0, nan)),
                       ("vonmises", (nan, 1.0)), ("wald", (nan, 1.0)), ("pareto", (nan,))]:
        assert np.isnan(np.asarray(getattr(rng, name)(*args, size=4))).all(), name
    assert np.isinf(np.asarray(rng.noncentral_chisquare(1.0, inf, size=3))).all()
    assert (np.asarray(rng.vonmises(0.25, inf, size=3)) == 0.25).all()


def test_sizes_and_shapes():
    rng = vk.random.default_rng(2)
    assert rng.poisson(3.0).shape == ()
    assert rng.poisson([[1.0], [2.0]], size=(5, 2, 3)).shape == (5, 2, 3)
    assert rng.binomial([10, 20], [[0.1], [0.9]]).shape == (2, 2)
    assert rng.hypergeometric(5, 5, 3, size=0).shape == (0,)
    assert rng.standard_gamma(2.0, size=(3, 0)).shape == (3, 0)
    assert rng.dirichlet([1.0, 2.0], size=(4, 5)).shape == (4, 5, 2)
    assert rng.multinomial(5, [0.5, 0.5], size=(3,)).shape == (3, 2)
    assert rng.standard_cauchy().shape == ()
    with pytest.raises(ValueError, match="negative dimension"):
        rng.poisson(1.0, size=-1)
    with pytest.raises(ValueError, match="shape mismatch"):
        rng.binomial([1, 2, 3], 0.5, size=(2,))


def test_same_seed_same_values_whatever_the_launch_split(ctx2):
    a = np.asarray(vk.random.default_rng(9).hypergeometric([40, 400], 300, 60, size=(3000, 2)))
    vk._vkarray._set_max_sample_launch(1000)  # four launches of at most 1000 elements
    try:
        b = np.asarray(vk.random.default_rng(9).hypergeometric([40, 400], 300, 60,
                                                                 size=(3000, 2)))
    finally:
        vk._vkarray._set_max_sample_launch(0)
    np.testing.assert_array_equal(a, b)
    shared = vk.random.default_rng(9, context=ctx2).poisson(20.0, 100).read()
    np.testing.assert_array_equal(shared[0], shared[1])
    np.testing.assert_array_equal(shared[0], np.asarray(vk.random.default_rng(9).poisson(20.0,
                                                                                         100)))
    own = vk.random.default_rng(9, context=ctx2, per_replica=True).gamma(2.0, size=100).read()
    assert not np.array_equal(own[0], own[1])


def test_permuted():
    rng = vk.random.default_rng(3)
    x = np.arange(60).reshape(3, 20)
    p = np.asarray(rng.permuted(x, axis=1))
    np.testing.assert_array_equal(np.sort(p, axis=1), x)
    assert not np.array_equal(p[0] - p[0, 0], p[1] - p[1, 0])  # each row its own order
    q = np.asarray(rng.permuted(x))
    np.testing.assert_array_equal(np.sort(q.ravel()), np.arange(60))
    out = vk.zeros((3, 20), dtype=np.int64)
    assert rng.permuted(x, axis=0, out=out) is out
    np.testing.assert_array_equal(np.sort(np.asarray(out), axis=0), x)
    with pytest.raises(ValueError, match="same shape"):
        rng.permuted(x, out=vk.zeros((20, 3), dtype=np.int64))
    with pytest.raises(np.AxisError):
        rng.permuted(x, axis=2)


def test_random_state_is_numpys_legacy_api():
    rs = vk.random.RandomState(12)
    a = np.asarray(rs.standard_gamma(2.0, 5))
    np.testing.assert_array_equal(a, np.asarray(vk.random.default_rng(12).standard_gamma(2.0, 5)))
    rs.seed(12)
    np.testing.assert_array_equal(np.asarray(rs.standard_gamma(2.0, 5)), a)
    state = rs.get_state()
    b = np.asarray(rs.binomial(10, 0.5, 8))
    rs.set_state(state)
    np.testing.assert_array_equal(np.asarray(rs.binomial(10, 0.5, 8)), b)
    assert rs.tomaxint(5).dtype == np.int64 and rs.randint(5, size=3).shape == (3,)
    assert rs.rand(2, 3).shape == (2, 3) and rs.randn(4).shape == (4,)
    assert rs.multivariate_normal([0.0, 0.0], np.eye(2), 7).shape == (7, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DeprecationWarning, match="randint"):
            rs.random_integers(5)
    for bad in (-1, 2**32, [1, -2]):
        with pytest.raises(ValueError, match="Seed must be between 0 and 2\\*\\*32 - 1"):
            vk.random.RandomState(bad)
    with pytest.raises(TypeError):
        vk.random.RandomState(1.5)
    with pytest.raises(ValueError, match="state"):
        rs.set_state(("MT19937", np.zeros(624, np.uint32), 0, 0, 0.0))
    vk.random.seed(12)
    np.testing.assert_array_equal(np.asarray(vk.random.standard_gamma(2.0, 5)), a)
