"""The libraries the drop-in programs run on: for each, the module passed to a program as
``np``, how host data moves to it and back, how a program is called (eagerly, or compiled by
jax.jit / torch.compile where the program declares itself a pure function: ``JIT = True``), and
how to wait for its device."""

import importlib
import os

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

    def supports(self, module):
        """(True, "") or (False, why this library cannot run the program)."""
        return True, ""

    def call(self, module, data):
        """One call of the program on data (device arrays and plain Python values)."""
        return module.kernel(self.xp, *data)

    def mode(self, module):
        """How call() runs the program: "eager", "jit", ..."""
        return "eager"

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


class _Compiled:
    """Calls a program through a compiler where the program allows (``JIT = True``: a pure
    function of its array inputs), the plain Python values among its inputs (sizes, step
    counts) held fixed; otherwise, or where compiling fails, eagerly, and mode() says which."""

    def __init__(self):
        super().__init__()
        self._compiled, self._failed = {}, {}

    def _compile(self, fn):
        raise NotImplementedError

    def call(self, module, data):
        if not getattr(module, "JIT", False) or module.__name__ in self._failed:
            return module.kernel(self.xp, *data)
        arrays = [i for i, d in enumerate(data) if self._is_array(d)]
        key = (module.__name__, tuple((i, d) for i, d in enumerate(data) if i not in arrays))
        fn = self._compiled.get(key)
        if fn is None:
            def program(*args):
                full = list(data)
                for i, a in zip(arrays, args):
                    full[i] = a
                return module.kernel(self.xp, *full)
            fn = self._compiled[key] = self._compile(program)
        try:
            return fn(*[data[i] for i in arrays])
        except Exception as e:  # noqa: BLE001  an untraceable program runs eagerly, and says so
            self._failed[module.__name__] = f"{type(e).__name__}: {e}".splitlines()[0][:200]
            return module.kernel(self.xp, *data)

    def mode(self, module):
        if module.__name__ in self._failed:
            return f"eager ({self.compiler} failed: {self._failed[module.__name__]})"
        return self.compiler if getattr(module, "JIT", False) else "eager"


class Jax(_Compiled, Library):
    """jax.numpy with 64-bit types (jax_enable_x64 before any array is made), on its default
    device (the GPU where jax sees one). Programs with ``JIT = True`` run as one jax.jit of
    the program; others eagerly, one dispatch per operation. Programs that write into arrays
    (``IN_PLACE = True``) cannot run: JAX arrays are immutable."""
    name = "jax"
    compiler = "jit"

    def __init__(self):
        super().__init__()
        os.environ["JAX_ENABLE_X64"] = "1"  # read at import; the config call below also sets it
        import jax
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        self.jax, self.xp = jax, jnp

    def _is_array(self, d):
        return isinstance(d, self.jax.Array)

    def _compile(self, fn):
        return self.jax.jit(fn)

    def asarray(self, host):
        return self.jax.device_put(host)

    def supports(self, module):
        if getattr(module, "IN_PLACE", False):
            return False, "writes into slices of its arrays (JAX arrays are immutable)"
        return True, ""

    def sync(self, result):
        self.jax.block_until_ready(result)


class TorchCompile(_Compiled, Torch):
    """PyTorch through torch_shim, programs with ``JIT = True`` compiled by torch.compile
    (TorchInductor); others eagerly, as "torch"."""
    name = "torch-compile"
    compiler = "torch.compile"

    def _is_array(self, d):
        return self.torch.is_tensor(d)

    def _compile(self, fn):
        return self.torch.compile(fn)


class VkArrayJit(_Compiled, VkArray):
    """vkarray with programs that declare ``JIT = True`` called through vk.jit: recorded at the
    first call, their graph replayed without their Python afterwards, as jax.jit does for JAX;
    others exactly as "vkarray". The results stay lazy until sync() evaluates them."""
    name = "vkarray-jit"
    compiler = "vk.jit"

    def _is_array(self, d):
        return isinstance(d, self.xp.ndarray)

    def _compile(self, fn):
        return self.xp.jit(fn)


LIBRARIES = {"numpy": Library, "vkarray": VkArray, "vkarray-jit": VkArrayJit, "cupy": CuPy,
             "torch": Torch, "jax": Jax, "torch-compile": TorchCompile}
GPU_PEERS = ("vkarray", "vkarray-jit", "cupy", "torch", "torch-compile", "jax")


def share_the_device(lib_names):
    """Before any library is loaded: JAX takes most of the GPU's memory at its first array
    unless told not to, which starves a CuPy, PyTorch or vkarray in the same process."""
    if "jax" in lib_names and any(n in GPU_PEERS and n != "jax" for n in lib_names):
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")


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
