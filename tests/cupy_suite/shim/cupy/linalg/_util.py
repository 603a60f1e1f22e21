"""The one helper of CuPy's private cupy.linalg._util that its linalg tests call to build
expected values; other names are stubs."""

import vkarray

from cupy import _stubs


def stacked_identity(batch_shape, n, dtype):
    """Identity matrices of size n stacked to batch_shape + (n, n)."""
    eye = vkarray.eye(n, dtype=dtype)
    return vkarray.broadcast_to(eye, tuple(batch_shape) + (n, n))


def __getattr__(name):
    return _stubs.Stub(f"cupy.linalg._util.{name}")
