"""vkarray.dask: vkarray arrays as the chunks of dask.array, on one machine's devices and on a
dask.distributed cluster.

``import vkarray.dask`` (``import vkarray`` alone never imports dask) registers vkarray with
dask.array's dispatch tables (concatenate, tensordot, einsum, take, empty, divide, the element
counts of mean/var/std, percentile, to_numpy) and, when dask.distributed is installed, with its
serialization. The helpers:

- ``from_numpy(a, chunks="auto", devices=None)``: a dask array of vkarray chunks, uploaded by
  the tasks that need them.
- ``from_vkarray(x, chunks="auto", devices=None)``: the chunks are views of x (moved to their
  devices when ``devices`` names them).
- ``to_numpy(x)``: the same dask array with numpy chunks (each downloaded by its task).
- ``compute(*args, as_numpy=False, **kwargs)``: dask.compute, giving vkarray or numpy results.
- ``DevicePlugin``: a distributed WorkerPlugin binding each worker to its own device.

Placement policy. ``devices=None`` puts every chunk on the process default context
(``vk.context()``); on a distributed worker that is the device the worker is bound to, so
chunks follow the workers dask schedules them on. ``devices=[i, j, ...]`` (or ``"all"``, every
device of ``vk.list_devices()``) puts the chunk of flat (C-order) block index k on device
``devices[k % len(devices)]``, each through one context per device and process
(``device_context``); entries may also be vkarray.Device or vkarray.Context objects (local
schedulers only: a context cannot travel to another process). Operations
that combine chunks through dask's dispatch (the concatenations of reductions, rechunk and
compute; tensordot; einsum) move every chunk to the context of the first one (a host round
trip); blockwise operations between chunks on different devices (elementwise operations,
matmul's block products) raise, as vkarray's do: give arrays that meet blockwise the same
chunks and devices, or use one distributed worker per device.
"""

import threading
import uuid

import numpy as np
import dask
import dask.array as da
from dask.array import dispatch as _dispatch

import vkarray as vk

__all__ = ["from_numpy", "from_vkarray", "to_numpy", "compute", "device_context",
           "DevicePlugin", "bind_worker", "DEVICE_ENV"]

_contexts = {}
_contexts_lock = threading.Lock()


def device_context(device):
    """The context of this process for chunks placed on device index `device` (one per device
    and process, made on first use; the default context when it is on that device alone)."""
    device = int(device)
    with _contexts_lock:
        ctx = _contexts.get(device)
        if ctx is None:
            default = vk.context()
            if [r.physical_device for r in default.replicas] == [device]:
                ctx = default
            else:
                ctx = vk.Context(devices=[device])
            _contexts[device] = ctx
        return ctx


def _devices_list(devices, op):
    if devices is None:
        return None
    if isinstance(devices, str):
        if devices != "all":
            raise ValueError(f"[{op}] devices must be None, 'all' or a list of device indices "
                             f"or contexts, got {devices!r}")
        return list(range(len(vk.list_devices())))
    devices = list(devices)
    if not devices:
        raise ValueError(f"[{op}] devices is an empty list")
    count = len(vk.list_devices())
    out = []
    for d in devices:
        if isinstance(d, vk.Device):
            d = d.context
        if isinstance(d, vk.Context):
            out.append(d)
            continue
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"[{op}] devices holds {d!r}: expected device indices, "
                            f"vkarray.Device or vkarray.Context objects")
        if not 0 <= d < count:
            raise IndexError(f"[{op}] device {d} is out of range: this machine has {count} "
                             f"device(s)")
        out.append(int(d))
    return out


def _context_of_entry(entry):
    return entry if isinstance(entry, vk.Context) else device_context(entry)


def _flat_index(block_id, numblocks):
    k = 0
    for i, n in zip(block_id, numblocks):
        k = k * n + i
    return k


def _place(block, devices=None, block_info=None):
    """One chunk on its device: uploaded when it is a host block, moved when it lives on
    another context (the placement policy in the module docstring)."""
    if devices is None:
        return vk.asarray(block)
    info = block_info[None] if block_info else None
    k = _flat_index(info["chunk-location"], info["num-chunks"]) if info else 0
    return vk.asarray(block, context=_context_of_entry(devices[k % len(devices)]))


def _meta(ndim, dtype):
    return vk.empty((0,) * ndim, dtype=dtype)


def from_numpy(a, chunks="auto", devices=None, name=None):
    """A dask array of vkarray chunks holding numpy array `a` (any array-like): each chunk is
    uploaded by its own task, to its device (see the placement policy)."""
    a = np.asarray(a)
    devs = _devices_list(devices, "from_numpy")
    host = da.from_array(a, chunks=chunks, name=name, asarray=True)
    return host.map_blocks(_place, devices=devs, dtype=a.dtype, meta=_meta(a.ndim, a.dtype))


def from_vkarray(x, chunks="auto", devices=None, name=None):
    """A dask array whose chunks are views of vkarray array `x` (no copy while they stay on
    x's context; moved to their devices when `devices` names them)."""
    if not isinstance(x, vk.ndarray):
        raise TypeError(f"[from_vkarray] expected a vkarray.ndarray, got {type(x).__name__}")
    devs = _devices_list(devices, "from_vkarray")
    name = name or "from-vkarray-" + uuid.uuid4().hex
    out = da.from_array(x, chunks=chunks, name=name, asarray=False,
                        meta=_meta(x.ndim, x.dtype))
    if devs is None:
        return out
    return out.map_blocks(_place, devices=devs, dtype=x.dtype, meta=_meta(x.ndim, x.dtype))


def _download(block):
    return block.get() if isinstance(block, vk.ndarray) else np.asarray(block)


def to_numpy(x):
    """The dask array `x` with numpy chunks: each vkarray chunk downloaded by its own task."""
    if not isinstance(x, da.Array):
        raise TypeError(f"[to_numpy] expected a dask.array.Array, got {type(x).__name__}")
    return x.map_blocks(_download, dtype=x.dtype, meta=np.empty((0,) * x.ndim, dtype=x.dtype))


def compute(*args, as_numpy=False, **kwargs):
    """dask.compute(*args, **kwargs); with as_numpy=True dask arrays are downloaded chunk by
    chunk in their tasks (to_numpy) and any other vkarray result is downloaded at the end, so
    that every array in the results is a numpy array."""
    if not as_numpy:
        return dask.compute(*args, **kwargs)
    args = [to_numpy(a) if isinstance(a, da.Array) else a for a in args]
    results = dask.compute(*args, **kwargs)
    return tuple(r.get() if isinstance(r, vk.ndarray) else r for r in results)


# ---- dask.array's dispatch tables -------------------------------------------------------

def _unify(arrays):
    """The arrays on one context: numpy arrays uploaded and vkarray arrays moved to the
    context of the first vkarray array among them."""
    ctx = next((a.context for a in arrays if isinstance(a, vk.ndarray)), None)
    return [vk.asarray(a, context=ctx) for a in arrays]


def _concatenate(arrays, axis=0):
    return vk.concatenate(_unify(list(arrays)), axis=axis)


def _tensordot(a, b, axes=2):
    a, b = _unify([a, b])
    return vk.tensordot(a, b, axes=axes)


def _einsum(subscripts, *operands, **kwargs):
    return vk.einsum(subscripts, *_unify(list(operands)), **kwargs)


def _take(a, indices, axis=None):
    if isinstance(indices, vk.ndarray):
        a, indices = _unify([a, indices])
    return vk.take(a, indices, axis=axis)


def _empty(shape, dtype=float, **kwargs):
    kwargs.pop("order", None)
    return vk.empty(shape, dtype=dtype, **kwargs)


def _divide(x, y, out=None, dtype=None):
    # dask's np_divide: a true division, then the requested dtype.
    z = vk.divide(x, y)
    return z if dtype is None else z.astype(dtype, copy=False)


def _numel(x, **kwargs):
    """dask's element count for mean/var/std (dask.array.backends._numel), as a vkarray array
    on x's context: numpy's version makes host arrays that every combine step would upload."""
    shape = x.shape
    keepdims = kwargs.get("keepdims", False)
    axis = kwargs.get("axis", None)
    dtype = kwargs.get("dtype", np.float64)
    if axis is None:
        count = np.prod(shape, dtype=dtype)
        if keepdims is False:
            return count
        return vk.full((1,) * len(shape), count, dtype=dtype, context=x.context)
    if not isinstance(axis, (tuple, list)):
        axis = [axis]
    count = 1
    for d in axis:
        count *= shape[d]
    if keepdims is True:
        new_shape = tuple(shape[d] if d not in axis else 1 for d in range(len(shape)))
    else:
        new_shape = tuple(shape[d] for d in range(len(shape)) if d not in axis)
    return vk.full(new_shape, count, dtype=dtype, context=x.context)


def _nannumel(x, **kwargs):
    return vk.sum(~vk.isnan(x), **kwargs)


def _percentile(a, q, method="linear"):
    # dask's chunk step, (percentiles, count); numpy.percentile reaches vkarray's, and dask's
    # merge of the chunks' results (numpy.interp, ...) runs on the device too.
    from dask.array.percentile import _percentile as dask_percentile
    return dask_percentile(a, q, method)


def _register_dask_array():
    # A chunk type dask handles: dask_array + vkarray_array (and numpy ufuncs on both) is a
    # dask array, not a vkarray conversion of the dask array.
    from dask.array.chunk_types import register_chunk_type
    register_chunk_type(vk.ndarray)
    _dispatch.concatenate_lookup.register(vk.ndarray, _concatenate)
    _dispatch.tensordot_lookup.register(vk.ndarray, _tensordot)
    _dispatch.einsum_lookup.register(vk.ndarray, _einsum)
    _dispatch.empty_lookup.register(vk.ndarray, _empty)
    _dispatch.divide_lookup.register(vk.ndarray, _divide)
    _dispatch.numel_lookup.register(vk.ndarray, _numel)
    _dispatch.nannumel_lookup.register(vk.ndarray, _nannumel)
    _dispatch.percentile_lookup.register(vk.ndarray, _percentile)
    # Newer dask only.
    if hasattr(_dispatch, "take_lookup"):
        _dispatch.take_lookup.register(vk.ndarray, _take)
    if hasattr(_dispatch, "to_numpy_dispatch"):
        _dispatch.to_numpy_dispatch.register(vk.ndarray, _download)
    # vkarray arrays are mutable handles (a += 1 updates them): no content-based token, which
    # would also download the whole array to hash it.
    from dask.base import normalize_token
    normalize_token.register(vk.ndarray)(lambda x: ("vkarray.ndarray", uuid.uuid4().hex))
    # The bytes a chunk holds (and sends), for the scheduler's transfer and memory accounting
    # (dask counts CuPy's device arrays the same way).
    from dask.sizeof import sizeof
    sizeof.register(vk.ndarray)(lambda x: int(x.nbytes))


_register_dask_array()

from ._dask_distributed import DEVICE_ENV, DevicePlugin, bind_worker  # noqa: E402,F401
