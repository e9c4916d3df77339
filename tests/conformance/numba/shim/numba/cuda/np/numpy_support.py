"""``numba.np.numpy_support``: Numba types from and to NumPy dtypes, NumPy's
version, and the
pointer-array constructors (kiln's kernel language names them to refuse them)."""
from kiln._numba_cuda.kernel_language import carray, farray  # noqa: F401
from kiln.cuda.types import as_dtype, from_dtype  # noqa: F401
import numpy as _np

numpy_version = tuple(int(x) for x in _np.__version__.split(".")[:2])
