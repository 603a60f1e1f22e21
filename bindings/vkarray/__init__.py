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
from ._vkarray import set_gemm_split

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


def _array_namespace(self, api_version=None):
    """The array API namespace of vkarray arrays: the vkarray module."""
    import vkarray
    return vkarray


ndarray.__module__ = "vkarray"  # the public home of the class, as numpy.ndarray's is numpy
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
from . import _protocols  # noqa: E402,F401  numpy's __array_function__ (NEP 18)
from . import _ufunc_protocol  # noqa: E402,F401  __array_ufunc__ and ufunc methods (NEP 13)
from ._conversions import from_dlpack  # noqa: E402  pickling, repr, DLPack (host copies)
from ._devices import Device, devices  # noqa: E402  x.device, x.to_device, vk.devices()
from . import _numpy_names  # noqa: E402  numpy's names composed from vkarray operations
from ._numpy_names import *  # noqa: E402,F401,F403  isclose, interp, convolve, cov, ...
_UFUNCS.update(_numpy_names.UFUNCS)  # np.fmod(x, y), np.divmod(x, y), ... on the device
from . import _host  # noqa: E402  x.set/get(_async), regions, zero; HostArray, mapped memory
from ._host import *  # noqa: E402,F401,F403  HostArray, DeviceArray, Event, mapped_empty, ...
from ._kernels import Kernel, Sequence, profile, Profile  # noqa: E402  user kernels, profiler
from . import _replicas as replicas  # noqa: E402  vkarray.replicas: broadcast, all_reduce, ...
from ._replicas import replica  # noqa: E402  with vkarray.replica(i): ...
# The array API standard's keywords (device=, copy=, descending=, correction=, min=/max=) on
# the creation and numpy functions above, its data-type functions and inspection namespace.
from . import _array_api, _info  # noqa: E402
from ._creation import *  # noqa: E402,F401,F403  asarray, zeros, ... with device= and copy=
from ._keywords import *  # noqa: E402,F401,F403  sort, argsort, std, var, clip, astype
from ._array_api import *  # noqa: E402,F401,F403  finfo, iinfo, isdtype, logaddexp, unstack
from ._info import __array_namespace_info__  # noqa: E402
_UFUNCS["logaddexp"] = logaddexp  # noqa: F405  np.logaddexp(x, y) stays on the device
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
    "set_gemm_split",
    "replica",
] + (sorted(_UFUNCS) + _joining.__all__ + _reorder.__all__ + _grids.__all__ + _sorting.__all__
     + _cumulative.__all__ + _statistics.__all__ + _host.__all__
     + ["Kernel", "Sequence", "profile", "Profile"] + _array_api.__all__ + _info.__all__)
__all__ += [n for n in ["Device", "devices", "from_dlpack"] + _numpy_names.__all__
            if n not in __all__]
__all__ = [n for n in dict.fromkeys(__all__) if not n.startswith("__")]  # each name once


def _finish_at_exit():
    """Waits for the device before the interpreter shuts down, while the driver is whole:
    work still queued at C-level exit would run after the driver's own exit handlers."""
    try:
        _vkarray._finish_default()
    except Exception:  # noqa: BLE001 — nothing useful can be raised at exit
        pass


import atexit as _atexit  # noqa: E402

_atexit.register(_finish_at_exit)

# With dask already imported (a dask.distributed worker unpickling a vkarray chunk, say),
# vkarray.dask registers vkarray with dask's dispatch tables and distributed's serialization.
# `import vkarray` alone never imports dask; otherwise `import vkarray.dask` does this.
import sys as _sys  # noqa: E402

if "dask.array" in _sys.modules or "distributed" in _sys.modules:
    from . import dask as _dask_support  # noqa: E402,F401
del _sys
