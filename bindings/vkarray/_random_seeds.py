"""vkarray.random's SeedSequence: numpy's seed hashing (entropy and spawn keys into a pool from
which generator keys are drawn), computed on the host by the C++ core."""

import numpy as _np

from . import _vkarray


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
