"""CuPy's public testing module (``cupy.testing``) for kiln: assertions that
take kiln and NumPy arrays alike, decorators that run a test once with kiln
and once with NumPy and compare what the two return, dtype and order loops,
and the array makers CuPy's and downstream libraries' tests build inputs
with. Programs and test suites that ``import cupy.testing`` run unchanged
with ``cupy`` mapped to kiln.

Each helper runs where its arrays live: on a machine without a GPU, kiln's
side of a comparison runs on the CPU backend."""
from .assertions import (assert_allclose, assert_array_almost_equal, assert_array_almost_equal_nulp,  # noqa: F401
                         assert_array_equal, assert_array_less, assert_array_list_equal, assert_array_max_ulp)
from .compare import (numpy_cupy_allclose, numpy_cupy_array_almost_equal,  # noqa: F401
                      numpy_cupy_array_almost_equal_nulp, numpy_cupy_array_equal, numpy_cupy_array_less,
                      numpy_cupy_array_list_equal, numpy_cupy_array_max_ulp, numpy_cupy_equal, numpy_cupy_raises)
from .loops import (for_all_dtypes, for_all_dtypes_combination, for_CF_orders, for_complex_dtypes,  # noqa: F401
                    for_contiguous_axes, for_dtypes, for_dtypes_combination, for_float_dtypes, for_int_dtypes,
                    for_int_dtypes_combination, for_orders, for_signed_dtypes, for_signed_dtypes_combination,
                    for_unsigned_dtypes, for_unsigned_dtypes_combination)
from .makers import (generate_matrix, shaped_arange, shaped_linspace, shaped_random,  # noqa: F401
                     shaped_reverse_arange, shaped_sparse_random)
from .marks import multi_gpu, slow, with_requires, installed, numpy_satisfies  # noqa: F401
from .parameterized import parameterize, product, product_dict  # noqa: F401
from .helpers import (AssertFunctionIsCalled, NumpyAliasBasicTestBase, NumpyAliasValuesTestBase,  # noqa: F401
                      assert_warns, fix_random, generate_seed)
