"""kiln.linalg: numpy.linalg's and the array API's linear algebra. Products
are kiln matmuls (cuBLAS on the GPU, the CPU's BLAS); decompositions are
LAPACK on the CPU and cuSOLVER on the GPU."""
from .._core import LinAlgError  # noqa: F401
from .._manipulation import diagonal as _diagonal, matrix_transpose  # noqa: F401
from .._products import matmul, outer, tensordot, trace as _trace, vecdot  # noqa: F401


def diagonal(x, /, *, offset=0):
    """The array API's diagonal: of the last two axes."""
    return _diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """The array API's trace: of the last two axes."""
    return _trace(x, offset, -2, -1, dtype)
