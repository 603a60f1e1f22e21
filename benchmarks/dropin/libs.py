"""The libraries the drop-in programs run on: for each, the module passed to a program as
``np``, how host data moves to it and back, and how to wait for its device."""

import importlib

import numpy


def _items(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


class Library:
    """numpy itself: the reference (CPU, nothing to synchronize)."""
    name = "numpy"

    def __init__(self):
        self.xp = numpy

    def asarray(self, host):
        return self.xp.asarray(host)

    def sync(self, result):
        pass

    def to_numpy(self, result):
        return [numpy.asarray(r) for r in _items(result)]

    def kernel_count(self):
        return None


class VkArray(Library):
    """vkarray: the result is forced (``vk.eval``) and the device waited for."""
    name = "vkarray"

    def __init__(self):
        import vkarray
        self.xp = vkarray

    def sync(self, result):
        arrays = [r for r in _items(result) if isinstance(r, self.xp.ndarray)]
        if arrays:
            self.xp.eval(*arrays)
        self.xp.synchronize()

    def kernel_count(self):
        return self.xp.kernel_count()


class CuPy(Library):
    name = "cupy"

    def __init__(self):
        import cupy
        self.xp = cupy

    def sync(self, result):
        self.xp.cuda.Device().synchronize()

    def to_numpy(self, result):
        return [self.xp.asnumpy(r) if isinstance(r, self.xp.ndarray) else numpy.asarray(r)
                for r in _items(result)]


class Torch(Library):
    """PyTorch through torch_shim (numpy's names where torch's differ), on CUDA if present."""
    name = "torch"

    def __init__(self):
        from . import torch_shim
        self.xp = torch_shim
        self.torch = torch_shim.torch

    def sync(self, result):
        if self.torch.cuda.is_available():
            self.torch.cuda.synchronize()

    def to_numpy(self, result):
        return [r.detach().cpu().numpy() if self.torch.is_tensor(r) else numpy.asarray(r)
                for r in _items(result)]


LIBRARIES = {"numpy": Library, "vkarray": VkArray, "cupy": CuPy, "torch": Torch}


def load(name):
    """The Library called name, or (None, why) when it cannot be imported here."""
    try:
        if name == "cupy":
            importlib.import_module("cupy").cuda.runtime.getDeviceCount()
        return LIBRARIES[name](), None
    except KeyError:
        return None, f"unknown library {name!r} (known: {', '.join(LIBRARIES)})"
    except Exception as e:  # noqa: BLE001  ImportError, or a CUDA runtime without a device
        return None, f"{type(e).__name__}: {e}"


def compare(module, size, got, want):
    """(ok, detail): the program's own check(), or every result item within its RTOL/ATOL of
    numpy's, with the same shape and the same kind of dtype."""
    if hasattr(module, "check"):
        return module.check(got, want, size)
    if len(got) != len(want):
        return False, f"{len(got)} results, numpy gives {len(want)}"
    worst = 0.0
    for g, w in zip(got, want):
        if g.shape != w.shape:
            return False, f"shape {g.shape} != numpy's {w.shape}"
        if g.dtype.kind != w.dtype.kind and not (g.dtype.kind in "iu" and w.dtype.kind in "iu"):
            return False, f"dtype {g.dtype} where numpy gives {w.dtype}"
        if module.RTOL == 0 and module.ATOL == 0:  # exact, at numpy's precision
            if not numpy.array_equal(g.astype(w.dtype), w):
                return False, f"{int((g != w).sum())} of {w.size} elements differ"
            continue
        wide = numpy.complex128 if "c" in (g.dtype.kind + w.dtype.kind) else numpy.float64
        g, w = g.astype(wide), w.astype(wide)
        if not numpy.allclose(g, w, rtol=module.RTOL, atol=module.ATOL, equal_nan=True):
            err = numpy.abs(g - w) / (module.ATOL + module.RTOL * numpy.abs(w))
            return False, f"max error {float(numpy.nanmax(err)):.3g}x the tolerance"
        if w.size:
            scale = module.ATOL + module.RTOL * numpy.abs(w)
            worst = max(worst, float(numpy.nanmax(numpy.abs(g - w) / scale)))
    return True, f"max error {worst:.2g}x the tolerance"
