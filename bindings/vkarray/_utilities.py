"""numpy's utilities and help functions for vkarray: memory overlap (may_share_memory,
shares_memory: numpy's solver on the arrays' layouts in their device buffers, no values
read), what is installed (show_config, show_runtime), help (info, lookfor, source, who) and
numpy's Python-level helpers that touch no array data (deprecate, deprecate_with_doc,
safe_eval, disp, iterable)."""

import os as _os
import platform as _platform
import sys as _sys

import numpy as _np

from . import _vkarray

__all__ = ["may_share_memory", "shares_memory", "show_config", "show_runtime", "info",
           "lookfor", "source", "who", "deprecate", "deprecate_with_doc", "safe_eval", "disp",
           "iterable"]

# numpy's own: they work on functions, strings and Python objects, never on array data.
deprecate = _np.deprecate
deprecate_with_doc = _np.deprecate_with_doc
safe_eval = _np.safe_eval
disp = _np.disp

# A fake address per device buffer for the layout stand-ins (never dereferenced): buffers
# 2**44 bytes apart, so views of different buffers never overlap.
_BUFFER_SPACING = 1 << 44


class _Layout:
    """A numpy array interface with a's shape and byte strides at a fake address in its
    buffer, for numpy's overlap solver (which reads addresses, never memory)."""

    def __init__(self, a, buffer_id, offset, strides):
        itemsize = a.dtype.itemsize
        self.__array_interface__ = {
            "shape": tuple(a.shape), "typestr": f"|V{itemsize}", "version": 3,
            "strides": tuple(s * itemsize for s in strides),
            "data": ((buffer_id + 1) * _BUFFER_SPACING + offset * itemsize, False),
        }


def _stand_in(x):
    """x's layout as a numpy array (vkarray arrays) or x (anything else): None where x holds
    no device memory yet (a lazy result shares memory with nothing)."""
    if not isinstance(x, _vkarray.ndarray):
        return x
    buffer_id, offset, strides, _ = _vkarray._layout(x)
    if buffer_id is None:
        return None
    return _np.asarray(_Layout(x, buffer_id, offset, strides))


def _overlap(numpy_fn, a, b, max_work):
    if isinstance(a, _vkarray.ndarray) != isinstance(b, _vkarray.ndarray):
        return False  # device memory never overlaps host memory
    sa, sb = _stand_in(a), _stand_in(b)
    if sa is None or sb is None:
        return False
    return numpy_fn(sa, sb) if max_work is None else numpy_fn(sa, sb, max_work=max_work)


def may_share_memory(a, b, /, max_work=None):
    """numpy.may_share_memory: whether a and b's memory bounds overlap (views of one device
    buffer), by numpy's own test on their layouts. Lazy results not yet computed share
    nothing; device arrays never share with host arrays."""
    return bool(_overlap(_np.may_share_memory, a, b, max_work))


def shares_memory(a, b, /, max_work=None):
    """numpy.shares_memory: whether a and b have an element in common (exactly, by numpy's
    solver on their layouts in the device buffer; max_work as numpy's)."""
    return bool(_overlap(_np.shares_memory, a, b, max_work))


def iterable(y):
    """numpy.iterable: whether iter(y) works (a 0-d array is not iterable)."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


def _versions():
    return [("vkarray", _os.path.dirname(_vkarray.__file__)), ("numpy", _np.__version__),
            ("python", _sys.version.replace("\n", " ")),
            ("platform", _platform.platform())]


def show_config():
    """Prints where vkarray is installed, the numpy it works with, the Python and platform,
    and the Vulkan devices it sees."""
    for name, value in _versions():
        print(f"{name}: {value}")
    for d in _vkarray.list_devices():
        print(f"device {d['index']}: {d['name']} ({d['type']})")


def show_runtime():
    """Prints the running process's setup: show_config's first lines and the default
    context's replicas (device and queue of each)."""
    for name, value in _versions():
        print(f"{name}: {value}")
    print(f"context: {_vkarray.context()!r}")


def info(object=None, maxwidth=76, output=None, toplevel="vkarray"):  # noqa: A002
    """numpy.info: help on an object (numpy's, searching vkarray's namespace by default); for
    a vkarray array, its layout and device."""
    if isinstance(object, _vkarray.ndarray):
        out = _sys.stdout if output is None else output
        flags = object.flags
        # numpy's layout, the device in place of the host data pointer.
        print("class: ", "ndarray", file=out)
        print("shape: ", object.shape, file=out)
        print("strides: ", object.strides, file=out)
        print("itemsize: ", object.itemsize, file=out)
        print("aligned: ", True, file=out)
        print("contiguous: ", flags.c_contiguous, file=out)
        print("fortran: ", flags.f_contiguous, file=out)
        print(f"device: {object.device}", file=out)
        print("byteorder: ", _sys.byteorder, file=out)
        print("byteswap: ", False, file=out)
        print(f"type: {object.dtype}", file=out)
        return
    _np.info(object, maxwidth=maxwidth, output=output, toplevel=toplevel)


def lookfor(what, module="vkarray", import_modules=False, regenerate=False, output=None):
    """numpy.lookfor: searches docstrings for `what`, in vkarray by default. Importing a
    package imports all of vkarray's modules, so import_modules defaults to False: True would
    also import optional ones (vkarray.dask needs dask) and run them for a search."""
    _np.lookfor(what, module=module, import_modules=import_modules, regenerate=regenerate,
                output=output)


def source(object, output=None):  # noqa: A002
    """numpy.source: prints the Python source of an object (vkarray's functions included) to
    output (default: sys.stdout)."""
    _np.source(object, output=_sys.stdout if output is None else output)


def who(vardict=None):
    """numpy.who for vkarray arrays: a table of the arrays in vardict (default: the caller's
    globals) with their shapes, bytes and dtypes, in numpy's format."""
    if vardict is None:
        vardict = _sys._getframe(1).f_globals
    stand_ins, seen = {}, {}
    for name, value in vardict.items():
        if isinstance(value, _vkarray.ndarray):
            if id(value) not in seen:  # numpy's who names a second binding of one array
                seen[id(value)] = _np.lib.stride_tricks.as_strided(
                    _np.zeros(1, value.dtype), value.shape, (0,) * value.ndim)
            stand_ins[name] = seen[id(value)]
    _np.who(stand_ins)
