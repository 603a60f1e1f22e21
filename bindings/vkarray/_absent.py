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

_DATETIME = "vkarray has no datetime64 or timedelta64 dtypes (Vulkan compute has no such types)"
_STRINGS = ("vkarray has no string, bytes, object or structured dtypes: a Vulkan buffer holds "
            "numbers")
_EXTENDED = ("vkarray's devices have no extended precision: the widest dtypes are float64 and "
             "complex128 (longdouble is numpy's x87 80-bit type)")
_MATRIX = ("numpy.matrix is a subclass numpy itself discourages; vkarray.ndarray has no "
           "subclasses (use 2-d arrays and @)")
_NUMPY_INTERNALS = ("part of numpy's own machinery for numpy's C objects (docstrings, "
                    "operators, array wrapping), with nothing to act on in vkarray")
_ITERATORS = ("numpy's C iterators over host memory (element pointers, buffering, "
              "external loops); vkarray's whole-array operations run on the device, and "
              "vkarray.ndindex/flat iterate indices and values")
_HOST_ONLY = ("host memory by definition (a memory-mapped file); vkarray.load copies a file's "
              "values to the device")

# numpy's functions and classes (top-level namespace and numpy.linalg, numpy.fft,
# numpy.random under "linalg.", "fft.", "random."): name → reason.
FUNCTIONS = {
    **dict.fromkeys(["busday_count", "busday_offset", "is_busday", "datetime_as_string",
                     "datetime_data", "isnat", "busdaycalendar", "datetime64",
                     "timedelta64"], _DATETIME),
    **dict.fromkeys(["compare_chararrays", "chararray", "recfromcsv", "recfromtxt", "fromregex",
                     "recarray", "record", "format_parser", "object_", "str_", "string_",
                     "unicode_", "bytes_", "void"], _STRINGS),
    **dict.fromkeys(["longdouble", "longfloat", "float128", "clongdouble", "clongfloat",
                     "complex256", "longcomplex"], _EXTENDED),
    **dict.fromkeys(["asmatrix", "bmat", "mat", "matrix"], _MATRIX),
    **dict.fromkeys(["add_docstring", "add_newdoc", "add_newdoc_ufunc", "set_numeric_ops",
                     "get_array_wrap"], _NUMPY_INTERNALS),
    "get_include": ("the directory of numpy's C headers, for C extensions that use numpy's C "
                    "API; vkarray's C++ API is a Bazel library (docs/api.md), not headers "
                    "installed with the Python package"),
    "byte_bounds": ("the host addresses of an array's first and last bytes, and a vkarray "
                    "array's memory is a device buffer with no host address (may_share_memory "
                    "and shares_memory compare device layouts)"),
    "frompyfunc": ("it makes an object-dtype ufunc calling a Python function per element on "
                   "the host: vkarray has no object dtype; vkarray.vectorize runs the function "
                   "on whole device arrays"),
    **dict.fromkeys(["nditer", "nested_iters"], _ITERATORS),
    "memmap": _HOST_ONLY,
}


def reason(name):
    """Why vkarray leaves numpy's `name` out (None when it is not left out on purpose)."""
    return FUNCTIONS.get(name)
