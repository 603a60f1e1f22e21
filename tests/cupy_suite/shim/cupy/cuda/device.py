"""cupy.cuda.device: device 0 is the current (only) device; selecting another skips."""

from cupy import _stubs


def get_device_id():
    return 0


def get_compute_capability():
    return "90"


class Device:
    """Device 0 as a no-op context; any other device skips the test (skips.py: device)."""

    def __init__(self, device=None):
        if device not in (None, 0):
            _stubs.Stub("cupy.cuda.Device")()
        self.id = 0
        self.compute_capability = "90"

    def use(self):
        pass

    def synchronize(self):
        import vkarray
        vkarray.synchronize()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __getattr__(self, name):
        return _stubs.Stub(f"cupy.cuda.Device.{name}")


def __getattr__(name):
    return _stubs.Stub(f"cupy.cuda.device.{name}")
