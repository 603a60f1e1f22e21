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
p the smallest ``exponential(1) / p`` (Efraimidis-Spirakis).

Differences from numpy: size=None gives a 0-d device array, not a Python scalar.
``per_replica=True`` gives each replica of the context its own stream (computed at once, one
kernel per replica).
"""

import numbers as _numbers

import numpy as _np

from . import _math, _vkarray
from ._creation import asarray

__all__ = [
    "Generator", "SeedSequence", "default_rng", "seed", "rand", "randn", "randint", "random",
    "random_sample", "uniform", "normal", "standard_normal", "exponential", "choice",
    "permutation", "shuffle",
]


def _int_words(x):
    """numpy's _int_to_uint32_array: a non-negative int as 32-bit words, low first."""
    x = int(x)
    if x < 0:
        raise ValueError("expected non-negative integer")
    words = []
    while x > 0:
        words.append(x & 0xFFFFFFFF)
        x >>= 32
    return words or [0]


def _coerce_words(x):
    """numpy's _coerce_to_uint32_array: an int, or a sequence of them concatenated."""
    if isinstance(x, (bool, _np.bool_)):
        raise TypeError("SeedSequence expects int or sequence of ints for entropy not "
                        + repr(x))
    if isinstance(x, (int, _np.integer)):
        return _int_words(x)
    if isinstance(x, (float, _np.inexact)):
        raise TypeError("seed must be integer")
    if isinstance(x, _np.ndarray) and x.dtype == _np.uint32:
        return [int(v) for v in x.ravel()]
    words = []
    for v in x:
        words.extend(_coerce_words(v))
    return words


class SeedSequence:
    """numpy.random.SeedSequence's algorithm: entropy (int or sequence of ints; None: from the
    operating system) and a spawn key mixed into a pool, from which keys are generated."""

    def __init__(self, entropy=None, *, spawn_key=(), _core=None):
        if _core is None:
            words = [] if entropy is None else _coerce_words(entropy)
            _core = _vkarray._SeedSequence(words, [int(k) for k in spawn_key])
        self._core = _core

    @property
    def entropy(self):
        words = self._core.entropy
        return sum(int(w) << (32 * i) for i, w in enumerate(words))

    @property
    def spawn_key(self):
        return tuple(self._core.spawn_key)

    def generate_state(self, n_words, dtype=_np.uint32):
        dtype = _np.dtype(dtype)
        if dtype == _np.uint32:
            return _np.array(self._core.generate_state(int(n_words)), dtype=_np.uint32)
        if dtype == _np.uint64:
            return _np.array(self._core.generate_state(2 * int(n_words)),
                             dtype=_np.uint32).view(_np.uint64)
        raise ValueError("only support uint32 or uint64")

    def spawn(self, n_children):
        return [SeedSequence(_core=c) for c in self._core.spawn(int(n_children))]


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


def _check_all(cond, exc, message):
    if isinstance(cond, _vkarray.ndarray):
        cond = bool(_vkarray.all(cond))
    if not cond:
        raise exc(message)


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

    def _float_draw(self, name, size, dtype, out):
        if out is not None:
            want = (size,) if isinstance(size, int) else size
            if size is not None and tuple(want) != out.shape:
                raise ValueError("size must match out.shape when used together")
            size = out.shape
            if _np.dtype(dtype) != out.dtype:
                raise TypeError("Supplied output array has the wrong type. Expected %s, got %s"
                                % (_np.dtype(dtype), out.dtype))
        return self._out(getattr(self._core, name)(_size(size), dtype), out, name)

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

    def uniform(self, low=0.0, high=1.0, size=None):
        """low + (high - low) * random(), numpy's formula; float64."""
        ctx = self.context
        low, high = _asarray(low, ctx), _asarray(high, ctx)
        rng = high - low
        if isinstance(rng, _vkarray.ndarray):
            _check_all(_math.isfinite(rng), OverflowError, "high - low range exceeds valid bounds")
        elif not _np.isfinite(rng):
            raise OverflowError("high - low range exceeds valid bounds")
        return low + rng * self._core.random(_shape_of(size, low, high), _np.float64)

    def normal(self, loc=0.0, scale=1.0, size=None):
        """loc + scale * standard_normal(); float64."""
        ctx = self.context
        loc, scale = _asarray(loc, ctx), _asarray(scale, ctx)
        _check_all(scale >= 0, ValueError, "scale < 0")
        return loc + scale * self._core.standard_normal(_shape_of(size, loc, scale), _np.float64)

    def exponential(self, scale=1.0, size=None):
        """scale * standard_exponential(); float64."""
        scale = _asarray(scale, self.context)
        _check_all(scale >= 0, ValueError, "scale < 0")
        return scale * self._core.standard_exponential(_shape_of(size, scale), _np.float64)

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


def default_rng(seed=None, *, context=None, per_replica=False):
    """numpy's default_rng: a Generator over SeedSequence(seed) (a Generator is returned as
    is; a SeedSequence or numpy SeedSequence is used as given)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, _np.random.SeedSequence):
        seed = SeedSequence(seed.entropy, spawn_key=seed.spawn_key)
    return Generator(seed, context=context, per_replica=per_replica)


# The legacy functions on one module-level generator (numpy's RandomState API; values follow
# this module's transforms, not RandomState's Mersenne Twister).
class _Lazy:
    """The legacy functions' generator, made on first use (importing vkarray starts no device)."""

    gen = None

    def __getattr__(self, name):
        if _Lazy.gen is None:
            _Lazy.gen = default_rng()
        return getattr(_Lazy.gen, name)


_global = _Lazy()


def seed(seed=None):
    """Reseeds the generator behind the legacy functions."""
    _Lazy.gen = default_rng(seed)


def rand(*shape):
    return _global.random(shape)


def randn(*shape):
    return _global.standard_normal(shape)


def randint(low, high=None, size=None, dtype=int):
    return _global.integers(low, high, size, dtype=dtype)


def random(size=None):
    return _global.random(size)


random_sample = random
ranf = random
sample = random


def uniform(low=0.0, high=1.0, size=None):
    return _global.uniform(low, high, size)


def normal(loc=0.0, scale=1.0, size=None):
    return _global.normal(loc, scale, size)


def standard_normal(size=None):
    return _global.standard_normal(size)


def exponential(scale=1.0, size=None):
    return _global.exponential(scale, size)


def choice(a, size=None, replace=True, p=None):
    return _global.choice(a, size, replace, p)


def permutation(x):
    return _global.permutation(x)


def shuffle(x):
    _global.shuffle(x)
