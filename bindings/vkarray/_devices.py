"""Contexts and devices: the seed Buffer API and the context functions, evaluation
(``vk.eval``, ``vk.kernel_count``), the GEMM configuration, and devices in the array API sense:
a vkarray array lives on a context (every replica of it holds the values), so a Device is a
context (``vk.devices()``, ``x.device``, ``x.to_device``). Importing it makes the interpreter
wait for queued device work at exit."""

import atexit as _atexit

from . import _vkarray as _vk
from ._vkarray import (Buffer, Context, Replica, asbuffer, context, eval, gemm_config,
                       kernel_count, list_devices, set_context, set_gemm_config, set_gemm_split,
                       synchronize)

__all__ = ["Buffer", "Context", "Replica", "asbuffer", "context", "list_devices",
           "make_context", "set_context", "synchronize", "eval", "kernel_count", "gemm_config",
           "set_gemm_config", "set_gemm_split", "Device", "devices"]


def make_context(devices=None, queues_per_device=1, validate=None, host_access="auto"):
    """Create a Context with these options, make it the process default, and return it.

    Buffers created afterwards without an explicit ``context`` use it; existing buffers keep
    the context they were created on.
    """
    ctx = Context(devices=devices, queues_per_device=queues_per_device, validate=validate,
                  host_access=host_access)
    set_context(ctx)
    return ctx


class Device:
    """Where an array lives: a vkarray.Context (all its devices and replicas; a kernel runs on
    every replica). Prints as 'vulkan:' and the physical device indices of the context.
    Devices compare equal when they are the same context."""

    __slots__ = ("context",)

    def __init__(self, context):
        if not isinstance(context, _vk.Context):
            raise TypeError(f"[Device] expected a vkarray.Context, got {type(context).__name__}")
        self.context = context

    def __str__(self):
        indices = ",".join(str(d["physical_index"]) for d in self.context.devices)
        return f"vulkan:{indices}"

    def __repr__(self):
        return f"vkarray.Device('{self}')"

    def __eq__(self, other):
        return isinstance(other, Device) and other.context is self.context

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(id(self.context))

    @property
    def replicas(self):
        """The context's replica slots (one per device and queue)."""
        return self.context.replicas


def devices():
    """The devices arrays can be placed on: the process default context (vkarray.context()),
    as one Device whose replicas are its devices and queues. Other contexts (vkarray.Context)
    are devices too: Device(ctx)."""
    return [Device(_vk.context())]


def _context_of_device(device, op):
    """The context a device argument names: None (the default), a Device, or a Context."""
    if device is None:
        return None
    if isinstance(device, Device):
        return device.context
    if isinstance(device, _vk.Context):
        return device
    raise ValueError(f"[{op}] device must be a vkarray.Device (vkarray.devices(), x.device) or "
                     f"a vkarray.Context, got {device!r}")


def _device(self):
    """The Device (context) the array lives on."""
    return Device(self.context)


def _to_device(self, device, /, *, stream=None):
    """The array on `device`: self when it is already there (the same context); on another
    context, a copy through the host (downloaded from replica 0, uploaded to every replica)."""
    if stream is not None:
        raise ValueError("[to_device] stream= is not supported: vkarray orders work per context")
    ctx = _context_of_device(device, "to_device")
    if ctx is None or ctx is self.context:
        return self
    return _vk._asarray(self.get(), context=ctx)


def _finish_at_exit():
    """Waits for the device before the interpreter shuts down, while the driver is whole:
    work still queued at C-level exit would run after the driver's own exit handlers."""
    try:
        _vk._finish_default()
    except Exception:  # noqa: BLE001 — nothing useful can be raised at exit
        pass


_atexit.register(_finish_at_exit)
