"""Input and output on the host: printing (numpy's options and array_repr, array_str,
array2string, which vkarray's repr/str follow; base_repr and binary_repr of an integer), the
ndarray's pickling and copy (through a host copy or a device copy), repr/str in numpy's
layout with the device named, and DLPack export and import (from_dlpack). Every path that
moves data to the host says so: a download is always an explicit copy."""

import ctypes as _ctypes

import numpy as _np

from . import _vkarray as _vk
from ._creation import asarray

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "array_repr", "array_str",
           "array2string", "from_dlpack", "set_string_function", "format_float_positional",
           "format_float_scientific", "binary_repr", "base_repr"]

# set_string_function's functions for vkarray arrays' repr and str (None: numpy's layout).
_STRING_FUNCTIONS = {"repr": None, "str": None}

# Printing reads numpy's options: vkarray formats a host copy of the values with numpy.
set_printoptions = _np.set_printoptions
get_printoptions = _np.get_printoptions
printoptions = _np.printoptions


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
    ``array([1., 2.], dtype=float32, device='vulkan:0')``, or set_string_function's."""
    if _STRING_FUNCTIONS["repr"] is not None:
        return _STRING_FUNCTIONS["repr"](self)
    text = _np.array_repr(self.get())
    return f"{text[:-1]}, device='{self.device}')"


def _str(self):
    """numpy's str of the values (no device, as numpy's str has no dtype), or
    set_string_function's."""
    if _STRING_FUNCTIONS["str"] is not None:
        return _STRING_FUNCTIONS["str"](self)
    return _np.array_str(self.get())


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """DLPack export through a host copy: the capsule describes a numpy array downloaded from
    replica 0 (device kDLCPU), which numpy.from_dlpack and other CPU consumers accept (bool
    arrays as DLPack's kDLBool, which numpy reads from 1.25 on). copy=False cannot be honored
    (the data live on a Vulkan device)."""
    if copy is False:
        raise BufferError("[__dlpack__] a vkarray.ndarray lives on a Vulkan device: export "
                          "always copies to the host, so copy=False cannot be honored")
    if dl_device is not None and tuple(dl_device)[0] != 1:
        raise BufferError(f"[__dlpack__] only export to the CPU (device type 1) is supported, "
                          f"got dl_device={dl_device!r}")
    host = self.get()
    if not host.flags.writeable:
        host = host.copy()
    boolean = host.dtype == _np.bool_
    if boolean:  # numpy 1.24 exports no bool: its bytes as uint8, then DLPack's bool type
        host = host.view(_np.uint8)
    capsule = host.__dlpack__(stream=stream) if stream is not None else host.__dlpack__()
    if boolean:
        _DLTensor.from_capsule(capsule).code = _KDL_BOOL
    return capsule


_KDL_BOOL = 6  # DLPack's DLDataTypeCode kDLBool (8 bits a value, as numpy's bool)


class _DLTensor(_ctypes.Structure):
    """The head of DLPack's DLTensor (dlpack.h), up to its data type's code."""

    _fields_ = [("data", _ctypes.c_void_p), ("device_type", _ctypes.c_int32),
                ("device_id", _ctypes.c_int32), ("ndim", _ctypes.c_int32),
                ("code", _ctypes.c_uint8), ("bits", _ctypes.c_uint8),
                ("lanes", _ctypes.c_uint16)]

    @classmethod
    def from_capsule(cls, capsule):
        get = _ctypes.pythonapi.PyCapsule_GetPointer
        get.restype = _ctypes.c_void_p
        get.argtypes = [_ctypes.py_object, _ctypes.c_char_p]
        return cls.from_address(get(capsule, b"dltensor"))


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


def set_string_function(f, repr=True):  # noqa: A002 — numpy's parameter name
    """numpy.set_string_function for vkarray arrays: f(array) -> str becomes their repr
    (repr=True) or str (repr=False); None restores numpy's layout."""
    if f is not None and not callable(f):
        raise TypeError(f"[set_string_function] f must be callable or None, got {f!r}")
    _STRING_FUNCTIONS["repr" if repr else "str"] = f


def _host_scalar(x, op):
    """x, or the value of a 0-d vkarray array as a numpy scalar (reading it to the host, as
    formatting needs)."""
    if isinstance(x, _vk.ndarray):
        if x.ndim != 0:
            raise TypeError(f"[{op}] expected a scalar or a 0-d array, got an array of shape "
                            f"{x.shape}")
        return x.get()[()]
    return x


def format_float_positional(x, *args, **kwargs):
    """numpy.format_float_positional of a float (a 0-d vkarray array's value is read)."""
    return _np.format_float_positional(_host_scalar(x, "format_float_positional"), *args,
                                       **kwargs)


def format_float_scientific(x, *args, **kwargs):
    """numpy.format_float_scientific of a float (a 0-d vkarray array's value is read)."""
    return _np.format_float_scientific(_host_scalar(x, "format_float_scientific"), *args,
                                       **kwargs)


def binary_repr(num, width=None):
    """numpy.binary_repr: the binary string of an integer (two's complement with width)."""
    return _np.binary_repr(_host_scalar(num, "binary_repr"), width)


def base_repr(number, base=2, padding=0):
    """numpy.base_repr: the string of an integer in base (2 to 36)."""
    return _np.base_repr(_host_scalar(number, "base_repr"), base, padding)
