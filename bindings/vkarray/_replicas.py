"""Replicas: ``vkarray.replica(i)`` scopes and the ``vkarray.replicas`` operations.

Every array has one value per replica of its context (SPMD, as vkdispatch's buffers): a lazy
expression runs on every replica, each on its own data; ``x.write(data, i)`` changes replica
i's value only. A value made on some replicas only (``x.eval(index=i)``, ``with
vkarray.replica(i)``, the operations below) is computed or copied onto another replica the
first time something needs it there, never before and never twice.
"""

from . import _vkarray

__all__ = ["replica", "broadcast", "gather", "all_reduce", "copy_stats", "stream_stats"]


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
    time it is needed (a device copy between queues of one device, or through the host
    between devices; ``VKA_DEBUG=1`` prints the path). ``x`` is unchanged.
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
    """Counts of copies between replicas so far, by path: same_queue, queue_to_queue, host."""
    return _vkarray._replica_copy_stats()


def stream_stats(context=None):
    """Per replica of ``context`` (default: the default context), the counters of its queue's
    command stream: dispatches, copies, barriers, submits, queue_waits, and its timeline's
    completed_value and pending_value."""
    return _vkarray._stream_stats(context if context is not None else _vkarray.context())
