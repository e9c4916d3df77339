"""Numba's top level for kiln: porting Numba code is changing ``numba`` to
``kiln.numba``. ``kiln.numba.cuda`` is kiln.cuda; ``njit``/``jit`` compile a
function for the host (cpu_dispatcher.py), and the same function called
from a ``@cuda.jit`` kernel compiles there as a device function; Numba's
scalar types (``float32``, ``int64``, ``void``...) are kiln.cuda's.

What runs is Numba's nopython language as kiln's CUDA translator knows it
(README's "Numba's CPU compiler"): loops, scalars with Numba's typing,
math/cmath, indexing and slicing of the arrays passed in, calls between
compiled functions, arrays made inside. A ``parallel=True`` function splits
its ``prange`` loops over the CPU's threads, with Numba's reductions;
Numba's threading API (set_num_threads, set_parallel_chunksize...) sets
the threads and the chunk size of those loops."""
import sys as _sys

from .. import cuda  # noqa: F401
from .._numba_cuda import types  # noqa: F401
from .._numba_cuda.types import *  # noqa: F401,F403  (float32, int64, void, ...)
from .._numba_cuda.kernel_language import literal_unroll, literally  # noqa: F401
from ..cuda import typeof  # noqa: F401
from .._numba_cuda.numba_threads import (get_num_threads, get_parallel_chunksize, get_thread_id,  # noqa: F401
                                         parallel_chunksize, set_num_threads, set_parallel_chunksize)
from .cpu_dispatcher import CPUDispatcher, jit, njit, prange  # noqa: F401

# ``import kiln.numba.cuda`` is kiln.cuda itself, not a second copy of it.
_sys.modules[__name__ + ".cuda"] = cuda


def __getattr__(name):
    if name in ("vectorize", "guvectorize"):  # Numba's ufunc builders (their CUDA target is kiln.cuda's)
        return getattr(cuda, name)
    raise AttributeError(f"module 'kiln.numba' has no attribute {name!r}")
