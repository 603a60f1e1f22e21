"""User kernels, sequences and the profiler: ``vk.Kernel``, ``vk.Sequence``, ``vk.profile``.

A user kernel is a GLSL compute shader (``#version 450``) or SPIR-V that binds storage buffers
at ``set = 0``, bindings ``0..n-1``; argument ``i`` of a call is binding ``i``. Push constants
and specialization constants are given from Python values and packed here.

Push constants (a ``layout(push_constant)`` block) are given as one of:

- a list or tuple of values, packed in order, each at an offset aligned to its size (the
  block's std430 layout for scalars): numpy scalars keep their dtype, Python ``float`` is
  float32, ``int`` is int32 (uint32 from 2**31 up), ``bool`` is a 4-byte bool;
- a numpy array or structured scalar (a structured dtype with explicit ``offsets`` describes
  vectors and padding), packed as its bytes;
- ``bytes``.

The packed size must lie between the block's size (read from the SPIR-V: its last member's
offset plus size) and that size rounded up to 4 bytes; anything else raises ValueError.
"""

import numpy as _np

from . import _vkarray
from ._creation import asarray
from ._vkarray import ndarray

__all__ = ["Kernel", "Sequence", "profile", "Profile"]


def _pack_value(v):
    if isinstance(v, (bool, _np.bool_)):
        return _np.uint32(1 if v else 0)
    if isinstance(v, _np.generic):
        return v
    if isinstance(v, float):
        return _np.float32(v)
    if isinstance(v, int):
        if -(2**31) <= v < 2**31:
            return _np.int32(v)
        if 0 <= v < 2**32:
            return _np.uint32(v)
        raise OverflowError(f"[Kernel] push constant {v} does not fit 32 bits: "
                            "pass a numpy scalar (np.int64, np.uint64)")
    raise TypeError(f"[Kernel] push constant {v!r} of type {type(v).__name__} is not a number")


def _pack_push(values):
    """``values`` as push-constant bytes (None stays None)."""
    if values is None:
        return None
    if isinstance(values, (bytes, bytearray, memoryview)):
        return bytes(values)
    if isinstance(values, (_np.ndarray, _np.void)):
        return _np.ascontiguousarray(values).tobytes()
    if isinstance(values, _np.generic):
        values = [values]
    out = bytearray()
    for v in values:
        s = _pack_value(v)
        size = s.dtype.itemsize
        out += b"\0" * (-len(out) % size)
        out += s.tobytes()
    out += b"\0" * (-len(out) % 4)
    return bytes(out)


def _spec_dict(spec_consts):
    """Specialization constants by constant_id: a list (ids 0, 1, ...) or a dict."""
    if spec_consts is None:
        return {}
    items = spec_consts.items() if isinstance(spec_consts, dict) else enumerate(spec_consts)
    out = {}
    for k, v in items:
        if isinstance(v, (bool, _np.bool_)):
            v = int(bool(v))
        elif isinstance(v, (_np.floating, float)):
            v = float(v)
        elif isinstance(v, (_np.integer, int)):
            v = int(v)
        else:
            raise TypeError(f"[Kernel] specialization constant {k} = {v!r} is not a number")
        out[int(k)] = v
    return out


def _dims(v):
    if v is None:
        return None
    if isinstance(v, int):
        return [v]
    return [int(x) for x in v]


def _arrays(arrays):
    return [a if isinstance(a, ndarray) else asarray(a) for a in arrays]


def _writes(writes, n):
    """``writes=`` as one flag per argument: bools, or the indices written."""
    if writes is None:
        return None
    writes = list(writes)
    if all(isinstance(w, (bool, _np.bool_)) for w in writes) and len(writes) == n:
        return [bool(w) for w in writes]
    flags = [False] * n
    for w in writes:
        if not -n <= int(w) < n:
            raise IndexError(f"[Kernel] writes= index {w} is out of range for {n} arguments")
        flags[int(w)] = True
    return flags


class Kernel:
    """A compute shader applied to vkarray arrays, with Kompute's arguments.

    ``Kernel(source, workgroup=None, spec_consts=None, push_consts=None, name=None, *,
    local_size=None)``: ``source`` is GLSL (``str``, compiled through vkarray's kernel cache;
    compile errors raise RuntimeError with the numbered source) or SPIR-V (``bytes``).
    ``workgroup`` is Kompute's: the dispatch grid, the number of workgroups in (x, y, z), used
    by calls that give no ``groups``; unset (or Kompute's ``[0, 0, 0]``), a call dispatches
    ``(ceil(n / local_size[0]), 1, 1)`` workgroups, n the size of the first written array:
    Kompute's default ``(n, 1, 1)`` for its shaders of local size 1. ``local_size`` is the
    invocations per workgroup, by default the shader's (``layout(local_size_x = 64) in;``);
    dimensions the shader takes from specialization constants (``local_size_x_id = 0``) are
    set from it, or from ``spec_consts`` as in Kompute, and literal ones must match it.
    ``spec_consts`` (a list: constant_id 0, 1, ...; or a dict by constant_id) are converted to
    the types the shader declares. ``push_consts`` are the defaults for calls that give none
    (see the module docstring for packing).

    ``kernel(*arrays, groups=None, push_consts=None, writes=None, index=None)`` forces the
    arrays' values, binds each as a contiguous buffer and dispatches ``groups`` workgroups
    (default: the kernel's ``workgroup``, see above) on every replica, or replica ``index``.
    The written arguments are ``writes`` (indices or one bool per argument) or, by default,
    those whose buffer block is not ``readonly`` in the shader; they must be writeable vkarray
    arrays and are changed in place (strided views through a contiguous copy). Returns the
    written arrays: None, one array, or a tuple.
    """

    def __init__(self, source, workgroup=None, spec_consts=None, push_consts=None, name=None,
                 *, local_size=None):
        if isinstance(source, (bytearray, memoryview)):
            source = bytes(source)
        elif isinstance(source, _np.ndarray):
            source = _np.ascontiguousarray(source, dtype=_np.uint32).tobytes()
        if not isinstance(source, (str, bytes)):
            raise TypeError("[Kernel] source must be GLSL (str) or SPIR-V (bytes), not "
                            f"{type(source).__name__}")
        grid = _dims(workgroup)
        if grid is not None and not any(grid):
            grid = None  # Kompute's default argument [0, 0, 0]: no grid given
        self._k = _vkarray._Kernel(source, _dims(local_size), grid, _spec_dict(spec_consts),
                                   _pack_push(push_consts), name or "user_kernel")

    name = property(lambda self: self._k.name)
    workgroup = property(
        lambda self: None if self._k.groups is None else tuple(self._k.groups),
        doc="The dispatch grid of calls that give no groups (Kompute's workgroup); None: "
            "from the first written array's size.")
    local_size = property(lambda self: tuple(self._k.local_size),
                          doc="The invocations per workgroup (the shader's local size).")
    num_bindings = property(lambda self: self._k.num_bindings)
    readonly = property(lambda self: tuple(self._k.readonly))
    push_constant_bytes = property(lambda self: self._k.push_constant_bytes)
    spirv = property(lambda self: self._k.spirv)

    def __call__(self, *arrays, groups=None, push_consts=None, writes=None, index=None):
        args = _arrays(arrays)
        written = self._k(args, _dims(groups), _pack_push(push_consts),
                          _writes(writes, len(args)), index)
        out = tuple(args[i] for i in written)
        return None if not out else out[0] if len(out) == 1 else out

    def __repr__(self):
        return (f"Kernel(name={self.name!r}, workgroup={self.workgroup}, "
                f"local_size={self.local_size}, bindings={self.num_bindings}, "
                f"push_constant_bytes={self.push_constant_bytes})")


class Sequence:
    """Operations recorded once and run in order on one queue, as Kompute's Sequence.

    ``Sequence(queue=None, context=None)`` runs on replica ``queue`` (default 0) of ``context``
    (default: the default context); its arrays must belong to that context.
    Record with ``record(kernel, *arrays, groups=, push_consts=, writes=)``,
    ``record_write(x, data)`` (host → device, as OpTensorSyncDevice), ``record_read(x)``
    (device → host at that point of the run, as OpTensorSyncLocal) and ``record_eval(expr,
    out=None)`` (a lazy array, or a callable returning one, evaluated at that point on the
    queue; with ``out`` its value is written there). ``record_read`` and ``record_eval`` return
    a slot: ``result(slot)`` is the numpy array read, or the array evaluated, of the last run.

    Recording captures values: push constants and write data are taken when recorded, and
    taken again from the same objects by ``rerecord()`` (so a numpy array changed in place is
    seen after ``rerecord()``, not before). A callable given to ``record_eval`` is called on
    every run; a lazy array is computed on the first run only (arrays are values).

    ``eval()`` runs and waits. ``eval_async()`` submits and returns; ``eval_await(timeout=None)``
    waits up to ``timeout`` seconds and returns True when the run completed, False when the
    time ran out (the run continues; call it again). ``is_running()`` polls the device.
    ``get_timestamps()`` gives the GPU time of each operation in ns (``raw=True``: the
    ``len(seq) + 1`` timestamps in ns from the first, monotonic) of the last completed run.
    """

    def __init__(self, queue=None, context=None):
        self._s = _vkarray._Sequence(0 if queue is None else int(queue), context)
        self._reads = {}

    queue = property(lambda self: self._s.replica)

    def __len__(self):
        return len(self._s)

    def record(self, kernel, *arrays, groups=None, push_consts=None, writes=None):
        if not isinstance(kernel, Kernel):
            raise TypeError(f"[Sequence.record] expects a vk.Kernel, not {type(kernel).__name__}")
        args = _arrays(arrays)
        push = None if push_consts is None else (lambda: _pack_push(push_consts))
        self._s.record_kernel(kernel._k, args, _dims(groups), push, _writes(writes, len(args)))
        return self

    def record_write(self, x, data):
        x, = _arrays([x])

        def source():
            a = _np.asarray(data)
            if a.shape != tuple(x.shape) and a.size != x.size:
                raise ValueError(f"[Sequence.record_write] data of shape {a.shape} does not "
                                 f"match the array's shape {tuple(x.shape)}")
            return _np.ascontiguousarray(a, dtype=_np.dtype(str(x.dtype))).tobytes()
        self._s.record_write(x, source)
        return self

    def record_read(self, x):
        x, = _arrays([x])
        slot = self._s.record_read(x)
        self._reads[slot] = (tuple(x.shape), _np.dtype(str(x.dtype)))
        return slot

    def record_eval(self, expr, out=None):
        if not callable(expr) and not isinstance(expr, ndarray):
            raise TypeError("[Sequence.record_eval] expects a vkarray array or a callable "
                            f"returning one, not {type(expr).__name__}")
        fn = expr if callable(expr) else (lambda: expr)
        return self._s.record_eval(fn, out)

    def eval(self):
        self._s.eval()
        return self

    def eval_async(self):
        self._s.eval_async()
        return self

    def eval_await(self, timeout=None):
        return self._s.eval_await(timeout)

    def is_running(self):
        return self._s.is_running()

    def clear(self):
        self._s.clear()
        self._reads.clear()
        return self

    def rerecord(self):
        self._s.rerecord()
        return self

    def get_timestamps(self, raw=False):
        return self._s.timestamps_ns() if raw else self._s.durations_ns()

    def result(self, slot):
        if slot in self._reads:
            shape, dtype = self._reads[slot]
            return _np.frombuffer(self._s.read_result(slot), dtype=dtype).reshape(shape).copy()
        return self._s.eval_result(slot)


class Profile:
    """What ``vk.profile()`` yields: the kernels dispatched while it was open.

    ``records``: one ``(name, replica, gpu_ns, bytes)`` record per dispatch (named tuples), in
    dispatch order; ``total_ns``, ``total_bytes``, ``count``; ``table()`` (also ``str``).
    GPU time runs from the end of the work before the dispatch on its queue to the end of the
    dispatch (timestamps at the bottom of the pipe), so the records of a queue add up to its
    busy time. Bytes are the sum of the buffer ranges each dispatch binds (an estimate: bound
    windows, each binding once, not the elements touched).
    """

    def __init__(self, context=None):
        self._p = _vkarray._Profile(context)
        self._records = None

    def _start(self):
        self._p.start()

    def _stop(self):
        self._p.stop()
        self._records = None  # a read inside the block saw only part

    @property
    def records(self):
        if self._records is None or self._p.active:
            from collections import namedtuple
            rec = namedtuple("ProfileRecord", "name replica gpu_ns bytes")
            self._records = [rec(*r) for r in self._p.records()]
        return self._records

    count = property(lambda self: len(self.records))
    total_ns = property(lambda self: float(sum(r.gpu_ns for r in self.records)))
    total_bytes = property(lambda self: int(sum(r.bytes for r in self.records)))

    def table(self):
        rows = [("#", "kernel", "replica", "GPU us", "bytes", "GB/s")]
        for i, r in enumerate(self.records):
            rate = r.bytes / r.gpu_ns if r.gpu_ns > 0 else float("nan")
            rows.append((str(i), r.name, str(r.replica), f"{r.gpu_ns / 1e3:.1f}", str(r.bytes),
                         f"{rate:.2f}"))
        t = self.total_ns
        rate = self.total_bytes / t if t > 0 else float("nan")
        rows.append(("", f"total ({self.count} kernels)", "", f"{t / 1e3:.1f}",
                     str(self.total_bytes), f"{rate:.2f}"))
        widths = [max(len(row[c]) for row in rows) for c in range(6)]
        lines = []
        for k, row in enumerate(rows):
            cells = [row[c].ljust(widths[c]) if c == 1 else row[c].rjust(widths[c])
                     for c in range(6)]
            lines.append("  ".join(cells).rstrip())
            if k == 0 or k == len(rows) - 2:
                lines.append("-" * len(lines[0]))
        return "\n".join(lines)

    __str__ = table

    def __repr__(self):
        return f"<vkarray Profile: {self.count} kernels, {self.total_ns / 1e3:.1f} us>"


class profile:
    """``with vk.profile() as prof: ...`` records every kernel dispatched inside (generated,
    library and user kernels, on every replica); see Profile. ``context`` (default: the default
    context) names the replicas; work of other contexts shows replica -1. Profiles do not nest
    (ValueError).
    """

    def __init__(self, context=None):
        self._context = context

    def __enter__(self):
        self._prof = Profile(self._context)
        self._prof._start()
        return self._prof

    def __exit__(self, *exc):
        self._prof._stop()
        return False

