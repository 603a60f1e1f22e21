"""Why each remaining failure of CuPy's suite on vkarray fails: (pattern, kind, reason) rules
that summarize.py --failures matches against each failure's message and node id (the first
rule that matches wins). docs/conformance.md's table of remaining failures is its output.

Kinds: "difference" (a documented difference from numpy 1.24 or CuPy), "device" (a limit of
the device), "defect" (a vkarray defect, tracked here until fixed)."""

import re

RULES = [
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
    (r"\[vectorize\] .* failed on whole arrays", "difference",
     "vectorize calls the function once, on whole device arrays (array operations, run on the "
     "device); Python control flow on element values (if, for, comparisons to a number) needs "
     "a host loop per element, which vkarray does not run (CuPy compiles it to CUDA)"),
    (r"'RandomState' object has no attribute '_interval'|vkarray\.random has no attribute "
     r"'(reset_states|get_random_state|set_random_state|XORWOW)'|RandomState.__init__\(\) got "
     r"an unexpected keyword argument 'method'", "difference",
     "CuPy's own random API (RandomState's private _interval, method=, get/set_random_state, "
     "reset_states): no numpy counterpart"),
    (r"TestFlatiterSubscriptIndexError", "difference",
     "CuPy's flat takes slices only; numpy's (and vkarray's) also takes integers, masks and "
     "index arrays"),
    (r"test_adv_(get|set)item_cupy_indices", "difference",
     "CuPy wraps index arrays out of range; numpy (and vkarray) raise IndexError"),
    (r"has no attribute 'toDlpack'|dltensor_versioned", "difference",
     "CuPy's legacy toDlpack, and DLPack 1.0's versioned capsule, which numpy 1.24's export "
     "(vkarray's host copy) does not make"),
    (r"vkarray has no attribute 'polynomial'|polynomial_tests/", "defect",
     "numpy.polynomial (the Polynomial class and polyutils) is not implemented"),
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
    (r"property of 'ndarray' object has no setter|test_(real|imag)(_ndarray)?_complex\b|"
     r"test_(real|imag)_inplace|TestRealImag::test_(real|imag)_setter", "defect",
     "x.real and x.imag of a complex array are computed arrays, not writable views of its parts "
     "(numpy's real.base is x; assigning to them)"),
    (r"test_einsum_unary_views", "defect",
     "a view's base is an equal new Python object, not the owner's own (b.base is a is False; "
     "numpy.shares_memory(b, a) is True): the views einsum returns are checked with `is`"),
    (r"mode 'raw' is not supported", "defect",
     "linalg.qr(mode='raw') (LAPACK's Householder form)"),
    # Device limits.
    (r"\[ndarray\.data\] a vkarray array lives in device memory", "device",
     "ndarray.data is a host memory buffer; a vkarray array lives in device memory "
     "(np.asarray(x) and x.tobytes() copy it to the host)"),
    (r"export always copies to the host, so copy=False cannot be honored|DID NOT RAISE <class "
     r"'BufferError'>", "device",
     "DLPack export is a host copy of device memory: copy=False cannot be honored (the "
     "standard's BufferError)"),
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
