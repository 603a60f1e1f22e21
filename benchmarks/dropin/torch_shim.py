"""A thin numpy-style namespace over PyTorch, for the drop-in programs: numpy's names where
torch spells them differently (axis/keepdims, max/amax, roll's shift/axis, copy,
histogram, bincount, random.default_rng, minimum and maximum with a number, flip without an
axis, arange on the device) and numpy's result types where torch's differ (the
mean of booleans, bincount's float64 weights, std without Bessel's correction). Everything else
is torch's own function of the same name. Tensors gain ``astype`` (numpy's method name for
``.to``). Arrays live on the GPU when torch sees one."""

import math

import numpy
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"

if not hasattr(torch.Tensor, "astype"):
    torch.Tensor.astype = lambda self, dtype: self.to(_dtype(dtype))

_DTYPES = {numpy.dtype(k): v for k, v in [
    ("bool", torch.bool), ("int8", torch.int8), ("uint8", torch.uint8), ("int16", torch.int16),
    ("int32", torch.int32), ("int64", torch.int64), ("float16", torch.float16),
    ("float32", torch.float32), ("float64", torch.float64), ("complex64", torch.complex64),
    ("complex128", torch.complex128)]}


def _dtype(dt):
    if dt is None or isinstance(dt, torch.dtype):
        return dt
    return _DTYPES[numpy.dtype(dt)]


def _scalar_or(fn, host):
    """fn on tensors; on Python numbers (np.sqrt(n) of an int), numpy's function as a Python
    float (a numpy scalar times a CUDA tensor would try to convert the tensor to numpy)."""
    return lambda x: fn(x) if torch.is_tensor(x) else float(host(x))


def asarray(x, dtype=None):
    if isinstance(x, numpy.ndarray):
        return torch.from_numpy(numpy.ascontiguousarray(x)).to(device=device, dtype=_dtype(dtype))
    return torch.as_tensor(x, dtype=_dtype(dtype), device=device)


def zeros(shape, dtype=float):
    return torch.zeros(shape, dtype=_dtype(dtype), device=device)


def ones(shape, dtype=float):
    return torch.ones(shape, dtype=_dtype(dtype), device=device)


def copy(x):
    return torch.clone(x)


def _axis(fn):
    return lambda x, axis=None, keepdims=False: (
        fn(x) if axis is None else fn(x, dim=axis, keepdim=keepdims))


sum = _axis(torch.sum)  # noqa: A001
max = _axis(torch.amax)  # noqa: A001
min = _axis(torch.amin)  # noqa: A001


def mean(x, axis=None, keepdims=False):
    if not x.is_floating_point() and not x.is_complex():
        x = x.to(torch.float64)  # numpy's mean of integers and booleans is float64
    return torch.mean(x) if axis is None else torch.mean(x, dim=axis, keepdim=keepdims)


def std(x, axis=None, keepdims=False):
    if axis is None:
        return torch.std(x, correction=0)
    return torch.std(x, dim=axis, keepdim=keepdims, correction=0)


def argmin(x, axis=None):
    return torch.argmin(x, dim=axis)


def roll(x, shift, axis=None):
    return torch.roll(x, shift, dims=axis)


def cumsum(x, axis=None):
    return torch.cumsum(x.reshape(-1), 0) if axis is None else torch.cumsum(x, axis)


def stack(arrays, axis=0):
    return torch.stack(list(arrays), dim=axis)


def maximum(x, y):
    if not torch.is_tensor(y):
        return torch.clamp(x, min=y)
    return torch.maximum(x, y)


def minimum(x, y):
    if not torch.is_tensor(y):
        return torch.clamp(x, max=y)
    return torch.minimum(x, y)


def flip(x, axis=None):
    return torch.flip(x, tuple(range(x.dim())) if axis is None else (axis,))


def arange(*args, dtype=None):
    return torch.arange(*args, dtype=_dtype(dtype), device=device)


def clip(x, lo, hi):
    return torch.clamp(x, lo, hi)


def where(cond, x, y):
    return torch.where(cond, x, y)


def bincount(x, weights=None, minlength=0):
    if weights is not None:
        weights = weights.to(torch.float64)  # numpy's weighted bincount is float64
    return torch.bincount(x, weights, minlength)


def histogram(x, bins, range):  # noqa: A002  (numpy's name)
    lo, hi = range
    counts = torch.histc(x, bins=bins, min=lo, max=hi).to(torch.int64)
    # numpy's edges: computed in float64, in the samples' float dtype
    edges = torch.linspace(lo, hi, bins + 1, dtype=torch.float64, device=x.device)
    return counts, edges.to(x.dtype if x.is_floating_point() else torch.float64)


# numpy's math functions also take Python numbers (np.cos(lat0) of a float).
for _name in ["sqrt", "exp", "log", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "abs"]:
    globals()[_name] = _scalar_or(getattr(torch, _name), getattr(numpy, _name))
dot = torch.dot


class _Random:
    class _Generator:
        def __init__(self, seed):
            self._g = torch.Generator(device=device)
            self._g.manual_seed(seed)

        def random(self, size, dtype=numpy.float64):
            return torch.rand(size, generator=self._g, dtype=_dtype(dtype), device=device)

    @staticmethod
    def default_rng(seed):
        return _Random._Generator(seed)


random = _Random()
pi = math.pi


def __getattr__(name):
    """numpy's dtypes (np.float32, ...) as torch's; any other name is torch's own."""
    if name.rstrip("_") in ("bool", "int8", "uint8", "int16", "int32", "int64", "float16",
                            "float32", "float64", "complex64", "complex128"):
        return _DTYPES[numpy.dtype(name.rstrip("_"))]
    return getattr(torch, name)
