"""Host arrays and explicit transfers: ``vk.HostArray`` (pinned host memory), ``vk.Event``,
``x.set``/``x.get`` and their ``_async`` forms, region copies (``get_region``, ``set_region``,
``copy_region``), ``x.zero()``, padded device arrays (``vk.DeviceArray``), and device memory
mapped into the host (``vk.mapped_empty``). See docs/user_guide.md, "Host arrays and
transfers"."""

import os as _os

import numpy as _np

from . import _vkarray
from ._vkarray import Event, ndarray as _ndarray, record_event

__all__ = ["HostArray", "MappedArray", "DeviceArray", "Event", "record_event", "mapped_empty"]


def _shape_tuple(shape):
    if isinstance(shape, (int, _np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    return tuple(shape)


class HostArray(_np.ndarray):
    """A numpy array whose memory is pinned, host-visible Vulkan memory of one device of a
    context (HOST_CACHED where the device offers it): the device copies straight from and
    into it, with no staging copy. ``HostArray(shape, dtype, padded_shape=None)``: the usable
    ``shape`` is the corner of a C-order allocation of ``padded_shape``; transfers between a
    HostArray and a device array of the same shape, dtype and padding (``x.empty_like_host()``)
    are one copy command over the whole allocation. Views of a HostArray (``h[2:]``) stay on
    the fast path where the copy can address them; results of arithmetic are ordinary
    memory. The memory lives until the array and every asynchronous transfer that uses it
    are gone."""

    def __new__(cls, shape, dtype=_np.float64, padded_shape=None, *, context=None, device=0):
        shape = _shape_tuple(shape)
        if padded_shape is not None:
            padded_shape = _shape_tuple(padded_shape)
        dtype = _np.dtype(dtype)
        mem = _vkarray._HostMemory(shape, dtype, padded_shape, context, device)
        obj = _np.ndarray.__new__(cls, mem.shape, dtype=dtype, buffer=mem, strides=mem.strides)
        obj.padded_shape = mem.padded_shape
        return obj

    def __array_finalize__(self, obj):
        # Views and results: transfers find pinned memory through the chain of bases, so only
        # the array the constructor made vouches for its padding.
        self.padded_shape = None


class MappedArray(_np.ndarray):
    """A numpy view of device-local memory mapped into the host (``vk.mapped_empty``).

    ``m.device_array`` (or ``vk.asarray(m)``) is the same memory as a vkarray array: kernels
    read and write it in place, with no transfer. The host and the device see each other's
    writes only under the rules of the memory: when ``m.is_coherent`` is False, host writes
    reach the device after ``m.flush(offset, size)`` and device writes reach the host after
    ``m.invalidate(offset, size)``; offsets and sizes are bytes of the whole mapping and must
    be multiples of ``m.non_coherent_atom_size``, except a range that ends at the end.
    Whatever the coherence: call ``m.invalidate()`` before the host reads or writes memory
    that device work uses (it waits for that work), and ``m.flush()`` after host writes
    (expressions made afterwards then never reuse values computed before)."""

    def __array_finalize__(self, obj):
        self._device = None
        mem = getattr(obj, "_memory", None)
        # A view of the mapping keeps it (flush and invalidate then work); a new array does not.
        self._memory = mem if mem is not None and _np.may_share_memory(self, obj) else None

    def _mapping(self, op):
        if self._memory is None:
            raise ValueError(f"[{op}] this array does not view mapped memory (it is a copy, or "
                             "a result of arithmetic on a mapped array)")
        return self._memory

    @property
    def is_coherent(self):
        return self._mapping("is_coherent").is_coherent

    @property
    def non_coherent_atom_size(self):
        return self._mapping("non_coherent_atom_size").non_coherent_atom_size

    @property
    def replica(self):
        """The replica whose memory this host view maps."""
        return self._mapping("replica").replica

    def flush(self, offset=0, size=None):
        """Make host writes to bytes [offset, offset + size) of the mapping (size None: to the
        end) visible to device work submitted afterwards."""
        self._mapping("flush").flush(offset, size)

    def invalidate(self, offset=0, size=None):
        """Wait for the device work that uses the memory, then make its writes to bytes
        [offset, offset + size) visible to the host."""
        self._mapping("invalidate").invalidate(offset, size)

    @property
    def device_array(self):
        """The mapping as a vkarray array (the same memory; no copy)."""
        if self._device is None:
            raise ValueError("[device_array] only the array mapped_empty returned has one; "
                             "index its device_array instead")
        return self._device

    def __vkarray_device_array__(self):
        return self._device


def mapped_empty(shape, dtype=_np.float64, require_coherent=False, *, force_non_coherent=None,
                 index=0, context=None):
    """A MappedArray of ``shape`` and ``dtype``: DEVICE_LOCAL|HOST_VISIBLE memory on every
    replica of the context, with the host view mapping replica ``index``'s. Contents start
    undefined. RuntimeError when the device has no such memory, or no coherent such memory
    while ``require_coherent``. ``force_non_coherent`` (default: the environment variable
    VKA_FORCE_NON_COHERENT=1) treats coherent memory as non-coherent, for testing code that
    flushes and invalidates: the host then sees its own copy of the memory, which only
    ``flush`` and ``invalidate`` move to and from the device."""
    if force_non_coherent is None:
        force_non_coherent = _os.environ.get("VKA_FORCE_NON_COHERENT", "0") not in ("", "0")
    if require_coherent and force_non_coherent:
        raise ValueError("[mapped_empty] require_coherent and force_non_coherent exclude each "
                         "other")
    shape = _shape_tuple(shape)
    dtype = _np.dtype(dtype)
    if any(not isinstance(d, (int, _np.integer)) or d < 0 for d in shape):
        raise ValueError(f"[mapped_empty] invalid shape {shape}")
    nbytes = int(_np.prod(shape, dtype=_np.int64)) * dtype.itemsize
    mem = _vkarray._MappedMemory(nbytes, require_coherent, bool(force_non_coherent), context)
    device = mem.device_array(shape, dtype)
    host = mem.for_replica(index) if index else mem
    obj = _np.ndarray.__new__(MappedArray, shape, dtype=dtype, buffer=host)
    obj._memory = host
    obj._device = device
    return obj


def DeviceArray(shape, dtype=_np.float64, padded_shape=None, *, context=None):  # noqa: N802
    """An uninitialized device array (vkarray.ndarray) of ``shape`` whose allocation is
    ``padded_shape`` (C order, at least ``shape`` on every axis): the usable part is the
    corner, a strided view. Padding elements hold undefined values; transfers with a HostArray
    of the same shape and padding (``x.empty_like_host()``) copy the whole allocation at once
    and may overwrite them."""
    shape = _shape_tuple(shape)
    padded = shape if padded_shape is None else _shape_tuple(padded_shape)
    return _vkarray._empty_padded(shape, padded, _np.dtype(dtype), context)


def _host_operand(x, host, op):
    if isinstance(host, _np.ndarray):
        return host
    return _np.asarray(host, dtype=x.dtype)


def _canonical_region(region, shape, op, what):
    """katsdpsigproc's region syntax (np.s_[...]): ints, slices with positive steps and
    np.newaxis, one per axis from the first; missing axes are whole. Returns an index that
    selects a view (never a copy) in numpy and vkarray."""
    items = region if isinstance(region, tuple) else (region,)
    out = []
    axis = 0
    for item in items:
        if item is None:
            out.append(None)
            continue
        if axis >= len(shape):
            raise IndexError(f"[{op}] {what} {region!r} has more axes than shape {tuple(shape)}")
        n = shape[axis]
        if isinstance(item, slice):
            start, stop, step = item.indices(n)
            if step <= 0:
                raise IndexError(f"[{op}] {what} {region!r}: only positive steps are supported "
                                 f"(axis {axis} has step {step})")
            if len(range(start, stop, step)) == 0:
                raise IndexError(f"[{op}] {what} {region!r} selects nothing on axis {axis} of "
                                 f"shape {tuple(shape)}")
            out.append(slice(start, stop, step))
        elif isinstance(item, (int, _np.integer)) and not isinstance(item, (bool, _np.bool_)):
            i = int(item) + (n if item < 0 else 0)
            if not 0 <= i < n:
                raise IndexError(f"[{op}] {what} {region!r}: index {int(item)} is out of bounds "
                                 f"for axis {axis} with size {n}")
            out.append(i)
        else:
            raise TypeError(f"[{op}] {what} {region!r}: unsupported item {item!r} (use ints, "
                            "slices with positive steps and np.newaxis)")
        axis += 1
    return tuple(out) + (Ellipsis,)


# Methods of vkarray.ndarray.

def _set(self, host, index=None):
    """Copy host data (same shape and dtype) into this array, on every replica (index None)
    or replica ``index``; returns once the copy is done. From a HostArray on this context's
    device: one copy command, no staging."""
    _vkarray._upload(self, _host_operand(self, host, "set"), index, True, "set")


def _wait_for(x, wait_for, index):
    if wait_for is None:
        return
    for ev in (wait_for if isinstance(wait_for, (list, tuple)) else (wait_for,)):
        _vkarray._wait_event(x, ev, index)


def _set_async(self, host, index=None, wait_for=None):
    """Like set, but returns a vk.Event at once. From a HostArray the device reads the host
    memory when the copy runs: do not change it before the event completes (the event keeps
    it alive). From other memory the data is staged before this returns. ``wait_for``: an
    Event (or a list of them) the copy waits for on the device (x.wait_event)."""
    host = _host_operand(self, host, "set_async")
    _wait_for(self, wait_for, index)
    return _vkarray._upload(self, host, index, False, "set_async")


def _get(self, host=None, index=None):
    """Copy replica ``index`` (default: the ``with vkarray.replica(i)`` scope's, else 0) into
    ``host`` (a numpy array of this shape and
    dtype; a HostArray takes one copy command) and return it; returns once the copy is done.
    With host None, a new numpy array (allocating a HostArray per call would cost more than
    it saves: keep one from x.empty_like_host() for repeated transfers)."""
    if host is None:
        host = _np.empty(self.shape, self.dtype)
    if index is None:
        index = _vkarray._current_replica()
    _vkarray._download(self, host, index, True, "get")
    return host


def _get_async(self, host, index=None, wait_for=None):
    """Like get into ``host``, but returns a vk.Event at once; ``host`` holds the data once
    the event completes (into a HostArray; into other memory the copy is done on return).
    ``wait_for``: Events the copy waits for on the device, as in set_async."""
    if index is None:
        index = _vkarray._current_replica()
    _wait_for(self, wait_for, 0 if index is None else index)
    return _vkarray._download(self, host, index, False, "get_async")


def _get_region(self, host, device_region, host_region, blocking=True, index=None):
    """Copy ``self[device_region]`` into ``host[host_region]`` (regions as np.s_[...]:
    ints, slices with positive steps, np.newaxis); returns an Event when not blocking."""
    if not isinstance(host, _np.ndarray):
        raise TypeError("[get_region] the host array must be a numpy array")
    d = self[_canonical_region(device_region, self.shape, "get_region", "device_region")]
    h = host[_canonical_region(host_region, host.shape, "get_region", "host_region")]
    return _vkarray._download(d, h, index, blocking, "get_region")


def _set_region(self, host, device_region, host_region, blocking=True, index=None):
    """Copy ``host[host_region]`` into ``self[device_region]`` (see get_region)."""
    host = _host_operand(self, host, "set_region")
    d = self[_canonical_region(device_region, self.shape, "set_region", "device_region")]
    h = host[_canonical_region(host_region, host.shape, "set_region", "host_region")]
    return _vkarray._upload(d, h, index, blocking, "set_region")


def _copy_region(self, dest, src_region, dest_region, blocking=True, index=None):
    """Copy ``self[src_region]`` into ``dest[dest_region]`` on the device (copy commands
    where the layouts allow, else a kernel; overlapping regions of one array give numpy's
    result)."""
    if not isinstance(dest, _ndarray):
        raise TypeError("[copy_region] dest must be a vkarray.ndarray")
    s = self[_canonical_region(src_region, self.shape, "copy_region", "src_region")]
    d = dest[_canonical_region(dest_region, dest.shape, "copy_region", "dest_region")]
    return _vkarray._copy_device(d, s, index, blocking)


def _zero(self):
    """Set every element to zero (a fill command where possible)."""
    _vkarray._zero(self)


def _wait_event(self, event, index=None):
    """Make later device work on this array's replicas (every one, or replica ``index``)
    wait for ``event`` on the device, without blocking the host."""
    _vkarray._wait_event(self, event, index)


def _empty_like_host(self):
    """A HostArray of this array's shape, dtype and padding: transfers with it are one copy."""
    padded = _vkarray._padded_shape(self)
    return HostArray(self.shape, self.dtype, padded, context=self.context)


def _padded_shape(self):
    """The allocation's shape for an array made by vk.DeviceArray(..., padded_shape); else
    the shape."""
    p = _vkarray._padded_shape(self)
    return self.shape if p is None else p
