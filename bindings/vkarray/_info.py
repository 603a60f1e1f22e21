"""The array API's inspection namespace (``vk.__array_namespace_info__()``) and device names.

A vkarray device is the string that ``x.device`` gives: ``"vulkan:"`` and the physical device
indices of the array's context (``"vulkan:0"``; ``"vulkan:0,1"`` for a context over two
devices). Which dtypes a device offers follows from its Vulkan features: float64 and
complex128 need shaderFloat64, int64/uint64 shaderInt64, float16 shaderFloat16.
"""

import numpy as _np

from . import _vkarray

__all__ = ["__array_namespace_info__"]

_DTYPE_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float16", "float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_DTYPE_KINDS["integral"] = _DTYPE_KINDS["signed integer"] + _DTYPE_KINDS["unsigned integer"]
_DTYPE_KINDS["numeric"] = (_DTYPE_KINDS["integral"] + _DTYPE_KINDS["real floating"]
                           + _DTYPE_KINDS["complex floating"])
_ALL_DTYPES = _DTYPE_KINDS["bool"] + _DTYPE_KINDS["numeric"]

# The Vulkan feature (a key of Context.devices' dicts) each dtype needs beyond the baseline.
_NEEDS = {"float64": "shader_float64", "complex128": "shader_float64",
          "int64": "shader_int64", "uint64": "shader_int64", "float16": "shader_float16"}


def context_device(ctx):
    """The device of arrays on context ctx, as ``x.device`` gives it: a vkarray.Device where
    the package has that class, else the string "vulkan:" and the physical indices."""
    try:
        from ._devices import Device
    except ImportError:
        return "vulkan:" + ",".join(str(d["physical_index"]) for d in ctx.devices)
    return Device(ctx)


def default_device():
    """The device of arrays made without a context: the default context's."""
    return context_device(_vkarray.context())


_contexts = {}  # device string -> the context made for it (a device outside the default)


def context_for(device, op):
    """The context of a device: None (the default context) for None or the default device, a
    Context as given, else a context over the devices a "vulkan:i,j" string names, made once."""
    if device is None or isinstance(device, _vkarray.Context):
        return device
    if isinstance(getattr(device, "context", None), _vkarray.Context):  # a vkarray.Device
        return device.context
    if device == context_device(_vkarray.context()):
        return None
    if device in _contexts:
        return _contexts[device]
    known = {d["index"] for d in _vkarray.list_devices()}
    indices = None
    if isinstance(device, str) and device.startswith("vulkan:"):
        try:
            indices = [int(i) for i in device[len("vulkan:"):].split(",")]
        except ValueError:
            pass
    if not indices or not all(i in known for i in indices):
        raise ValueError(f"[{op}] unknown device {device!r}; the devices are {_devices()}")
    _contexts[device] = _vkarray.Context(devices=indices)
    return _contexts[device]


def _device_facts(device, op):
    """The feature dicts of the logical devices of a device (None: the default)."""
    ctx = context_for(device, op)
    return (ctx or _vkarray.context()).devices


def _devices():
    """The default device first, then each physical device alone (as strings; where the
    package has vkarray.Device, its vkarray.devices())."""
    try:
        from ._devices import devices
    except ImportError:
        pass
    else:
        return devices()
    out = [default_device()]
    for d in _vkarray.list_devices():
        name = f"vulkan:{d['index']}"
        if name not in out:
            out.append(name)
    return out


def _dtype(name):
    """vkarray's dtype object of a name (numpy's scalar type, as ``vk.float32`` is)."""
    return _np.bool_ if name == "bool" else getattr(_np, name)


def _kinds(kind):
    """The dtype names a kind (None, a kind name or a tuple of them) selects."""
    if kind is None:
        return _ALL_DTYPES
    if isinstance(kind, tuple):
        names = set()
        for k in kind:
            names.update(_kinds(k))
        return tuple(n for n in _ALL_DTYPES if n in names)
    if isinstance(kind, str):
        if kind not in _DTYPE_KINDS:
            raise ValueError(f"[dtypes] unknown kind {kind!r}; the kinds are "
                             f"{sorted(_DTYPE_KINDS)}")
        return _DTYPE_KINDS[kind]
    raise TypeError(f"[dtypes] kind must be None, a kind name or a tuple of them, not "
                    f"{type(kind).__name__}")


class __array_namespace_info__:  # noqa: N801 — the array API's name
    """The array API inspection namespace: ``info = vk.__array_namespace_info__()``."""

    __module__ = "vkarray"

    def capabilities(self):
        """Boolean-mask indexing and data-dependent output shapes (nonzero, unique_*) are
        supported."""
        return {"boolean indexing": True, "data-dependent shapes": True}

    def default_device(self):
        """The device of arrays made without a device or context."""
        return default_device()

    def devices(self):
        """Every device an array can be made on."""
        return _devices()

    def default_dtypes(self, *, device=None):
        """The dtypes of Python floats, complex numbers and ints, and of index arrays. A
        device without shaderFloat64 (or shaderInt64) gets float32/complex64 (int32)."""
        facts = _device_facts(device, "default_dtypes")
        f64 = all(d["shader_float64"] for d in facts)
        i64 = all(d["shader_int64"] for d in facts)
        integral = _np.int64 if i64 else _np.int32
        return {"real floating": _np.float64 if f64 else _np.float32,
                "complex floating": _np.complex128 if f64 else _np.complex64,
                "integral": integral, "indexing": integral}

    def dtypes(self, *, device=None, kind=None):
        """{name: dtype} of the array API's dtypes of a kind ("bool", "signed integer", "unsigned
        integer", "integral", "real floating", "complex floating", "numeric", or a tuple of
        them; None: all) that the device supports."""
        names = [n for n in _kinds(kind) if n != "float16"]  # not an array API dtype
        facts = _device_facts(device, "dtypes")
        return {n: _dtype(n) for n in names
                if n not in _NEEDS or all(d[_NEEDS[n]] for d in facts)}
