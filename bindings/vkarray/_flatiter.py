"""numpy's iterators for vkarray arrays ("Iterating over arrays"): the flat iterator ``x.flat``
(iteration, indexing and assignment in C order over any view; installed by _ndarray.py) and
its class ``vkarray.flatiter``, ndenumerate (indices and values), ndindex (indices of a
shape, numpy's own) and broadcast (numpy's broadcast object: shape and iteration)."""

import numpy as _np

from . import _vkarray
from ._creation import arange, asarray
from ._indexing import unravel_index
from ._manipulation import resize

__all__ = ["flatiter", "ndenumerate", "ndindex", "broadcast"]

ndindex = _np.ndindex  # indices of a shape: no array data


class ndenumerate:  # noqa: N801 — numpy's name
    """numpy.ndenumerate over a vkarray array: (index, value) pairs in C order, the values
    numpy scalars from one download taken at the first step (as iterating x.flat)."""

    __module__ = "vkarray"

    def __init__(self, arr):
        self._base = arr if isinstance(arr, _vkarray.ndarray) else asarray(arr)
        self._iter = None

    def __iter__(self):
        return self

    def __next__(self):
        if self._iter is None:
            self._iter = _np.ndenumerate(self._base.get())
        return next(self._iter)


def _host(a):
    return a.get() if isinstance(a, _vkarray.ndarray) else _np.asarray(a)


class broadcast:  # noqa: N801 — numpy's name
    """numpy.broadcast of up to 32 arrays: shape, ndim (nd), size, numiter, index, reset and
    iters from their shapes alone; iterating yields tuples of their elements as numpy
    scalars, each array downloaded once, when iteration starts (as iterating x.flat)."""

    __module__ = "vkarray"

    def __init__(self, *args):
        if len(args) > 32:
            raise ValueError(f"[broadcast] Need at least 0 and at most 32 array objects, got "
                             f"{len(args)}")
        self._args = args
        shapes = [a.shape if isinstance(a, _vkarray.ndarray) else _np.shape(a) for a in args]
        try:
            self.shape = _np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError("[broadcast] shape mismatch: objects cannot be broadcast to a "
                             "single shape; shapes " + ", ".join(str(s) for s in shapes)) \
                from None
        self._iter = None
        self._index = 0

    ndim = property(lambda self: len(self.shape))
    nd = ndim
    numiter = property(lambda self: len(self._args))
    size = property(lambda self: int(_np.prod(self.shape, dtype=_np.int64)))
    index = property(lambda self: self._index)

    @property
    def iters(self):
        """One flat iterator per argument over its values broadcast to the shape, at the
        broadcast's index, as numpy's (each argument downloaded)."""
        iters = tuple(_np.broadcast_to(_host(a), self.shape).flat for a in self._args)
        for it in iters:
            for _ in range(self._index):
                next(it)
        return iters

    def reset(self):
        self._iter, self._index = None, 0

    def __iter__(self):
        return self

    def __next__(self):
        if self._iter is None:
            self._iter = iter(_np.broadcast(*[_host(a) for a in self._args]))
        value = next(self._iter)
        self._index += 1
        return value


class flatiter:
    """numpy.flatiter over a vkarray array: ``x.flat``. Iterating yields numpy scalars from
    one download (taken at the first step); ``x.flat[i]``, ``[i:j]``, ``[int_array]`` and
    ``[bool_array]`` read the elements in C order (copies, as numpy's); assigning to them
    writes ``x`` in place, values repeated cyclically as numpy's flat assignment repeats
    them. Works on any view (strided, transposed) without copying ``x``."""

    __module__ = "vkarray"  # its public home, as numpy.flatiter's is numpy

    def __init__(self, base):
        if not isinstance(base, _vkarray.ndarray):
            raise TypeError(f"[flatiter] expects a vkarray.ndarray, got {type(base).__name__}")
        self._base = base
        self._index = 0
        self._host = None

    base = property(lambda self: self._base, doc="The array being iterated.")
    index = property(lambda self: self._index, doc="The flat index of the next element.")

    @property
    def coords(self):
        """The N-d index of the next element."""
        if self._index >= self._base.size:
            return tuple(self._base.shape)
        return tuple(int(i) for i in _np.unravel_index(self._index, self._base.shape))

    def __len__(self):
        return self._base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self._base.size:
            raise StopIteration
        if self._host is None:
            self._host = self._base.get().reshape(-1)
        self._index += 1
        return self._host[self._index - 1]

    def __array__(self, dtype=None):
        host = self._base.get().reshape(-1)
        return host if dtype is None else host.astype(dtype)

    def copy(self):
        """A 1-d copy of the elements (numpy's flatiter.copy, a.flatten())."""
        return self._base.flatten()

    def _positions(self, key):
        """The flat positions `key` selects, as int64 indices on the device."""
        n = self._base.size
        if isinstance(key, tuple):
            if len(key) != 1:
                raise IndexError("[flatiter] too many indices for a flat iterator")
            key = key[0]
        if key is Ellipsis:
            key = slice(None)
        if isinstance(key, (int, _np.integer)):
            if not -n <= int(key) < n:
                raise IndexError(f"index {int(key)} is out of bounds for axis 0 with size {n}")
            return int(key) % n
        if isinstance(key, slice):
            return key
        return arange(n, context=self._base.context)[key]

    def __getitem__(self, key):
        pos = self._positions(key)
        flat = _vkarray.reshape(self._base, -1)
        if isinstance(pos, (int, slice)):
            r = flat[pos]
            return _vkarray.copy(r) if isinstance(pos, slice) else r
        return _vkarray.take(flat, pos)

    def __setitem__(self, key, value):
        pos = self._positions(key)
        a = self._base
        if isinstance(pos, int):
            a[_np.unravel_index(pos, a.shape)] = value
            return
        if isinstance(pos, slice):
            pos = arange(a.size, context=a.context)[pos]
        count = pos.size
        if count == 0:
            return
        values = asarray(value, context=a.context) if not _np.isscalar(value) else value
        if isinstance(values, _vkarray.ndarray):
            values = _vkarray.ravel(values)
            if values.size != count:
                if values.size == 0:
                    return
                values = resize(values, count)
        if a.ndim == 1:
            a[pos] = values
        else:
            a[unravel_index(pos, a.shape)] = values


def _flat(self):
    """numpy's flat: a flatiter over the elements in C order (iteration, indexing and
    assignment)."""
    return flatiter(self)


def _set_flat(self, value):
    flatiter(self)[...] = value
