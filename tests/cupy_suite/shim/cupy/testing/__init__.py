"""cupy.testing for CuPy's test suite run against vkarray: the decorators and helpers the tests
use, written from their documented behaviour (each runs a test with numpy and with vkarray)."""

from . import _array  # noqa: F401
from . import _attr  # noqa: F401
from . import _condition  # noqa: F401
from . import _hypothesis  # noqa: F401
from . import _loops  # noqa: F401
from . import _parameterized  # noqa: F401
from . import _random  # noqa: F401
from ._array import (assert_allclose, assert_almost_equal, assert_array_almost_equal,  # noqa
                     assert_array_almost_equal_nulp, assert_array_equal,
                     assert_array_less, assert_array_list_equal, assert_array_max_ulp)
from ._attr import multi_gpu, slow  # noqa: F401
from ._compare import (numpy_cupy_allclose, numpy_cupy_array_almost_equal,  # noqa: F401
                       numpy_cupy_array_almost_equal_nulp, numpy_cupy_array_equal,
                       numpy_cupy_array_less, numpy_cupy_array_list_equal,
                       numpy_cupy_array_max_ulp, numpy_cupy_equal, numpy_cupy_raises)
from ._helper import (AssertFunctionIsCalled, NumpyAliasBasicTestBase,  # noqa: F401
                      NumpyAliasTestBase, NumpyAliasValuesTestBase, assert_warns)
from ._loops import (for_all_dtypes, for_all_dtypes_combination, for_CF_orders,  # noqa: F401
                     for_complex_dtypes, for_contiguous_axes, for_dtypes,
                     for_dtypes_combination, for_float_dtypes, for_float_dtypes_combination,
                     for_int_dtypes, for_int_dtypes_combination, for_orders,
                     for_signed_dtypes, for_signed_dtypes_combination, for_unsigned_dtypes,
                     for_unsigned_dtypes_combination)
from ._parameterized import parameterize, product, product_dict  # noqa: F401
from ._random import (fix_random, generate_seed, shaped_arange, shaped_linspace,  # noqa
                      shaped_random, shaped_reverse_arange, shaped_sparse_random)
from ._requires import installed, numpy_satisfies, with_requires  # noqa: F401
