"""vkarray: lazy GPU arrays on Vulkan compute.

``import vkarray as vk``. Lazy arrays: ``vk.ndarray`` with numpy's operators, the ufunc-named
functions (``vk.add``, ``vk.sin``, ``vk.where``, ... generated from the op table), creation
functions (``vk.asarray``, ``vk.zeros``, ``vk.arange``, ...), ``vk.eval`` and
``vk.kernel_count``. Expressions run on the device, fused into as few kernels as possible,
when a value is needed. The seed Buffer API stays: ``vk.Buffer``, ``vk.asbuffer``,
``buf.write(data, index=None)``, ``buf.read(index=None)``, and the context functions. dtypes
are numpy's own objects (``vk.float32 is numpy.float32``).
"""

import numpy as _np

from . import _vkarray
from ._vkarray import (
    Buffer,
    Context,
    Replica,
    asbuffer,
    context,
    list_devices,
    set_context,
    synchronize,
    ndarray,
    asarray,
    array,
    empty,
    zeros,
    ones,
    full,
    empty_like,
    zeros_like,
    ones_like,
    full_like,
    arange,
    linspace,
    eye,
    identity,
    astype,
    clip,
    round,
    around,
    result_type,
    can_cast,
    eval,
    kernel_count,
    # views and indexing
    reshape,
    ravel,
    transpose,
    permute_dims,
    matrix_transpose,
    swapaxes,
    moveaxis,
    broadcast_to,
    broadcast_arrays,
    expand_dims,
    squeeze,
    flip,
    fliplr,
    flipud,
    diagonal,
    ascontiguousarray,
    copy,
    take,
    take_along_axis,
    nonzero,
    flatnonzero,
    compress,
    extract,
    put,
    searchsorted,
    # reductions
    sum,
    prod,
    nansum,
    nanprod,
    max,
    amax,
    min,
    amin,
    nanmax,
    nanmin,
    ptp,
    any,
    all,
    mean,
    nanmean,
    var,
    std,
    nanvar,
    nanstd,
    argmax,
    argmin,
    nanargmax,
    nanargmin,
    vdot,
    vecdot,
    inner,
    # sorting, searching and counting
    sort,
    argsort,
    partition,
    argpartition,
    bincount,
    histogram,
    isin,
    in1d,
)

from ._products import matmul, dot, outer, tensordot
from ._einsum import einsum
from ._vkarray import gemm_config, set_gemm_config, kron

# The dtypes vkarray holds, as numpy's own scalar types, so that they compare and hash
# exactly like numpy's and any numpy dtype-like is accepted wherever a dtype is.
bool_ = _np.bool_
bool = _np.bool_  # numpy 2 and the array API name it `bool`
int8 = _np.int8
uint8 = _np.uint8
int16 = _np.int16
uint16 = _np.uint16
int32 = _np.int32
uint32 = _np.uint32
int64 = _np.int64
uint64 = _np.uint64
float16 = _np.float16
float32 = _np.float32
float64 = _np.float64
complex64 = _np.complex64
complex128 = _np.complex128
dtype = _np.dtype

__version__ = "0.1.0"

pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan

# The elementwise functions of the op table, under vkarray's and numpy's names (abs and
# absolute, bitwise_not and invert, conj and conjugate, ...).
_UFUNCS = dict(_vkarray._ufuncs)
globals().update(_UFUNCS)
_UFUNCS["matmul"] = matmul  # np.matmul(x, y) and numpy_array @ x stay on the device

_where3 = where


def where(condition, x=None, y=None, /):
    """numpy.where: elements of x where condition is true, else of y (one fused kernel); with
    the condition alone, nonzero(condition)."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("[where] either both or neither of x and y should be given")
    return _where3(condition, x, y)


def argwhere(a):
    """numpy.argwhere: the indices of the nonzero elements, shape (count, a.ndim)."""
    a = asarray(a)
    if a.ndim == 0:
        a = a.reshape(1)
        return stack(nonzero(a), axis=1)[:, :0]
    return stack(nonzero(a), axis=1)


def count_nonzero(a, axis=None, *, keepdims=False):
    """numpy.count_nonzero: a Python int over the whole array, else int64 counts per result."""
    r = _vkarray.count_nonzero(a, axis, keepdims=keepdims)
    return int(r) if axis is None and not keepdims else r


# numpy's other spellings and the array API standard's names for the same functions.
_ALIASES = {
    "true_divide": "divide", "mod": "remainder", "pow": "power", "acos": "arccos",
    "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan",
    "atan2": "arctan2", "atanh": "arctanh", "bitwise_invert": "bitwise_not",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
}
for _alias, _target in _ALIASES.items():
    globals()[_alias] = _UFUNCS[_alias] = _UFUNCS[_target]
del _alias, _target


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """numpy ufunc calls on vkarray arrays stay on the device: ``np.sin(x)``, and the numpy
    side of mixed operators (``numpy_array + x``), run vkarray's function of the same name.
    Anything vkarray does not implement (ufunc methods such as reduce, where=, casting=,
    several outputs) returns NotImplemented, so numpy raises its usual TypeError."""
    fn = _UFUNCS.get(ufunc.__name__)
    if method != "__call__" or fn is None:
        return NotImplemented
    out = kwargs.pop("out", None)
    if isinstance(out, tuple):
        if len(out) != 1:
            return NotImplemented
        out = out[0]
    dtype = kwargs.pop("dtype", None)
    if kwargs or not (out is None or isinstance(out, ndarray)):
        return NotImplemented
    return fn(*inputs, out=out, dtype=dtype)


def _array_namespace(self, api_version=None):
    """The array API namespace of vkarray arrays: the vkarray module."""
    import vkarray
    return vkarray


ndarray.__module__ = "vkarray"  # the public home of the class, as numpy.ndarray's is numpy
ndarray.__array_ufunc__ = _array_ufunc
ndarray.__array_namespace__ = _array_namespace


def make_context(devices=None, queues_per_device=1, validate=None, host_access="auto"):
    """Create a Context with these options, make it the process default, and return it.

    Buffers created afterwards without an explicit ``context`` use it; existing buffers keep
    the context they were created on.
    """
    ctx = Context(devices=devices, queues_per_device=queues_per_device, validate=validate,
                  host_access=host_access)
    set_context(ctx)
    return ctx


from . import _cumulative, _grids, _joining, _reorder, _sorting, _statistics  # noqa: E402
from ._cumulative import *  # noqa: E402,F401,F403  cumsum, cumprod, cummax, diff, ...
from ._statistics import *  # noqa: E402,F401,F403  median, quantile, percentile, average
from ._joining import *  # noqa: E402,F401,F403  concatenate, stack, split, ...
from ._reorder import *  # noqa: E402,F401,F403  roll, tile, repeat, pad
from ._grids import *  # noqa: E402,F401,F403  tril, triu, diag, trace, rot90, meshgrid, ...
from ._sorting import *  # noqa: E402,F401,F403  unique, unique_values, unique_all, ...
from . import random  # noqa: E402  vkarray.random: Philox Generator, default_rng, legacy API
from . import linalg  # noqa: E402  vkarray.linalg (a submodule, as numpy.linalg)
from . import fft  # noqa: E402,F401  vkarray.fft: numpy.fft on VkFFT
from . import _attributes  # noqa: E402,F401  ndarray.real, ndarray.imag
__all__ = [
    "Buffer", "Context", "Replica", "asbuffer", "context", "list_devices", "make_context",
    "set_context", "synchronize", "dtype", "bool_", "bool", "int8", "uint8", "int16", "uint16",
    "int32", "uint32", "int64", "uint64", "float16", "float32", "float64", "complex64",
    "complex128", "ndarray", "asarray", "array", "empty", "zeros", "ones", "full",
    "empty_like", "zeros_like", "ones_like", "full_like", "arange", "linspace", "eye", "identity",
    "astype", "clip", "round", "around", "result_type", "can_cast", "eval", "kernel_count",
    "pi", "e", "inf", "nan", "reshape", "ravel", "transpose", "permute_dims",
    "matrix_transpose", "swapaxes", "moveaxis", "broadcast_to", "broadcast_arrays",
    "expand_dims", "squeeze", "flip", "fliplr", "flipud", "diagonal", "ascontiguousarray",
    "copy", "take", "take_along_axis", "nonzero", "flatnonzero", "compress", "extract", "put", "searchsorted",
    "argwhere", "count_nonzero", "sum", "prod", "nansum", "nanprod", "max", "amax", "min",
    "amin", "nanmax", "nanmin", "ptp", "any", "all", "mean", "nanmean", "var", "std", "nanvar",
    "nanstd", "argmax", "argmin", "nanargmax", "nanargmin", "vdot", "vecdot", "inner", "sort",
    "argsort", "partition", "argpartition", "bincount", "histogram", "isin", "in1d",
    "dot", "outer", "tensordot", "kron", "einsum", "gemm_config", "set_gemm_config",
] + (sorted(_UFUNCS) + _joining.__all__ + _reorder.__all__ + _grids.__all__ + _sorting.__all__
     + _cumulative.__all__ + _statistics.__all__)


def _finish_at_exit():
    """Waits for the device before the interpreter shuts down, while the driver is whole:
    work still queued at C-level exit would run after the driver's own exit handlers."""
    try:
        _vkarray._finish_default()
    except Exception:  # noqa: BLE001 — nothing useful can be raised at exit
        pass


import atexit as _atexit  # noqa: E402

_atexit.register(_finish_at_exit)
