"""vkarray.random: numpy's Generator API on a counter-based generator (Philox-4x32-10).

``rng = vk.random.default_rng(seed)`` gives a :class:`Generator`; its draws are lazy device
arrays that fuse with what follows (``rng.random(n) * 2 + 1`` is one kernel), and a seed gives
the same values on any device, replica count or launch split. Keys come from numpy's
SeedSequence algorithm: ``default_rng(s).key`` equals the two uint32 words of
``numpy.random.SeedSequence(s).generate_state(2)`` (low word first).

The transforms are documented, not numpy's, so values differ from numpy's for the same seed:
random takes 53 (float64) or 24 (float32) bits of one unit; standard_normal is Box-Muller on
two uniforms of the element's own units, ``sqrt(-2 log(1 - u1)) * cos(2 pi u2)`` (not numpy's
ziggurat); standard_exponential is ``-log1p(-u)``; integers is the multiply-shift
``low + floor(x * r / 2**128)`` of a 128-bit block (bias below 2**-64); permutation and shuffle
argsort random 64-bit keys; choice without replacement takes a permutation's prefix, or with
p the smallest ``exponential(1) / p`` (Efraimidis-Spirakis). The other distributions follow
numpy's argument rules and errors; those with a closed form are elementwise expressions of the
stream (they fuse too), while gamma, poisson, binomial, hypergeometric, zipf, vonmises and
logseries (and what is built on them) run rejection loops on the device, each element on a
stream of its own.

The legacy functions (``seed``, ``rand``, ``poisson``, ...) are the methods of one
:class:`RandomState`, numpy's legacy API, whose ``seed(s)`` gives the stream of
``default_rng(s)``.

Differences from numpy: size=None gives a 0-d device array, not a Python scalar. The
distributions also take CuPy's ``dtype=`` (after ``size``), the draw cast to that real dtype.
``per_replica=True`` gives each replica of the context its own stream (computed at once, one
kernel per replica).
"""

import numpy as _np

from ._random_generator import Generator
from ._random_seeds import SeedSequence
from ._random_state import RandomState

__all__ = [
    "Generator", "SeedSequence", "RandomState", "default_rng",
    # numpy.random's module functions: RandomState's methods on one module instance.
    "seed", "get_state", "set_state", "rand", "randn", "randint", "random_integers", "random",
    "random_sample", "ranf", "sample", "bytes", "choice", "permutation", "shuffle", "uniform",
    "normal", "standard_normal", "exponential", "standard_exponential", "standard_gamma",
    "gamma", "beta", "chisquare", "noncentral_chisquare", "f", "noncentral_f", "standard_t",
    "standard_cauchy", "laplace", "logistic", "gumbel", "lognormal", "pareto", "power",
    "rayleigh", "weibull", "wald", "triangular", "vonmises", "poisson", "binomial",
    "negative_binomial", "geometric", "hypergeometric", "zipf", "logseries", "dirichlet",
    "multinomial", "multivariate_normal",
]

# numpy.random names vkarray leaves out, and why (docs/differences_from_numpy.md lists them).
_LEFT_OUT = {
    **{n: "vkarray's Generator has one bit generator, Philox-4x32-10 evaluated on the device at "
          "each element's own position; numpy's sequential bit generators have no such form"
       for n in ("BitGenerator", "MT19937", "PCG64", "PCG64DXSM", "SFC64")},
    "Philox": "numpy's Philox is Philox-4x64-10 (64-bit multiplies, a 256-bit counter); "
              "vkarray's stream is Philox-4x32-10, so a class of that name would not give "
              "numpy's values",
}


def default_rng(seed=None, *, context=None, per_replica=False):
    """numpy's default_rng: a Generator over SeedSequence(seed) (a Generator is returned as
    is; a SeedSequence or numpy SeedSequence is used as given)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, _np.random.SeedSequence):
        seed = SeedSequence(seed.entropy, spawn_key=seed.spawn_key)
    return Generator(seed, context=context, per_replica=per_replica)


_legacy = RandomState()

seed = _legacy.seed
get_state = _legacy.get_state
set_state = _legacy.set_state
rand = _legacy.rand
randn = _legacy.randn
randint = _legacy.randint
random_integers = _legacy.random_integers
random = _legacy.random
random_sample = _legacy.random_sample
ranf = _legacy.random_sample
sample = _legacy.random_sample
bytes = _legacy.bytes
choice = _legacy.choice
permutation = _legacy.permutation
shuffle = _legacy.shuffle
uniform = _legacy.uniform
normal = _legacy.normal
standard_normal = _legacy.standard_normal
exponential = _legacy.exponential
standard_exponential = _legacy.standard_exponential
standard_gamma = _legacy.standard_gamma
gamma = _legacy.gamma
beta = _legacy.beta
chisquare = _legacy.chisquare
noncentral_chisquare = _legacy.noncentral_chisquare
f = _legacy.f
noncentral_f = _legacy.noncentral_f
standard_t = _legacy.standard_t
standard_cauchy = _legacy.standard_cauchy
laplace = _legacy.laplace
logistic = _legacy.logistic
gumbel = _legacy.gumbel
lognormal = _legacy.lognormal
pareto = _legacy.pareto
power = _legacy.power
rayleigh = _legacy.rayleigh
weibull = _legacy.weibull
wald = _legacy.wald
triangular = _legacy.triangular
vonmises = _legacy.vonmises
poisson = _legacy.poisson
binomial = _legacy.binomial
negative_binomial = _legacy.negative_binomial
geometric = _legacy.geometric
hypergeometric = _legacy.hypergeometric
zipf = _legacy.zipf
logseries = _legacy.logseries
dirichlet = _legacy.dirichlet
multinomial = _legacy.multinomial
multivariate_normal = _legacy.multivariate_normal
