"""The name-only shim Numba's CUDA tests run through: ``numba`` here is only
what those tests import from the top-level package, each name mapped to
kiln's (``numba.cuda`` is kiln.cuda, ``numba.float32`` kiln.cuda.float32).
Numba's CPU compiler (``njit``) kiln does not have: a test file that imports
it fails to import, as it would for a user."""
import kiln.cuda as _kiln_cuda
from kiln.cuda import types  # noqa: F401
from kiln.cuda.types import *  # noqa: F401,F403  (Numba's scalar types: float32, int32, void...)

from . import cuda  # noqa: F401
from .cuda.core import errors  # noqa: F401

_FROM_KILN_CUDA = {"vectorize", "guvectorize", "typeof"}


def __getattr__(name):
    if name in _FROM_KILN_CUDA:
        return getattr(_kiln_cuda, name)
    raise AttributeError(f"module 'numba' (kiln's shim) has no attribute {name!r}")
