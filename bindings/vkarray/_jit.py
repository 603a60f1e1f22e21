"""vkarray.jit: a function of arrays recorded once per input layout, then replayed. A replay
rebuilds the recorded graph over the new inputs in C++ (array/trace.h) instead of running the
function's Python, which is most of the cost of a long formula: what JAX's jit and CuPy's
fuse do for their libraries. Results are lazy, as the function's own would be, so they fuse
with what follows.

A recording is kept only where replaying it builds exactly what calling the function would:
the function ran without effects (no evaluation, host read or write of any array, no upload),
drew no random numbers and viewed no argument past its elements. Otherwise the function is
simply called, every time, for inputs of that layout: for a function of its arguments, jit
never changes a result, only what it costs."""

import functools
import os
import sys

import numpy as _np

from . import _vkarray
from ._vkarray import ndarray

__all__ = ["jit"]

# Recordings kept per function: one per input layout and static argument value. Beyond it the
# oldest is dropped (a function called with ever new Python numbers records each time).
_MAX_RECORDINGS = 64

_STATIC = (bool, int, float, complex, str, bytes, type(None), _np.generic, _np.dtype, type)

_DEBUG = os.environ.get("VKA_DEBUG", "0").strip()
_DEBUG = int(_DEBUG) if _DEBUG.isdigit() else 0


class _Unkeyable(Exception):
    """An argument jit cannot key a recording on (a numpy array, a dict, an object)."""


def _flatten_args(value, arrays, key):
    """Appends value's arrays to `arrays` and its structure and static values to `key`."""
    if isinstance(value, ndarray):
        arrays.append(value)
        key.append(ndarray)
    elif isinstance(value, (tuple, list)):
        key.append((type(value), len(value)))
        for v in value:
            _flatten_args(v, arrays, key)
    elif isinstance(value, _STATIC):
        # repr: -0.0 and nan are values of their own; numpy scalars keep their dtype.
        key.append((type(value), repr(value)))
    else:
        raise _Unkeyable(type(value).__name__)


def _flatten_result(value, inputs, arrays):
    """value's structure with each array replaced by its index in `arrays` (appended there), or
    by ("input", i) for an argument returned as it is; None where jit cannot replay it."""
    if isinstance(value, ndarray):
        for i, a in enumerate(inputs):
            if a is value:
                return ("input", i)
        arrays.append(value)
        return ("output", len(arrays) - 1)
    if isinstance(value, (tuple, list)):
        items = [_flatten_result(v, inputs, arrays) for v in value]
        return None if None in items else ("seq", type(value), items)
    if isinstance(value, _STATIC):
        return ("static", value)
    return None


def _rebuild(structure, inputs, outputs):
    kind = structure[0]
    if kind == "output":
        return outputs[structure[1]]
    if kind == "input":
        return inputs[structure[1]]
    if kind == "static":
        return structure[1]
    return structure[1](_rebuild(s, inputs, outputs) for s in structure[2])


class _Recording:
    __slots__ = ("trace", "structure")

    def __init__(self, trace, structure):
        self.trace = trace
        self.structure = structure


def _note(fn, why):
    if _DEBUG >= 1:
        print(f"[vkarray] jit({getattr(fn, '__qualname__', fn)}): calls it each time for these "
              f"inputs: {why}", file=sys.stderr)


def jit(fn=None, *, static_argnames=None):
    """Records fn once per layout of its array arguments (dtype, shape, strides, which share a
    buffer) and value of its other arguments (Python and numpy scalars, strings, dtypes,
    tuples and lists of these and of arrays), then replays the recording for later calls of
    that layout instead of running fn's Python. Use as ``@vk.jit`` or ``vk.jit(fn)``.

    fn should compute its results from its arguments, as with JAX's jit; unlike JAX, a
    function that evaluates or reads an array, writes into one, uploads host data, draws
    random numbers or views an argument past its elements (as_strided) is not refused: it is
    called every time for inputs of that layout (VKA_DEBUG=1 says why). What fn reads besides
    its arguments (a global array, a closure's number) is fixed at the recording, as with
    JAX: pass values that change as arguments. An array fn read that is later written in
    place is the exception: fn is recorded again. Lazy array arguments are computed first.
    Other argument types (numpy arrays, dicts, objects) make the call an ordinary call.
    static_argnames is accepted for JAX's signature: every non-array argument is static
    here."""
    del static_argnames  # every non-array argument already keys the recording
    if fn is None:
        return jit
    if not callable(fn):
        raise TypeError(f"[jit] expected a function, got {type(fn).__name__}")
    recordings = {}

    @functools.wraps(fn)
    def call(*args, **kwargs):
        arrays, static = [], []
        try:
            _flatten_args(args, arrays, static)
            for name in sorted(kwargs):
                static.append(name)
                _flatten_args(kwargs[name], arrays, static)
        except _Unkeyable:
            return fn(*args, **kwargs)
        lazy = [a for a in arrays if a.is_lazy]
        if lazy:
            _vkarray.eval(*lazy)
        key = (tuple(static), _vkarray._trace_key(arrays))
        entry = recordings.get(key)
        if entry is False:
            return fn(*args, **kwargs)
        if entry is not None and entry.trace.current():
            return _rebuild(entry.structure, arrays, entry.trace.replay(arrays))
        before = _vkarray._effect_count()
        result = fn(*args, **kwargs)
        why = None
        if _vkarray._effect_count() != before:
            why = "it evaluates, reads or writes an array, or uploads host data"
        outputs = []
        structure = _flatten_result(result, arrays, outputs) if why is None else None
        if why is None and structure is None:
            why = "it returns something other than arrays, scalars, tuples and lists"
        trace = None
        if why is None:
            trace = _vkarray._Trace(arrays, outputs)
            why = trace.unreplayable or None
        if why is not None:
            _note(fn, why)
        if len(recordings) >= _MAX_RECORDINGS:
            del recordings[next(iter(recordings))]
        recordings[key] = False if why is not None else _Recording(trace, structure)
        return result

    return call
