"""cupy.fft.config: the plan switches tests read and set (plain values: vkarray has no cuFFT
plans, so they change nothing); every function (plan caches, callbacks, GPUs) is a stub."""

from cupy import _stubs

enable_nd_planning = True
use_multi_gpus = False
_devices = None


def __getattr__(name):
    return _stubs.Stub(f"cupy.fft.config.{name}")
