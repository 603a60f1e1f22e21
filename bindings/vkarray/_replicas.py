"""Replicas: ``vkarray.replica(i)`` scopes and the ``vkarray.replicas`` operations.

Every array has one value per replica of its context (SPMD, as vkdispatch's buffers): a lazy
expression runs on every replica, each on its own data; ``x.write(data, i)`` changes replica
i's value only. A value made on some replicas only (``x.eval(index=i)``, ``with
vkarray.replica(i)``, the operations below) is computed or copied onto another replica the
first time something needs it there, never before and never twice.
"""

from . import _vkarray

__all__ = ["replica", "broadcast", "gather", "all_reduce", "copy_stats", "stream_stats", "paths",
           "copy_options"]


def replica(index):
    """``with vkarray.replica(i): ...``: evaluation inside runs on replica ``i`` only.

    ``x.eval()``, ``vkarray.eval(...)`` and the host conversions (``numpy.asarray(x)``,
    ``x.get()``, ``float(x)``, printing) use replica ``i``; ``x.read()`` still returns every
    replica stacked, computing the others' values where they are missing. Library operations
    that run eagerly (sort, nonzero, fft, linalg, ...) still run on every replica. Scopes nest
    and belong to the thread that enters them.
    """
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"[replica] index must be an int, got {type(index).__name__}")
    return _vkarray._ReplicaScope(index)


def current():
    """The replica of the innermost ``with vkarray.replica(i)`` on this thread, or None."""
    return _vkarray._current_replica()


def broadcast(x, src=0):
    """A new array whose value on every replica is ``x``'s value on replica ``src``.

    It is made on replica ``src`` at once; another replica copies it from there the first
    time it is needed (a device copy between queues of one device, or through pinned host
    memory between devices: see ``paths()``; ``VKA_DEBUG=1`` prints the path). ``x`` is
    unchanged.
    """
    return _vkarray._replicas_broadcast(x, src)


def gather(x):
    """The replicas' values of ``x`` stacked: shape ``(num_replicas, *x.shape)``.

    Assembled on replica 0 (``x`` is computed on every replica); another replica copies the
    stack from replica 0 when it is first needed there, so every replica holds the same
    stacked value (``vkarray.replicas.gather(x).read(0)`` equals ``x.read()``).
    """
    return _vkarray._replicas_gather(x)


def all_reduce(x, op="sum"):
    """A new array whose value on every replica is ``op`` over the replicas' values of ``x``.

    ``op`` is "sum", "prod", "max" or "min"; elementwise, in ``x``'s dtype (integers wrap
    around), in replica order: ``functools.reduce(numpy.add, x.read())`` for "sum", numpy's
    ``maximum``/``minimum`` for "max"/"min" (NaN propagates). Computed on replica 0 from the
    gathered values and copied to the other replicas when first needed.
    """
    if not isinstance(op, str):
        raise TypeError(f"[replicas.all_reduce] op must be a str, got {type(op).__name__}")
    return _vkarray._replicas_all_reduce(x, op)


def copy_stats():
    """Counts of copies between replicas so far, by path: same_queue, queue_to_queue, and
    between devices host (= shared_host + staged_host: through one host allocation imported
    into both devices, or through pinned memory of each and a host copy), with host_chunks,
    the chunks those were made of."""
    return _vkarray._replica_copy_stats()


def paths(context=None):
    """For each ordered pair of devices (i, j) of ``context`` (default: the default context),
    how copies from device i to device j go: ``path`` (its name, as ``VKA_DEBUG=1`` prints
    it), ``external_memory_host`` (both import host memory: VK_EXT_external_memory_host),
    ``device_group`` (both are in one Vulkan device group of several devices) and ``same_uuid``
    (same deviceUUID: opaque-fd external memory could be shared). vkarray copies through
    pinned host memory; the last two are reported, not used (docs/user_guide.md, Replicas)."""
    return _vkarray._replica_paths(context if context is not None else _vkarray.context())


def copy_options(chunk_bytes=None, slots=None, shared_host=None):
    """Sets how copies between devices are chunked (process-wide): ``chunk_bytes`` per chunk
    (default 32 MiB), ``slots`` chunks in flight per device pair (2 to 16, default 3), and
    ``shared_host=False`` to use pinned memory of each device and a host copy even where one
    shared host allocation is possible. Arguments left None keep their value. Returns the
    previous options as a dict (pass it back as keywords to restore them)."""
    old = _vkarray._cross_device_options()
    new = dict(old)
    for key, value in (("chunk_bytes", chunk_bytes), ("slots", slots),
                       ("shared_host", shared_host)):
        if value is None:
            continue
        if key == "shared_host":
            if not isinstance(value, bool):
                raise TypeError(f"[replicas.copy_options] shared_host must be a bool, got "
                                f"{type(value).__name__}")
        elif not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"[replicas.copy_options] {key} must be an int, got "
                            f"{type(value).__name__}")
        elif value <= 0:
            raise ValueError(f"[replicas.copy_options] {key} must be positive, got {value}")
        new[key] = value
    _vkarray._set_cross_device_options(new["chunk_bytes"], new["slots"], new["shared_host"])
    return old


def stream_stats(context=None):
    """Per replica of ``context`` (default: the default context), the counters of its queue's
    command stream: dispatches, copies, barriers, submits, queue_waits, and its timeline's
    completed_value and pending_value."""
    return _vkarray._stream_stats(context if context is not None else _vkarray.context())
