"""``numba.np.numpy_support`` is the CUDA tests' numba.cuda.np.numpy_support (one module)."""
import sys as _sys

from ..cuda.np import numpy_support as _same

_sys.modules[__name__] = _same
