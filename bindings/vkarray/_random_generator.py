"""vkarray.random's Generator: numpy.random.Generator's methods on Philox-4x32-10 streams
(vkarray/random.py says how values are made; the distributions' algorithms are in
array/random/random.h and kernels/lib/random_draw.h)."""

import numbers as _numbers
import warnings as _warnings

import numpy as _np

from . import _math, _vkarray, linalg as _linalg
from ._creation import asarray
from ._logic import allclose
from ._manipulation import broadcast_to, reshape
from ._random_seeds import SeedSequence


def _size(size):
    return () if size is None else size


_SCALARS = (_numbers.Number, _np.generic)


def _is_array(x):
    return isinstance(x, _vkarray.ndarray) or (not isinstance(x, _SCALARS) and _np.ndim(x) > 0)


def _shape_of(size, *params):
    """The result shape: size, or the parameters' broadcast shape when size is None."""
    if size is not None:
        return size
    shapes = [tuple(_np.shape(p)) if not isinstance(p, _vkarray.ndarray) else p.shape
              for p in params]
    return _np.broadcast_shapes(*shapes) if shapes else ()


def _asarray(x, ctx):
    return x if isinstance(x, (_vkarray.ndarray,) + _SCALARS) else asarray(x, context=ctx)


def _negative(x):
    """numpy's test of a non-negative parameter: the sign bit set (-0.0 too), NaN allowed."""
    if isinstance(x, _vkarray.ndarray):
        return _math.signbit(x) & ~_math.isnan(x)
    return not _np.isnan(x) and bool(_np.signbit(x))


def _fail_if(op, bad, exc, message, **operands):
    """Raises exc("[op] message (name = value, ...)"), numpy's message and the values that broke
    it, where `bad` holds: a bool, or a bool array checked on the device (one readback, and one
    more to find the first failing element when it fails)."""
    index = None
    if isinstance(bad, _vkarray.ndarray):
        if not bool(_vkarray.any(bad)):
            return
        index = _np.unravel_index(int(_vkarray.argmax(reshape(bad, (-1,)))), bad.shape)
    elif not bad:
        return
    at = "[" + ", ".join(str(int(i)) for i in index) + "]" if index else ""
    values = []
    for name, v in operands.items():
        arr = isinstance(v, _vkarray.ndarray)
        if arr:
            v = broadcast_to(v, bad.shape)[index].item()
        values.append("%s%s = %r" % (name, at if arr and len(operands) == 1 else "", v))
    where = "at index (%s): " % at[1:-1] if at and len(operands) > 1 else ""
    raise exc("[%s] %s (%s%s)" % (op, message, where, ", ".join(values)))


def _typed(op, value, dtype):
    """A draw cast to CuPy's dtype= (an extension numpy's distributions lack, as
    numpy.asarray(draw, dtype) casts); None keeps numpy's float64 (int64 for counts)."""
    if dtype is None:
        return value
    dt = _np.dtype(dtype)
    if dt.kind not in "biuf":
        raise TypeError("[%s] dtype= must be a real dtype, got %s" % (op, dt))
    return value.astype(dt) if value.dtype != dt else value

class Generator:
    """numpy.random.Generator's methods on Philox-4x32-10 streams (see the module docstring)."""

    def __init__(self, seed_seq=None, *, context=None, per_replica=False, _core=None):
        if _core is None:
            if not isinstance(seed_seq, SeedSequence):
                seed_seq = SeedSequence(seed_seq)
            _core = _vkarray._Generator(seed_seq._core, context, per_replica)
        self._core = _core

    def __repr__(self):
        return "Generator(Philox4x32-10, key=0x%016x, counter=%d)" % (self.key, self.counter)

    @property
    def key(self):
        """The 64-bit Philox key (words x | y << 32)."""
        return self._core.key

    @property
    def counter(self):
        """The first 128-bit block the next draw uses."""
        return self._core.counter

    @property
    def state(self):
        """The generator's whole state, numpy's ``bit_generator.state`` for Philox-4x32-10:
        assigning it to another Generator continues this one's stream exactly."""
        return {"bit_generator": "Philox4x32-10", "key": self.key, "counter": self.counter}

    @state.setter
    def state(self, value):
        if value.get("bit_generator") != "Philox4x32-10":
            raise ValueError("state must be for a Philox4x32-10 generator")
        self._core.set_state(int(value["key"]), int(value["counter"]))

    @property
    def context(self):
        return self._core.context

    def spawn(self, n_children):
        """Independent child generators (SeedSequence spawn keys), as numpy's Generator.spawn."""
        return [Generator(_core=c) for c in self._core.spawn(int(n_children))]

    def _out(self, value, out, name):
        return _vkarray._finish(value, out, op=name, casting="unsafe", exact_shape=True)

    def _float_draw(self, name, size, dtype, out, *params):
        """A draw with numpy's dtype= and out= (size=None: the parameters' shape, or 0-d)."""
        if out is not None:
            want = (size,) if isinstance(size, int) else size
            if size is not None and tuple(want) != out.shape:
                raise ValueError("size must match out.shape when used together")
            size = out.shape
            if _np.dtype(dtype) != out.dtype:
                raise TypeError("Supplied output array has the wrong type. Expected %s, got %s"
                                % (_np.dtype(dtype), out.dtype))
        core = getattr(self._core, name)
        value = core(*params, size, dtype) if params else core(_size(size), dtype)
        return self._out(value, out, name)

    def random(self, size=None, dtype=_np.float64, out=None):
        """Uniform floats in [0, 1): 53 random bits (float64) or 24 (float32)."""
        return self._float_draw("random", size, dtype, out)

    def standard_normal(self, size=None, dtype=_np.float64, out=None):
        """N(0, 1) by Box-Muller (not numpy's ziggurat)."""
        return self._float_draw("standard_normal", size, dtype, out)

    def standard_exponential(self, size=None, dtype=_np.float64, method="zig", out=None):
        """Exponential(1) as -log1p(-u); method is accepted for numpy's signature."""
        if method not in ("zig", "inv"):
            raise ValueError("'method' argument must be either 'zig' or 'inv'")
        return self._float_draw("standard_exponential", size, dtype, out)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None):
        """low + (high - low) * random(), numpy's formula; float64."""
        ctx = self.context
        low, high = _asarray(low, ctx), _asarray(high, ctx)
        rng = high - low
        _fail_if("uniform", ~_math.isfinite(rng) if isinstance(rng, _vkarray.ndarray)
                 else not _np.isfinite(rng), OverflowError,
                 "high - low range exceeds valid bounds", low=low, high=high)
        u = self._core.random(_shape_of(size, low, high), _np.float64)
        return _typed("uniform", low + rng * u, dtype)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None):
        """loc + scale * standard_normal(); float64."""
        ctx = self.context
        loc, scale = _asarray(loc, ctx), _asarray(scale, ctx)
        _fail_if("normal", _negative(scale), ValueError, "scale < 0", scale=scale)
        z = self._core.standard_normal(_shape_of(size, loc, scale), _np.float64)
        return _typed("normal", loc + scale * z, dtype)

    def exponential(self, scale=1.0, size=None, dtype=None):
        """scale * standard_exponential(); float64."""
        scale = _asarray(scale, self.context)
        _fail_if("exponential", _negative(scale), ValueError, "scale < 0", scale=scale)
        e = self._core.standard_exponential(_shape_of(size, scale), _np.float64)
        return _typed("exponential", scale * e, dtype)

    def integers(self, low, high=None, size=None, dtype=_np.int64, endpoint=False):
        """Integers in [low, high) ([low, high] with endpoint); [0, low) when high is None."""
        if high is None:
            low, high = 0, low
        if _is_array(low) or _is_array(high):
            return self._core.integers_array(low, high, size, dtype, bool(endpoint))
        low, high, endpoint = int(low), int(high), bool(endpoint)
        name = _np.dtype(dtype).name
        if high == 2**64 and not endpoint:  # the exclusive bound of uint64: 2**64 - 1 included
            high, endpoint = high - 1, True
        if abs(low) >= 2**64:
            raise ValueError("low is out of bounds for " + name)
        if abs(high) >= 2**64:
            raise ValueError("high is out of bounds for " + name)
        return self._core.integers(low < 0, abs(low), high < 0, abs(high), _size(size), dtype,
                                   endpoint)

    def permutation(self, x, axis=0):
        """A permuted arange(x) for an int x, else a permuted copy of x along axis."""
        if isinstance(x, (int, _np.integer)) and not isinstance(x, (bool, _np.bool_)):
            return self._core.permutation_n(int(x))
        return self._core.permutation(x, int(axis))

    def shuffle(self, x, axis=0):
        """Permutes the vkarray array x in place along axis."""
        if not isinstance(x, _vkarray.ndarray):
            raise TypeError("[shuffle] x must be a vkarray.ndarray (shuffled in place)")
        self._core.shuffle(x, int(axis))

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Samples of arange(a) (an int) or of a along axis; with p, of those probabilities."""
        if isinstance(a, (int, _np.integer)) or (
                isinstance(a, (_np.ndarray, _vkarray.ndarray)) and a.ndim == 0):
            return self._core.choice_n(int(a), _size(size), bool(replace), p)
        return self._core.choice(a, _size(size), bool(replace), p, int(axis))

    def bytes(self, length):
        """length random bytes (taken from the host copy of a uint32 draw)."""
        n = (int(length) + 3) // 4
        return _np.asarray(self.integers(0, 2**32, size=n, dtype=_np.uint32)).tobytes()[:length]

    # The distributions. Parameters are numbers or arrays (broadcast together, or to `size`);
    # invalid ones raise numpy's errors. Results are float64 (int64 for counts), or CuPy's
    # dtype= (_typed).

    def standard_gamma(self, shape, size=None, dtype=_np.float64, out=None):
        """Gamma(shape, 1) by Marsaglia and Tsang's rejection; float32 or float64."""
        return self._float_draw("standard_gamma", size, dtype, out, shape)

    def gamma(self, shape, scale=1.0, size=None, dtype=None):
        """scale * standard_gamma(shape)."""
        return _typed("gamma", self._core.gamma(shape, scale, size), dtype)

    def beta(self, a, b, size=None, dtype=None):
        """X / (X + Y) for gammas X ~ G(a), Y ~ G(b), from their logarithms."""
        return _typed("beta", self._core.beta(a, b, size), dtype)

    def chisquare(self, df, size=None, dtype=None):
        """2 * standard_gamma(df / 2)."""
        return _typed("chisquare", self._core.chisquare(df, size), dtype)

    def noncentral_chisquare(self, df, nonc, size=None, dtype=None):
        """chisquare(df + 2 I) with I ~ poisson(nonc / 2)."""
        return _typed("noncentral_chisquare", self._core.noncentral_chisquare(df, nonc, size),
                      dtype)

    def f(self, dfnum, dfden, size=None, dtype=None):
        """(chisquare(dfnum) / dfnum) / (chisquare(dfden) / dfden)."""
        return _typed("f", self._core.f(dfnum, dfden, size), dtype)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=None):
        """(noncentral_chisquare(dfnum, nonc) / dfnum) / (chisquare(dfden) / dfden)."""
        return _typed("noncentral_f", self._core.noncentral_f(dfnum, dfden, nonc, size), dtype)

    def standard_t(self, df, size=None, dtype=None):
        """Z * sqrt((df / 2) / G), Z normal and G ~ standard_gamma(df / 2)."""
        return _typed("standard_t", self._core.standard_t(df, size), dtype)

    def standard_cauchy(self, size=None, dtype=None):
        """tan(pi (u - 1/2)) for u uniform in (0, 1)."""
        return _typed("standard_cauchy", self._core.standard_cauchy(size), dtype)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=None):
        """loc +- scale * E, E exponential and the sign from the same 64-bit unit."""
        return _typed("laplace", self._core.laplace(loc, scale, size), dtype)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=None):
        """loc + scale * log(u / (1 - u)) for u in (0, 1)."""
        return _typed("logistic", self._core.logistic(loc, scale, size), dtype)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=None):
        """loc - scale * log(-log(u)) for u in (0, 1)."""
        return _typed("gumbel", self._core.gumbel(loc, scale, size), dtype)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=None):
        """exp(mean + sigma * Z)."""
        return _typed("lognormal", self._core.lognormal(mean, sigma, size), dtype)

    def pareto(self, a, size=None, dtype=None):
        """expm1(E / a), E exponential (the Lomax form numpy draws)."""
        return _typed("pareto", self._core.pareto(a, size), dtype)

    def power(self, a, size=None, dtype=None):
        """u ** (1 / a) for u uniform in [0, 1)."""
        return _typed("power", self._core.power(a, size), dtype)

    def rayleigh(self, scale=1.0, size=None, dtype=None):
        """scale * sqrt(2 E), E exponential."""
        return _typed("rayleigh", self._core.rayleigh(scale, size), dtype)

    def weibull(self, a, size=None, dtype=None):
        """E ** (1 / a), E exponential (0 where a is 0)."""
        return _typed("weibull", self._core.weibull(a, size), dtype)

    def wald(self, mean, scale, size=None, dtype=None):
        """Michael, Schucany and Haas's transformation of a normal and a uniform."""
        return _typed("wald", self._core.wald(mean, scale, size), dtype)

    def triangular(self, left, mode, right, size=None, dtype=None):
        """The inverse CDF of a uniform."""
        return _typed("triangular", self._core.triangular(left, mode, right, size), dtype)

    def vonmises(self, mu, kappa, size=None, dtype=None):
        """Best and Fisher's rejection, on [-pi, pi]."""
        return _typed("vonmises", self._core.vonmises(mu, kappa, size), dtype)

    def poisson(self, lam=1.0, size=None, dtype=None):
        """Products of uniforms for lam < 10, Hoermann's PTRS rejection above; int64."""
        return _typed("poisson", self._core.poisson(lam, size), dtype)

    def binomial(self, n, p, size=None, dtype=None):
        """Inversion for n * min(p, 1 - p) <= 30, BTPE rejection above; int64."""
        return _typed("binomial", self._core.binomial(n, p, size), dtype)

    def negative_binomial(self, n, p, size=None, dtype=None):
        """poisson(gamma(n, (1 - p) / p)); int64."""
        return _typed("negative_binomial", self._core.negative_binomial(n, p, size), dtype)

    def geometric(self, p, size=None, dtype=None):
        """ceil(E / -log(1 - p)), E exponential: inversion; int64."""
        return _typed("geometric", self._core.geometric(p, size), dtype)

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=None):
        """Item by item below 10 draws, Stadlober's ratio of uniforms (HRUA) above; int64."""
        return _typed("hypergeometric", self._core.hypergeometric(ngood, nbad, nsample, size),
                      dtype)

    def zipf(self, a, size=None, dtype=None):
        """Devroye's rejection, below 2**63 as numpy's; int64."""
        return _typed("zipf", self._core.zipf(a, size), dtype)

    def logseries(self, p, size=None, dtype=None):
        """Kemp's LK algorithm; int64."""
        return _typed("logseries", self._core.logseries(p, size), dtype)

    def dirichlet(self, alpha, size=None, dtype=None):
        """Gammas of the alphas normalized along the last axis (size + (k,))."""
        return _typed("dirichlet", self._core.dirichlet(alpha, size), dtype)

    def multinomial(self, n, pvals, size=None, dtype=None):
        """Binomial draws category by category (the categories: pvals' last axis); int64."""
        return _typed("multinomial", self._core.multinomial(n, pvals, size), dtype)

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals"):
        """Hypergeometric draws color by color (both methods: numpy's 'marginals'); int64.

        colors are host numbers, as numpy's sequence of ints: they set the number of launches
        and each one's constants (a vkarray array is downloaded for them)."""
        if method not in ("count", "marginals"):
            raise ValueError('[multivariate_hypergeometric] method must be "count" or '
                             '"marginals". (method = %r)' % (method,))
        colors = _np.asarray(colors)
        if colors.ndim != 1 or colors.dtype.kind not in "iu" or (colors < 0).any():
            raise ValueError("[multivariate_hypergeometric] colors must be a one-dimensional "
                             "sequence of nonnegative integers not exceeding %d. (colors = %s)"
                             % (_np.iinfo(_np.int64).max, _np.array2string(colors,
                                                                          threshold=20)))
        if not isinstance(nsample, (int, _np.integer)) or isinstance(nsample, (bool, _np.bool_)):
            raise ValueError("[multivariate_hypergeometric] nsample must be an integer "
                             "(nsample = %r)" % (nsample,))
        return self._core.multivariate_hypergeometric([int(c) for c in colors], int(nsample),
                                                      size)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                            method="svd", dtype=None):
        """mean + Z @ F.T for standard normals Z and F F.T = cov (svd, eigh or cholesky); dtype=
        is CuPy's (_typed)."""
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("[multivariate_normal] method must be one of {'eigh', 'svd', "
                             "'cholesky'} (method = %r)" % (method,))
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("[multivariate_normal] check_valid must equal 'warn', 'raise', or "
                             "'ignore' (check_valid = %r)" % (check_valid,))
        ctx = self.context
        mean = asarray(mean, context=ctx).astype(_np.float64)
        cov = asarray(cov, context=ctx).astype(_np.float64)
        if mean.ndim != 1:
            raise ValueError("[multivariate_normal] mean must be 1 dimensional (mean.shape = %s)"
                             % (mean.shape,))
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("[multivariate_normal] cov must be 2 dimensional and square "
                             "(cov.shape = %s)" % (cov.shape,))
        if mean.shape[0] != cov.shape[0]:
            raise ValueError("[multivariate_normal] mean and cov must have same length "
                             "(mean.shape = %s, cov.shape = %s)" % (mean.shape, cov.shape))
        batch = () if size is None else ((size,) if isinstance(size, int) else tuple(size))
        n = mean.shape[0]
        # The check reads one bool back from the device; check_valid='ignore' skips it.
        check, psd = method != "cholesky" and check_valid != "ignore", True
        if method == "cholesky":
            factor = _linalg.cholesky(cov)  # fails (LinAlgError) unless positive definite
        elif method == "eigh":
            s, u = _linalg.eigh(cov)
            psd = not check or not bool(_vkarray.any(s < -tol))
            factor = u * _math.sqrt(_math.abs(s))
        else:
            u, s, vh = _linalg.svd(cov)
            psd = not check or allclose((vh.T * s) @ vh, cov, rtol=tol, atol=tol)
            factor = u * _math.sqrt(s)
        if not psd:
            if check_valid == "raise":
                raise ValueError("[multivariate_normal] covariance is not symmetric "
                                 "positive-semidefinite.")
            _warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning,
                           stacklevel=2)
        z = self._core.standard_normal(batch + (n,), _np.float64)
        draw = mean + reshape(reshape(z, (-1, n)) @ factor.T, batch + (n,))
        return _typed("multivariate_normal", draw, dtype)

    def permuted(self, x, axis=None, out=None):
        """x with each slice along axis permuted independently (all of it when axis is None)."""
        if not isinstance(x, _vkarray.ndarray):
            x = asarray(x, context=self.context)
        if out is not None and tuple(out.shape) != tuple(x.shape):
            raise ValueError("out must have the same shape as x")
        return self._out(self._core.permuted(x, None if axis is None else int(axis)), out,
                         "permuted")
