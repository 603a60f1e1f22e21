"""Input and output on the host: printing (numpy's options and array_repr, array_str,
array2string, which vkarray's repr/str follow; base_repr and binary_repr of an integer), the
ndarray's pickling and copy (through a host copy or a device copy), repr/str in numpy's
layout with the device named, and DLPack export and import (from_dlpack). Every path that
moves data to the host says so: a download is always an explicit copy."""

import numpy as _np

from . import _vkarray as _vk
from ._creation import asarray

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "array_repr", "array_str",
           "array2string", "base_repr", "binary_repr", "from_dlpack"]

# Printing reads numpy's options: vkarray formats a host copy of the values with numpy.
set_printoptions = _np.set_printoptions
get_printoptions = _np.get_printoptions
printoptions = _np.printoptions

# The string forms of one integer (a Python value, no array): numpy's functions.
base_repr = _np.base_repr
binary_repr = _np.binary_repr


def _host(a):
    return a.get() if isinstance(a, _vk.ndarray) else _np.asarray(a)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """numpy.array_repr of a vkarray array: numpy's layout with the device named."""
    text = _np.array_repr(_host(arr), max_line_width, precision, suppress_small)
    return f"{text[:-1]}, device='{arr.device}')" if isinstance(arr, _vk.ndarray) else text


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """numpy.array_str of the values (a host copy)."""
    return _np.array_str(_host(a), max_line_width, precision, suppress_small)


def array2string(a, *args, **kwargs):
    """numpy.array2string of the values (a host copy)."""
    return _np.array2string(_host(a), *args, **kwargs)


def _unpickle(host):
    """Rebuilds a pickled array on the process default context (the context it was pickled
    from is not part of the pickle: contexts are local to a process)."""
    return asarray(host)


def _reduce(self):
    """pickle: the values go through a host copy (numpy's pickle of replica 0)."""
    return (_unpickle, (self.get(),))


def _copy_array(self):
    """copy.copy: a new array with the same values (as numpy's), independent of later
    in-place updates of self."""
    return _vk.copy(self)


def _deepcopy(self, memo):
    result = _vk.copy(self)
    memo[id(self)] = result
    return result


def _repr(self):
    """numpy's repr layout with the device added as the last keyword:
    ``array([1., 2.], dtype=float32, device='vulkan:0')``."""
    text = _np.array_repr(self.get())
    return f"{text[:-1]}, device='{self.device}')"


def _str(self):
    """numpy's str of the values (no device, as numpy's str has no dtype)."""
    return _np.array_str(self.get())


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """DLPack export through a host copy: the capsule describes a numpy array downloaded from
    replica 0 (device kDLCPU), which numpy.from_dlpack and other CPU consumers accept.
    copy=False cannot be honored (the data live on a Vulkan device)."""
    if copy is False:
        raise BufferError("[__dlpack__] a vkarray.ndarray lives on a Vulkan device: export "
                          "always copies to the host, so copy=False cannot be honored")
    if dl_device is not None and tuple(dl_device)[0] != 1:
        raise BufferError(f"[__dlpack__] only export to the CPU (device type 1) is supported, "
                          f"got dl_device={dl_device!r}")
    host = self.get()
    if not host.flags.writeable:
        host = host.copy()
    return host.__dlpack__(stream=stream) if stream is not None else host.__dlpack__()


def _dlpack_device(self):
    """(kDLCPU, 0): DLPack consumers receive a host copy (see __dlpack__)."""
    return (1, 0)


def from_dlpack(x, /, *, device=None, copy=None):
    """The array API's from_dlpack: an ndarray from a DLPack producer (numpy arrays, CPU
    tensors of other libraries), uploaded to the default context (or `device`'s context).
    A vkarray.ndarray is returned as it is (copy=True: a copy)."""
    from ._devices import _context_of_device
    ctx = _context_of_device(device, "from_dlpack")
    if isinstance(x, _vk.ndarray):
        r = x if ctx is None or ctx is x.context else asarray(x, context=ctx)
        return _vk.copy(r) if copy and r is x else r
    if copy is False:
        raise BufferError("[from_dlpack] copy=False cannot be honored: data from a host "
                          "producer are always uploaded to the device")
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"[from_dlpack] expected an object with __dlpack__, got "
                        f"{type(x).__name__}")
    host = x if isinstance(x, _np.ndarray) else _np.from_dlpack(x)
    return asarray(host) if ctx is None else asarray(host, context=ctx)
