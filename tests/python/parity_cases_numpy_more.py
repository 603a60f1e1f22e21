"""Parity cases of the numpy names that make vkarray a drop-in namespace beyond the array
functions: ndarray's companion types, scalar type names, floating-point routines, bit
packing, polynomials, error handling, functional helpers and input/output."""

import numpy as np

import vkarray as vk
from parity_registry import case, check

RNG = np.random.default_rng(22)
F = RNG.standard_normal((4, 6))
c = case


def _flatiter():
    for host in (F, F.T, F[::2, 1::2]):
        it = vk.asarray(host).flat
        assert isinstance(it, vk.flatiter) and type(it).__name__ == "flatiter"
        assert [float(v) for v in it] == [float(v) for v in host.flat]
        np.testing.assert_array_equal(np.asarray(it), np.asarray(host.flat))


check("flatiter", _flatiter)
