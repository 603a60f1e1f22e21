"""The registry of the numpy-parity suite: cases keyed by the public name they cover
(``"sin"``, ``"linalg.solve"``, ``"fft.rfft"``, ``"random.normal"``).

A comparison case is ``fn(xp, to)``: it computes with the namespace ``xp`` (vkarray, or numpy
seen through NP, which adds numpy 2's names to numpy 1.24) on inputs made by ``to`` (numpy
arrays → ``xp``'s arrays) and returns arrays, tuples of them, or Python values; the suite runs
it with both and compares. A check case is ``fn()`` with its own assertions, for names with no
numpy counterpart (contexts, buffers, devices) or no value-for-value one (random streams)."""

import types

import numpy as np

CASES = {}


class Case:
    def __init__(self, name, fn, rtol=None, check=False):
        self.name, self.fn, self.rtol, self.check = name, fn, rtol, check


def case(name, fn, rtol=None):
    """Registers a comparison case for `name` (rtol: relative tolerance of floating results,
    default 16 ulps of the result dtype, normwise)."""
    CASES.setdefault(name, []).append(Case(name, fn, rtol))


def check(name, fn):
    """Registers a self-checking case for `name`."""
    CASES.setdefault(name, []).append(Case(name, fn, check=True))


def _matrix_transpose(x):
    return np.swapaxes(x, -1, -2)


def _vecdot(x1, x2, axis=-1):
    return np.sum(np.conj(x1) * x2, axis=axis)


def _unique_all(x):
    v, i, inv, c = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    return v, i, inv.reshape(np.shape(x)), c


def _cumulative(fn):
    def run(x, axis=None, dtype=None, include_initial=False):
        r = fn(x, axis=axis if axis is not None else 0, dtype=dtype)
        if include_initial:
            ax = axis if axis is not None else 0
            shape = list(r.shape)
            shape[ax] = 1
            first = np.zeros(shape, r.dtype) if fn is np.cumsum else np.ones(shape, r.dtype)
            r = np.concatenate([first, r], axis=ax)
        return r
    return run


# numpy 2 and array API names that numpy 1.24 spells differently.
_NUMPY2 = {
    "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh,
    "atan": np.arctan, "atan2": np.arctan2, "atanh": np.arctanh, "pow": np.power,
    "bitwise_invert": np.invert, "bitwise_left_shift": np.left_shift,
    "bitwise_right_shift": np.right_shift, "concat": np.concatenate,
    "permute_dims": np.transpose, "matrix_transpose": _matrix_transpose, "vecdot": _vecdot,
    "astype": lambda x, dtype, copy=True: x.astype(dtype, copy=copy), "bool": np.bool_,
    "unique_values": np.unique, "unique_all": _unique_all,
    "unique_counts": lambda x: np.unique(x, return_counts=True),
    "unique_inverse": lambda x: (lambda v, i: (v, i.reshape(np.shape(x))))(
        *np.unique(x, return_inverse=True)),
    "cumulative_sum": _cumulative(np.cumsum), "cumulative_prod": _cumulative(np.cumprod),
    "cummax": lambda a, axis=0: np.maximum.accumulate(a, axis=axis),
    "cummin": lambda a, axis=0: np.minimum.accumulate(a, axis=axis),
    "trapezoid": np.trapz,
    # numpy.lib.stride_tricks' views, which vkarray has at the top level
    "as_strided": np.lib.stride_tricks.as_strided,
    "sliding_window_view": np.lib.stride_tricks.sliding_window_view,
}
_LINALG2 = {
    "vector_norm": lambda x, axis=None, keepdims=False, ord=2: np.linalg.norm(
        x.ravel() if axis is None else x, ord=ord, axis=None if axis is None else axis,
        keepdims=keepdims),
    "matrix_norm": lambda x, keepdims=False, ord="fro": np.linalg.norm(
        x, ord=ord, axis=(-2, -1), keepdims=keepdims),
    "svdvals": lambda x: np.linalg.svd(x, compute_uv=False),
    "matrix_transpose": _matrix_transpose, "vecdot": _vecdot,
    "trace": lambda x, offset=0: np.trace(x, offset=offset, axis1=-2, axis2=-1),
    "diagonal": lambda x, offset=0: np.diagonal(x, offset=offset, axis1=-2, axis2=-1),
    "cross": np.cross, "outer": np.outer, "matmul": np.matmul, "tensordot": np.tensordot,
}


def _namespace(module, extra):
    ns = types.SimpleNamespace(**{n: getattr(module, n) for n in dir(module)
                                  if not n.startswith("__")})
    for n, f in extra.items():
        setattr(ns, n, f)
    return ns


NP = _namespace(np, _NUMPY2)
NP.linalg = _namespace(np.linalg, _LINALG2)
NP.fft = np.fft
