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


# floating-point routines
X = np.array([0.0, -0.0, 0.75, -6.5, 1e-310, 3e300, np.inf, np.nan])
c("frexp", lambda xp, to: xp.frexp(to(X)))
c("frexp", lambda xp, to: xp.frexp(to(F.astype(np.float32))))
c("ldexp", lambda xp, to: xp.ldexp(to(X), to(np.array([1, -3, 0, 7, 40, 30, -2, 1]))))
c("ldexp", lambda xp, to: xp.ldexp(to(F.astype(np.float16)), 3))
c("nextafter", lambda xp, to: xp.nextafter(to(X), to(X[::-1])))
c("nextafter", lambda xp, to: xp.nextafter(to(F.astype(np.float32)), 0.0))
c("spacing", lambda xp, to: xp.spacing(to(X)))
c("spacing", lambda xp, to: xp.spacing(to(F.astype(np.float16))))
