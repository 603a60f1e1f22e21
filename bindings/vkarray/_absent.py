"""numpy's names that vkarray leaves out on purpose, each with the reason: the generated list
of docs/differences_from_numpy.md prints them (bindings/tools/gen_api_docs.py), and
numpy's protocols name the reason when such a function is called on a vkarray array."""

_SUBCLASS_HOOKS = ("vkarray's operations return vkarray.ndarray, never a subclass, and numpy's "
                   "functions reach vkarray through __array_function__/__array_ufunc__, so "
                   "numpy's subclass hooks would never be called")
_HOST_MEMORY = ("host-memory protocols, and a device array has no host memory: numpy.asarray(x) "
                "uses __array__ (a download), other libraries __dlpack__")

# numpy.ndarray's attributes and methods: name → reason.
NDARRAY = {
    "__array_finalize__": _SUBCLASS_HOOKS,
    "__array_prepare__": _SUBCLASS_HOOKS,
    "__array_wrap__": _SUBCLASS_HOOKS,
    "__array_interface__": _HOST_MEMORY,
    "__array_struct__": _HOST_MEMORY,
}

# numpy's functions and classes (top-level namespace and numpy.linalg, numpy.fft,
# numpy.random under "linalg.", "fft.", "random."): name → reason.
FUNCTIONS = {}


def reason(name):
    """Why vkarray leaves numpy's `name` out (None when it is not left out on purpose)."""
    return FUNCTIONS.get(name)
