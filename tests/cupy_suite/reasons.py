"""Why each remaining failure of CuPy's suite on vkarray fails: (pattern, kind, reason) rules
that summarize.py --failures matches against each failure's message and node id (the first
rule that matches wins). docs/conformance.md's table of remaining failures is its output.

Kinds: "elsewhere" (a feature being added on another branch), "difference" (a documented
difference from numpy 1.24 or CuPy), "device" (a limit of the device), "defect" (a vkarray
defect, tracked here until fixed)."""

import re

# ndarray attributes and methods, and numpy names, being added on another branch.
_ELSEWHERE_ATTRS = ("flags", "strides", "base", "data", "flat", "itemset", "searchsorted", "take",
                    "choose", "repeat", "conj", "conjugate", "trace", "dump", "dumps", "tobytes",
                    "tofile", "put", "nonzero", "compress", "round", "clip", "dot", "view",
                    "resize", "fill", "setflags", "ctypes", "byteswap", "newbyteorder")
_ELSEWHERE_NAMES = ("frexp", "ldexp", "nextafter", "spacing", "packbits", "unpackbits",
                    "poly", "poly1d", "polyadd", "polysub", "polymul", "polyval", "polyder",
                    "polyint", "polydiv", "roots", "eig", "eigvals", "vectorize", "errstate",
                    "floating", "integer", "int_", "float_", "complex_", "double", "single",
                    "intp", "uintp", "number", "generic", "signedinteger", "unsignedinteger",
                    "inexact", "complexfloating", "character", "isfortran", "may_share_memory",
                    "shares_memory", "byte_bounds")

RULES = [
    # Features being added on other branches.
    (r"object has no attribute '(" + "|".join(_ELSEWHERE_ATTRS) + r")'", "elsewhere",
     "ndarray attributes and methods (names branch)"),
    (r"vkarray(\.linalg)? has no attribute '(" + "|".join(_ELSEWHERE_NAMES) + r")'",
     "elsewhere", "numpy names being added on the names branch"),
    (r"No constructor defined|property of 'ndarray' object has no setter", "elsewhere",
     "the ndarray constructor and settable shape (names branch)"),
    (r"random_tests/test_distributions|vkarray\.random has no attribute|'(Generator|"
     r"RandomState)' object has no attribute", "elsewhere",
     "numpy.random distributions (random branch)"),
    # Documented differences.
    (r"unexpected keyword argument '(blocking|stream)'", "difference",
     "CuPy's own keyword (no numpy counterpart)"),
    (r"(argmin|argmax)\(\): incompatible function arguments", "difference",
     "CuPy's own dtype= of argmin/argmax (no numpy counterpart)"),
    (r"has no attribute '(alltrue|sometrue|msort|round_|product|cumproduct|asfarray)'",
     "difference", "numpy 1.x's deprecated aliases, removed in numpy 2; vkarray has the new names"),
    (r"has no attribute '(AxisError|ComplexWarning|ModuleDeprecationWarning|RankWarning|"
     r"TooHardError|VisibleDeprecationWarning|who)'", "difference",
     "numpy 1.x's top-level exceptions and host utilities: numpy 2 moved the exceptions to "
     "numpy.exceptions and removed who"),
    (r"NotImplementedError not raised|DID NOT RAISE <class 'NotImplementedError'>",
     "difference", "CuPy raises NotImplementedError where numpy (and vkarray) compute"),
    (r"matrix directive|no matrix type", "difference", "numpy.matrix does not exist in vkarray"),
    (r"only order='C' is supported|order='F': vkarray arrays are C-ordered", "difference",
     "reshape/ravel/ufunc results are C-ordered (only creation takes order='F')"),
    (r"vkarray has no attribute 'broadcast'", "difference",
     "vkarray.broadcast is its replicas' collective (multi-device API), not numpy's broadcast "
     "object; broadcast_shapes and broadcast_arrays do that work"),
    (r"vkarray has no attribute 'polynomial'|polynomial_tests/|lib_tests/test_polynomial",
     "elsewhere",
     "numpy.polynomial and the poly family (names branch)"),
    (r"functional_tests/test_vectorize", "elsewhere", "vectorize (names branch)"),
    (r"test_rounding.py::TestRounding::test_(ceil|floor|trunc|fix)\b", "difference",
     "numpy 2: floor/ceil/trunc of integers keep the integer dtype (numpy 1.24 gives floats)"),
    (r"test_misc.py::TestMisc::test_sign(_negative)?\b", "difference",
     "numpy 2: sign of a complex number is z/|z| (numpy 1.24: the sign of the real part)"),
    (r"\[rfftn\] at least one axis|\[irfftn\] at least one axis", "difference",
     "numpy 2's ValueError for rfftn over no axes (numpy 1.24: IndexError)"),
    (r"calling nonzero on a 0-d array|calling nonzero on a N-d array", "difference",
     "numpy 2: nonzero of a 0-d array is an error (numpy 1.24 deprecates it)"),
    (r"test_count.py::TestCount::test_count_nonzero", "difference",
     "CuPy's own assertion: count_nonzero returns a 0-d array (vkarray returns numpy's int)"),
    (r"Python integer -?\d+ out of bounds|Python integer N out of bounds", "difference",
     "numpy 2 (NEP 50): a Python int that does not fit the array's dtype is an OverflowError "
     "(numpy 1.24 widens the result)"),
    (r"TestQuantileMethods::test_(percentile|quantile)_overwrite", "difference",
     "overwrite_input=True lets numpy and CuPy use the input as scratch space; vkarray "
     "leaves it unchanged (numpy's contract allows either)"),
    (r"test_(percentile|quantile)_scalar_q|test_real_if_close", "difference",
     "numpy 2 (NEP 50) promotion: numpy 1.24 inspects the values of scalars"),
    (r"XPASS\(strict\)", "difference",
     "tests CuPy expects to fail (its own differences from numpy) pass: vkarray gives numpy's "
     "answer, and CuPy's xfail marks are strict"),
    (r"RaisesWithNumpyInput|test_cum(sum|prod)_(numpy_array|arraylike)|ImplicitConversion|"
     r"test_binary_mixed_op|test_numpy_interop.py::TestArrayUfunc", "difference",
     "vkarray takes numpy arrays and sequences as operands (uploading them); CuPy refuses them "
     "with TypeError"),
    (r"TestArrayObjectComparison", "difference",
     "comparison with an arbitrary Python object: vkarray returns False/True as Python's "
     "fallback (numpy an object-dtype array, which vkarray does not have)"),
    (r"(elementwise_op|type_routines|test_elementwise|TestArrayElementwiseOp|TestResultType|"
     r"TestCanCast).*\n.*dtype|results differ: vkarray dtype", "difference",
     "numpy 2 (NEP 50) promotion: numpy 1.24 inspects the values of scalars"),
    # Defects: features vkarray lacks so far.
    (r"name='angle'|TestAngle", "defect",
     "angle of integer arrays is float64 (numpy: the float dtype of arctan2's loop)"),
    (r"boolean scalar indices", "defect", "boolean scalar indices (x[True], x[False])"),
    (r"(astype|copy)\(\): incompatible function arguments", "defect",
     "ndarray.astype and copy take no order= (nor astype casting=/subok=) yet"),
    (r"\[(nanmin|nanmax|ptp|maximum|minimum|fmax|fmin|max|min|argmax|argmin)\] not "
     r"supported for dtype complex", "defect",
     "maximum/minimum and their reductions (max, min, ptp, nanmax, ...) of complex numbers"),
    (r"equal_nan=False is not supported", "defect", "unique(equal_nan=False)"),
    (r"mode 'raw' is not supported", "defect",
     "linalg.qr(mode='raw') (LAPACK's Householder form)"),
    (r"\[pad\] (mode '(maximum|minimum|mean|median|linear_ramp)'|mode <function|unsupported "
     r"keyword arguments)", "defect",
     "pad's statistic modes (maximum, minimum, mean, median), linear_ramp, reflect_type= and "
     "callable modes"),
    # Device limits.
    (r"MemoryError|_ArrayMemoryError|cannot allocate", "device",
     "needs more memory than the device (or the host's numpy) has"),
    (r"timed out \(--vka-timeout\)", "device",
     "slower than the time limit on lavapipe (CPU Vulkan) with 2 cores"),
]

_COMPILED = [(re.compile(p), kind, reason) for p, kind, reason in RULES]


def classify(message, node_id):
    """(kind, reason) of a failure; ("unclassified", "") when no rule matches: summarize.py
    lists those groups by their error, each a tracked defect of its own."""
    text = f"{node_id}\n{message}"
    for pattern, kind, reason in _COMPILED:
        if pattern.search(text):
            return kind, reason
    return "unclassified", ""
