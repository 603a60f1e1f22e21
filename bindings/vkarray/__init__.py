"""vkarray: lazy GPU arrays on Vulkan compute.

``import vkarray as vk``. Lazy arrays: ``vk.ndarray`` with numpy's operators, the ufuncs
(``vk.add``, ``vk.sin``, ... vkarray.ufunc objects made from the op table, with numpy's
methods), creation functions (``vk.asarray``, ``vk.zeros``, ``vk.arange``, ...), ``vk.eval``
and ``vk.kernel_count``. Expressions run on the device, fused into as few kernels as possible,
when a value is needed. The seed Buffer API stays: ``vk.Buffer``, ``vk.asbuffer``,
``buf.write(data, index=None)``, ``buf.read(index=None)``, and the context functions. dtypes
are numpy's own objects (``vk.float32 is numpy.float32``).

This file only imports: each public name is defined in one module, by numpy's sections below,
and imported here once (tests/python/namespace_test.py checks it).
"""

# Contexts and devices: the seed Buffer API, evaluation, the GEMM configuration.
from . import _devices
from ._devices import (  # noqa: F401, A004
    Buffer, Context, Device, Replica, asbuffer, context, devices, eval, gemm_config, kernel_count,
    list_devices, make_context, set_context, set_gemm_config, set_gemm_split, synchronize,
)
# dtypes, constants and dtype routines.
from . import _dtypes
from ._dtypes import (  # noqa: F401, A004
    astype, bool, bool_, byte, can_cast, cdouble, cfloat, character, common_type, complex128,
    complex64, complex_, complexfloating, csingle, double, dtype, e, find_common_type, finfo,
    flexible, float16, float32, float64, float_, floating, generic, half, iinfo, inexact, inf,
    int16, int32, int64, int8, int_, intc, integer, intp, isdtype, issctype, issubclass_,
    issubdtype, issubsctype, longlong, maximum_sctype, min_scalar_type, mintypecode, nan,
    newaxis, number, obj2sctype, pi, promote_types, result_type, sctype2char, short,
    signedinteger, single, singlecomplex, typename, ubyte, uint, uint16, uint32, uint64, uint8,
    uintc, uintp, ulonglong, unsignedinteger, ushort,
)
# Array creation.
from . import _creation
from ._creation import (  # noqa: F401, A004
    arange, array, asanyarray, asarray, asarray_chkfinite, ascontiguousarray, asfarray,
    asfortranarray, copy, empty, empty_like, eye, frombuffer, fromiter, full, full_like, identity,
    linspace, ndarray, ones, ones_like, require, zeros, zeros_like,
)
# Numerical ranges and matrices from vectors.
from . import _grids
from ._grids import (  # noqa: F401, A004
    diag, diagflat, fromfunction, geomspace, logspace, meshgrid, tri, tril, triu, vander,
)
# Array manipulation.
from . import _manipulation
from ._manipulation import (  # noqa: F401, A004
    append, atleast_1d, atleast_2d, atleast_3d, block, broadcast_arrays, broadcast_shapes,
    broadcast_to, copyto, delete, expand_dims, fastCopyAndTranspose, flip, fliplr, flipud, insert,
    matrix_transpose,
    moveaxis, ndim, permute_dims, ravel, reshape, resize, rollaxis, shape, size, squeeze,
    swapaxes, transpose, trim_zeros, unstack,
)
# Joining and splitting.
from . import _joining
from ._joining import (  # noqa: F401, A004
    array_split, column_stack, concat, concatenate, dsplit, dstack, hsplit, hstack, row_stack,
    split, stack, vsplit, vstack,
)
# Rearranging and repeating.
from . import _reorder
from ._reorder import (  # noqa: F401, A004
    pad, repeat, roll, rot90, tile,
)
# Views through other strides (numpy.lib.stride_tricks).
from . import _stride_tricks
from ._stride_tricks import (  # noqa: F401, A004
    as_strided, sliding_window_view,
)
# Iterating over arrays.
from . import _flatiter
from ._flatiter import (  # noqa: F401, A004
    broadcast, flatiter, ndenumerate, ndindex,
)
# Indexing routines.
from . import _indexing
from ._indexing import (  # noqa: F401, A004
    c_, choose, compress, diag_indices, diag_indices_from, diagonal, fill_diagonal, indices, ix_,
    mask_indices, mgrid, ogrid, place, put, put_along_axis, putmask, r_, ravel_multi_index,
    select, take, take_along_axis, tril_indices, tril_indices_from, triu_indices,
    triu_indices_from, unravel_index,
)
# The ufunc type.
from . import _ufunc
from ._ufunc import (  # noqa: F401, A004
    ufunc,
)
# Mathematical functions: the op table's ufuncs, round, clip, real, imag, where.
from . import _math
from ._math import (  # noqa: F401, A004
    abs, absolute, acos, acosh, add, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh,
    around, asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_invert, bitwise_left_shift,
    bitwise_not, bitwise_or, bitwise_right_shift, bitwise_xor, ceil, clip, conj, conjugate,
    copysign, cos, cosh, divide, equal, exp, exp2, expm1, floor, floor_divide, fmax, fmin, greater,
    greater_equal, hypot, imag, invert, isfinite, isinf, isnan, left_shift, less, less_equal, log,
    log10, log1p, log2, logical_and, logical_not, logical_or, logical_xor, maximum, minimum, mod,
    multiply, negative, nextafter, not_equal, positive, pow, power, real, reciprocal, remainder,
    right_shift, rint, round, round_, sign, signbit, sin, sinh, sqrt, square, subtract, tan, tanh,
    true_divide, trunc, where,
)
# Mathematical functions composed from the op table.
from . import _math_composed
from ._math_composed import (  # noqa: F401, A004
    angle, cbrt, deg2rad, degrees, divmod, fabs, fix, float_power, fmod, frexp, gcd, heaviside,
    lcm, ldexp, logaddexp, logaddexp2, modf, nan_to_num, rad2deg, radians, real_if_close, sinc,
    spacing,
)
# Sums, products and differences.
from . import _cumulative
from ._cumulative import (  # noqa: F401, A004
    cummax, cummin, cumprod, cumproduct, cumsum, cumulative_prod, cumulative_sum, diff, ediff1d,
    nancumprod, nancumsum, nanprod, nansum, prod, product, sum,
)
# Interpolation, convolution, gradients and integration.
from . import _numeric
from ._numeric import (  # noqa: F401, A004
    convolve, correlate, cross, gradient, interp, trapezoid, trapz, unwrap,
)
# Logic functions.
from . import _logic
from ._logic import (  # noqa: F401, A004
    all, allclose, alltrue, any, array_equal, array_equiv, isclose, iscomplex, iscomplexobj,
    isfortran, isneginf, isposinf, isreal, isrealobj, isscalar, sometrue,
)
# Sorting, searching, counting and sets.
from . import _sorting
from ._sorting import (  # noqa: F401, A004
    argmax, argmin, argpartition, argsort, argwhere, count_nonzero, extract, flatnonzero, in1d,
    intersect1d, isin, lexsort, nanargmax, nanargmin, nonzero, partition, searchsorted, setdiff1d,
    setxor1d, sort, sort_complex, union1d, unique, unique_all, unique_counts, unique_inverse,
    unique_values, msort,
)
# Statistics.
from . import _statistics
from ._statistics import (  # noqa: F401, A004
    amax, amin, average, corrcoef, cov, max, mean, median, min, nanmax, nanmean, nanmedian,
    nanmin, nanpercentile, nanquantile, nanstd, nanvar, percentile, ptp, quantile, std, var,
)
# Histograms.
from . import _histograms
from ._histograms import (  # noqa: F401, A004
    bincount, digitize, histogram, histogram2d, histogram_bin_edges, histogramdd,
)
# Matrix and tensor products.
from . import _products
from ._products import (  # noqa: F401, A004
    dot, einsum, einsum_path, inner, kron, matmul, outer, tensordot, trace, vdot, vecdot,
)
# Polynomials.
from . import _polynomials
from ._polynomials import (  # noqa: F401, A004
    poly, poly1d, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub, polyval,
    roots,
)
# Window functions.
from . import _windows
from ._windows import (  # noqa: F401, A004
    bartlett, blackman, hamming, hanning, i0, kaiser,
)
# Functional programming.
from . import _functional
from ._functional import (  # noqa: F401, A004
    apply_along_axis, apply_over_axes, piecewise, vectorize,
)
# Recorded functions: a function of arrays replayed without its Python (JAX's jit).
from . import _jit
from ._jit import jit  # noqa: F401
# Input and output: printing, DLPack.
from . import _conversions
from ._conversions import (  # noqa: F401, A004
    array2string, array_repr, array_str, base_repr, binary_repr, format_float_positional,
    format_float_scientific, from_dlpack, get_printoptions, printoptions, set_printoptions,
    set_string_function,
)
# Input and output: files (explicit transfers).
from . import _files
from ._files import (  # noqa: F401, A004
    DataSource, fromfile, fromstring, genfromtxt, load, loadtxt, save, savetxt, savez,
    savez_compressed,
)
# Binary operations: packing bits.
from . import _bits
from ._bits import (  # noqa: F401, A004
    packbits, unpackbits,
)
# Floating-point error handling.
from . import _float_errors
from ._float_errors import (  # noqa: F401, A004
    errstate, getbufsize, geterr, geterrcall, geterrobj, setbufsize, seterr, seterrcall,
    seterrobj,
)
# Utilities, memory overlap and help.
from . import _utilities
from ._utilities import (  # noqa: F401, A004
    deprecate, deprecate_with_doc, disp, info, iterable, lookfor, may_share_memory,
    safe_eval, shares_memory, show_config, show_runtime, source, who,
)
# Host arrays and explicit transfers.
from . import _host
from ._host import (  # noqa: F401, A004
    DeviceArray, Event, HostArray, MappedArray, mapped_empty, record_event,
)
# User kernels, sequences and the profiler.
from . import _kernels
from ._kernels import (  # noqa: F401, A004
    Kernel, Profile, Sequence, profile,
)

# The array API's version, inspection namespace and device names.
from ._dtypes import __array_api_version__  # noqa: F401
from ._info import __array_namespace_info__  # noqa: F401

# Submodules: numpy.linalg, numpy.fft and numpy.random on the device; replica operations.
from . import fft, linalg, random  # noqa: F401
from . import _replicas as replicas  # noqa: F401
from ._replicas import replica  # noqa: F401

# numpy's protocols and the ndarray's Python members; then what importing vkarray does once its
# namespace is complete.
from . import _ndarray, _startup  # noqa: F401

__version__ = "0.1.0"
__all__ = [
    *_devices.__all__,
    *_dtypes.__all__,
    *_creation.__all__,
    *_grids.__all__,
    *_manipulation.__all__,
    *_joining.__all__,
    *_reorder.__all__,
    *_stride_tricks.__all__,
    *_flatiter.__all__,
    *_indexing.__all__,
    *_ufunc.__all__,
    *_math.__all__,
    *_math_composed.__all__,
    *_cumulative.__all__,
    *_numeric.__all__,
    *_logic.__all__,
    *_sorting.__all__,
    *_statistics.__all__,
    *_histograms.__all__,
    *_products.__all__,
    *_polynomials.__all__,
    *_windows.__all__,
    *_functional.__all__,
    *_jit.__all__,
    *_conversions.__all__,
    *_files.__all__,
    *_bits.__all__,
    *_float_errors.__all__,
    *_utilities.__all__,
    *_host.__all__,
    *_kernels.__all__,
    "replica",
]
