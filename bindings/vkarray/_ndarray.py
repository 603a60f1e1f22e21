"""The Python members of vkarray.ndarray, installed in one place. The class and most of its
members come from the extension (bindings/*_py.cc); these are the ones written in Python, each
implemented in its section's module. Installing one that the extension already defines, or one
twice, is an internal error: every member is bound exactly once."""

from . import (_conversions, _cumulative, _devices, _flatiter, _host, _layout, _math,
               _ndarray_methods, _ndarray_order, _protocols)
from ._vkarray import ndarray

_MEMBERS = {
    # numpy's protocols (NEP 13, NEP 18) and the array API's namespace
    "__array_ufunc__": _protocols._array_ufunc,
    "__array_function__": _protocols._array_function,
    "__array_namespace__": _protocols._array_namespace,
    "__array_priority__": _protocols.ARRAY_PRIORITY,
    # host input and output: pickling, copies, printing, DLPack
    "__reduce__": _conversions._reduce,
    "__copy__": _conversions._copy_array,
    "__deepcopy__": _conversions._deepcopy,
    "__repr__": _conversions._repr,
    "__str__": _conversions._str,
    "__dlpack__": _conversions._dlpack,
    "__dlpack_device__": _conversions._dlpack_device,
    # devices and explicit transfers
    "device": property(_devices._device, doc=_devices._device.__doc__),
    "to_device": _devices._to_device,
    "get": _host._get,
    "set": _host._set,
    "get_async": _host._get_async,
    "set_async": _host._set_async,
    "get_region": _host._get_region,
    "set_region": _host._set_region,
    "copy_region": _host._copy_region,
    "zero": _host._zero,
    "wait_event": _host._wait_event,
    "empty_like_host": _host._empty_like_host,
    "padded_shape": property(_host._padded_shape, doc=_host._padded_shape.__doc__),
    # numpy's methods and attributes composed in Python
    "cumsum": _cumulative._method_cumsum,
    "cumprod": _cumulative._method_cumprod,
    "real": property(_math.real, doc=_math.real.__doc__),
    "imag": property(_math.imag, doc=_math.imag.__doc__),
    # memory layout: views of the bytes and numpy's flags
    "view": _layout._view,
    "flags": property(_layout._flags, doc=_layout._flags.__doc__),
    "setflags": _layout._setflags,
    # conversions and copies with numpy's order=
    "astype": _ndarray_order._astype,
    "copy": _ndarray_order._copy,
    "flatten": _ndarray_order._flatten,
    "flat": property(_flatiter._flat, _flatiter._set_flat, doc=_flatiter._flat.__doc__),
    # numpy's other methods: the function-named ones, element and byte access, resize,
    # serialization, and the host-memory attributes that raise saying why
    **_ndarray_methods.MEMBERS,
}


def _install():
    for name, member in _MEMBERS.items():
        if name in ndarray.__dict__:
            raise RuntimeError(f"[ndarray] internal error: {name} is defined twice (the "
                               f"extension already defines it)")
        setattr(ndarray, name, member)
    ndarray.__module__ = "vkarray"  # the public home of the class, as numpy.ndarray's is numpy


_install()
