"""kiln.linalg: numpy.linalg's and the array API's linear algebra, and
cupyx.linalg's ``invh`` and ``cho_solve`` (``cupyx`` is ``kiln``, so the two
``linalg`` modules are one here). Products are kiln matmuls (cuBLAS on the
GPU, the CPU's BLAS); decompositions are LAPACK on the CPU and cuSOLVER on
the GPU."""
from .._numpy.manipulation.shape import diagonal as _diagonal, matrix_transpose  # noqa: F401
from .._numpy.products import cross, matmul, multi_dot, outer, tensordot, trace as _trace, vecdot  # noqa: F401
from ._decompositions import (  # noqa: F401
    EighResult, QRResult, SlogdetResult, SVDResult, cholesky, det, eigh, eigvalsh, inv, lstsq, matrix_power,
    matrix_rank, pinv, qr, slogdet, solve, svd, svdvals,
)
from ._general_eigen import EigResult, eig, eigvals  # noqa: F401
from ._norms import cond, matrix_norm, norm, vector_norm  # noqa: F401
from ._tensor_solve import tensorinv, tensorsolve  # noqa: F401
from ._cupyx_solve import cho_solve, invh  # noqa: F401  (cupyx.linalg's)


def __getattr__(name):
    if name == "LinAlgError":  # NumPy's, loaded when first named (import kiln stays NumPy-free)
        from numpy.linalg import LinAlgError

        return LinAlgError
    raise AttributeError(f"module 'kiln.linalg' has no attribute {name!r}")


def diagonal(x, /, *, offset=0):
    """The array API's diagonal: of the last two axes."""
    return _diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """The array API's trace: of the last two axes."""
    return _trace(x, offset, -2, -1, dtype)
