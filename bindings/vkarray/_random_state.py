"""vkarray.random's RandomState: numpy's legacy API (the module-level functions are one
instance's methods) over a Generator. Values follow vkarray's transforms, not the Mersenne
Twister's: RandomState(s) draws the stream of default_rng(s)."""

import inspect as _inspect
import warnings as _warnings

import numpy as _np

from ._random_generator import Generator
from ._random_seeds import SeedSequence


def _legacy_seed(seed):
    """numpy's legacy seeds: None, or integers in [0, 2**32) (one, or a 1-d sequence)."""
    if seed is None:
        return SeedSequence()
    if isinstance(seed, (float, _np.floating)):
        raise TypeError("Cannot cast scalar from dtype('float64') to dtype('int64') according "
                        "to the rule 'safe'")
    values = _np.asarray(seed)
    if values.dtype.kind not in "iub" or values.ndim > 1 or \
            (values.size and (values.min() < 0 or values.max() > 2**32 - 1)):
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    return SeedSequence(int(seed) if values.ndim == 0 else [int(v) for v in values])


class RandomState:
    """numpy.random.RandomState's methods on a vkarray Generator (made on first use, so that
    creating one, like importing vkarray, starts no device)."""

    def __init__(self, seed=None):
        self.seed(seed)

    def __repr__(self):
        return "RandomState(Philox4x32-10)"

    def _gen(self):
        if self._generator is None:
            self._generator = Generator(self._seed_seq)
        return self._generator

    def seed(self, seed=None):
        """Reseeds: the stream of default_rng(seed) from its start."""
        self._seed_seq = _legacy_seed(seed)
        self._generator = None

    def get_state(self, legacy=True):
        """The generator's state as Generator.state's dict (not numpy's MT19937 tuple)."""
        return self._gen().state

    def set_state(self, state):
        """Restores a state from get_state."""
        if not isinstance(state, dict):
            raise ValueError("state must be a Philox4x32-10 state dict from get_state()")
        self._gen().state = state

    def random_sample(self, size=None, dtype=_np.float64):
        """Uniform floats in [0, 1) (Generator.random; dtype=, float32 or float64, is CuPy's)."""
        return self._gen().random(size, dtype)

    def random(self, size=None, dtype=_np.float64):
        """Uniform floats in [0, 1) (Generator.random; dtype=, float32 or float64, is CuPy's)."""
        return self._gen().random(size, dtype)

    def rand(self, *args):
        """random_sample(args): uniform floats in [0, 1) of shape args."""
        return self._gen().random(args)

    def randn(self, *args):
        """standard_normal(args)."""
        return self._gen().standard_normal(args)

    def randint(self, low, high=None, size=None, dtype=int):
        """Integers in [low, high) ([0, low) when high is None)."""
        return self._gen().integers(low, high, size, dtype=dtype)

    def random_integers(self, low, high=None, size=None):
        """Integers in [low, high] ([1, low] when high is None); deprecated, as numpy's."""
        if high is None:
            _warnings.warn("This function is deprecated. Please call randint(1, {low} + 1) "
                           "instead".format(low=low), DeprecationWarning, stacklevel=2)
            low, high = 1, low
        else:
            _warnings.warn("This function is deprecated. Please call randint({low}, {high} + 1) "
                           "instead".format(low=low, high=high), DeprecationWarning,
                           stacklevel=2)
        return self._gen().integers(low, high, size, endpoint=True)

    def tomaxint(self, size=None):
        """Integers in [0, 2**63 - 1]."""
        return self._gen().integers(0, 2**63 - 1, size, endpoint=True)

    def standard_normal(self, size=None, dtype=_np.float64):
        """N(0, 1) (Generator.standard_normal; dtype= is CuPy's)."""
        return self._gen().standard_normal(size, dtype)

    def standard_exponential(self, size=None, dtype=_np.float64):
        """Exponential(1) (Generator.standard_exponential; dtype= is CuPy's)."""
        return self._gen().standard_exponential(size, dtype)

    def standard_gamma(self, shape, size=None, dtype=_np.float64):
        """Gamma(shape, 1) (Generator.standard_gamma; dtype= is CuPy's)."""
        return self._gen().standard_gamma(shape, size, dtype)

    def choice(self, a, size=None, replace=True, p=None):
        """Samples of arange(a) or of a (Generator.choice)."""
        return self._gen().choice(a, size, replace, p)

    def shuffle(self, x):
        """Permutes x in place along its first axis."""
        self._gen().shuffle(x)

    def permutation(self, x):
        """A permuted arange(x) or copy of x (along its first axis)."""
        return self._gen().permutation(x)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                            method="svd", dtype=None):
        """mean + Z @ F.T with F from the SVD of cov (Generator.multivariate_normal; method=
        and dtype= are CuPy's)."""
        return self._gen().multivariate_normal(mean, cov, size, check_valid, tol, method=method,
                                               dtype=dtype)


# The methods whose legacy signature is the Generator's call it with the same arguments.
_SAME_AS_GENERATOR = (
    "bytes", "uniform", "normal", "exponential", "gamma", "beta", "chisquare",
    "noncentral_chisquare", "f", "noncentral_f", "standard_t", "standard_cauchy", "laplace",
    "logistic", "gumbel", "lognormal", "pareto", "power", "rayleigh", "weibull", "wald",
    "triangular", "vonmises", "poisson", "binomial", "negative_binomial", "geometric",
    "hypergeometric", "zipf", "logseries", "dirichlet", "multinomial")


def _delegate(name):
    target = getattr(Generator, name)

    def method(self, *args, **kwargs):
        return getattr(self._gen(), name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = target.__doc__
    method.__signature__ = _inspect.signature(target)
    return method


for _name in _SAME_AS_GENERATOR:
    setattr(RandomState, _name, _delegate(_name))
del _name
