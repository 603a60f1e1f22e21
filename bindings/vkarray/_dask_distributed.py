"""vkarray chunks on dask.distributed: pickling and distributed's "dask" serialization of
vkarray arrays (a host copy on the wire, as one frame), and the worker plugin that binds each
worker to its own device. Imported by vkarray.dask."""

import copyreg
import os

import numpy as np

import vkarray as vk

try:
    from distributed.diagnostics.plugin import WorkerPlugin as _WorkerPlugin
    from distributed.protocol import dask_deserialize, dask_serialize
except ImportError:  # dask without distributed: pickling and bind_worker still work
    _WorkerPlugin = object
    dask_serialize = dask_deserialize = None

DEVICE_ENV = "VKA_DASK_DEVICE"


def _host_copy(x):
    """The one host copy of x (replica 0), C-contiguous."""
    return x.get()


def _from_host(host):
    """An array on this process's default context holding numpy array `host`."""
    return vk.asarray(host)


def _reduce(x):
    # A host copy travels; it is uploaded to the default context of the unpickling process.
    return _from_host, (_host_copy(x),)


def serialize_ndarray(x):
    """distributed's dask serializer: the host copy's bytes as one frame, a memoryview of the
    downloaded buffer (no further copy), and its dtype and shape in the header."""
    host = _host_copy(x)
    header = {"dtype": host.dtype.str, "shape": list(host.shape)}
    return header, [host.reshape(-1).view(np.uint8).data]


def deserialize_ndarray(header, frames):
    dtype = np.dtype(header["dtype"])
    shape = tuple(header["shape"])
    data = frames[0] if len(frames) == 1 else b"".join(bytes(f) for f in frames)
    host = np.frombuffer(data, dtype=np.uint8).view(dtype).reshape(shape)
    return vk.asarray(host)


def _register():
    # A __reduce__ of vkarray's own (if the class gains one) wins over this one.
    if "__reduce__" not in vk.ndarray.__dict__ and "__reduce_ex__" not in vk.ndarray.__dict__:
        copyreg.pickle(vk.ndarray, _reduce)
    if dask_serialize is not None:
        dask_serialize.register(vk.ndarray)(serialize_ndarray)
        dask_deserialize.register(vk.ndarray)(deserialize_ndarray)


def worker_device_index(worker=None):
    """The device index a worker binds: the environment's VKA_DASK_DEVICE if set, else the
    worker's name when it is an integer (LocalCluster names its workers 0, 1, ...), else None."""
    env = os.environ.get(DEVICE_ENV)
    if env not in (None, ""):
        try:
            return int(env)
        except ValueError:
            raise ValueError(f"[DevicePlugin] {DEVICE_ENV}={env!r} is not a device index") \
                from None
    name = getattr(worker, "name", None)
    if isinstance(name, int) and not isinstance(name, bool):
        return name
    if isinstance(name, str) and name.isdigit():
        return int(name)
    return None


def bind_worker(worker=None, devices=None):
    """Makes this process's default context one device: devices[index % len(devices)], index
    from worker_device_index(worker); devices defaults to every device of vk.list_devices().
    With no index (a worker named otherwise, no VKA_DASK_DEVICE), the default context stays
    (VKA_DEVICE or the best device). Returns the device index bound, or None."""
    index = worker_device_index(worker)
    if index is None:
        return None
    if devices is None:
        devices = list(range(len(vk.list_devices())))
    devices = [int(d) for d in devices]
    if not devices:
        raise ValueError("[DevicePlugin] devices is an empty list")
    device = devices[index % len(devices)]
    vk.make_context(devices=[device])
    return device


class DevicePlugin(_WorkerPlugin):
    """A dask.distributed WorkerPlugin: each worker binds its own device at start
    (bind_worker). ``client.register_worker_plugin(DevicePlugin())``; ``devices`` restricts
    the devices used (a list of device indices, cycled over the workers)."""

    name = "vkarray-device"

    def __init__(self, devices=None):
        self.devices = None if devices is None else [int(d) for d in devices]

    def setup(self, worker):
        device = bind_worker(worker, self.devices)
        worker.vkarray_device = device
        self.worker = worker

    def transition(self, key, start, finish, **kwargs):
        """When a task's result is a vkarray array, start its kernels on the device at once:
        evaluation records them, and without a submission they would wait until another
        worker asks for the value (one worker's GPU after the other's, not together)."""
        if finish != "memory":
            return
        worker = getattr(self, "worker", None)
        value = None if worker is None else worker.data.get(key)
        if isinstance(value, vk.ndarray):
            value.eval()
            vk.record_event(context=value.context)


_register()
