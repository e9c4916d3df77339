"""The name-only shim Numba's CUDA tests run through: ``numba`` here is only
what those tests import from the top-level package, each name mapped to
kiln's (``numba.cuda`` is kiln.cuda, ``numba.float32`` kiln.cuda.float32,
``numba.njit`` and ``numba.jit`` kiln.numba's CPU compiler)."""
import sys as _sys

# numba-cuda, where installed, sends imports of numba.cuda to its own package
# from a finder it puts on sys.meta_path at startup: set it aside, so that
# numba.cuda is this shim's.
_sys.meta_path[:] = [f for f in _sys.meta_path if "numba_cuda" not in type(f).__module__]

import kiln.cuda as _kiln_cuda  # noqa: E402
from kiln.cuda import types  # noqa: F401,E402
from kiln.cuda.types import *  # noqa: F401,F403,E402  (Numba's scalar types: float32, int32, void...)

from . import cuda, internals  # noqa: F401,E402  (internals: see its docstring)
from .cuda.core import errors  # noqa: F401,E402
from .core import types as _core_types  # noqa: E402

_sys.modules[__name__ + ".types"] = _core_types  # numba.types is numba.core.types

_FROM_KILN_CUDA = {"vectorize", "guvectorize", "typeof"}


def __getattr__(name):
    if name in _FROM_KILN_CUDA:
        return getattr(_kiln_cuda, name)
    import kiln.numba as _kiln_numba

    if hasattr(_kiln_numba, name):
        return getattr(_kiln_numba, name)
    raise AttributeError(f"module 'numba' (kiln's shim) has no attribute {name!r}")
