"""vkarray: lazy GPU arrays on Vulkan compute.

``import vkarray as vk``. This first surface is the seed Buffer API: ``vk.Buffer``,
``vk.asbuffer``, ``buf.write(data, index=None)``, ``buf.read(index=None)``, and the context
functions. dtypes are numpy's own objects (``vk.float32 is numpy.float32``).
"""

import numpy as _np

from ._vkarray import (
    Buffer,
    Context,
    Replica,
    asbuffer,
    context,
    list_devices,
    set_context,
    synchronize,
)

# The dtypes vkarray holds, as numpy's own scalar types, so that they compare and hash
# exactly like numpy's and any numpy dtype-like is accepted wherever a dtype is.
bool_ = _np.bool_
bool = _np.bool_  # numpy 2 and the array API name it `bool`
int8 = _np.int8
uint8 = _np.uint8
int16 = _np.int16
uint16 = _np.uint16
int32 = _np.int32
uint32 = _np.uint32
int64 = _np.int64
uint64 = _np.uint64
float16 = _np.float16
float32 = _np.float32
float64 = _np.float64
complex64 = _np.complex64
complex128 = _np.complex128
dtype = _np.dtype

__version__ = "0.1.0"


def make_context(devices=None, queues_per_device=1, validate=None, host_access="auto"):
    """Create a Context with these options, make it the process default, and return it.

    Buffers created afterwards without an explicit ``context`` use it; existing buffers keep
    the context they were created on.
    """
    ctx = Context(devices=devices, queues_per_device=queues_per_device, validate=validate,
                  host_access=host_access)
    set_context(ctx)
    return ctx


__all__ = [
    "Buffer", "Context", "Replica", "asbuffer", "context", "list_devices", "make_context",
    "set_context", "synchronize", "dtype", "bool_", "bool", "int8", "uint8", "int16", "uint16",
    "int32", "uint32", "int64", "uint64", "float16", "float32", "float64", "complex64",
    "complex128",
]
