"""Numba's threading API (``set_num_threads``, ``get_num_threads``,
``get_thread_id``, ``set_parallel_chunksize``, ``get_parallel_chunksize``,
``parallel_chunksize``): the threads, and the chunk size, of the prange loops
of ``parallel=True`` functions. They are OpenMP's settings of the calling
thread (its ICVs, which those loops read; include/kiln/device/
jit_numba_threads.cuh says how a chunk size is kept there), so each thread
has its own, as in Numba. Called in an @njit function they compile to the
same settings (_jit/constructs/numba_threads.py)."""
import contextlib
import ctypes
import ctypes.util
import os


def _openmp():
    """The OpenMP runtime kiln's CPU code uses (libgomp; the process loaded
    it with kiln's extension, so this is the same library)."""
    from .. import _core  # noqa: F401  (loads the runtime)

    for name in ("libgomp.so.1", ctypes.util.find_library("gomp"), "libomp.so", "libiomp5.so"):
        if name:
            try:
                return ctypes.CDLL(name)
            except OSError:
                continue
    raise ImportError("kiln.numba's threading API needs the OpenMP runtime (libgomp), which was not found")


_omp = None
_DYNAMIC_MONOTONIC = 2 | 0x80000000  # omp_sched_dynamic | omp_sched_monotonic: a chunk size kiln set
_STATIC = 1


def _runtime():
    global _omp
    if _omp is None:
        _omp = _openmp()
        _omp.omp_set_schedule.argtypes = [ctypes.c_uint, ctypes.c_int]
        _omp.omp_get_schedule.argtypes = [ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_int)]
    return _omp


def _default_threads():
    """NUMBA_NUM_THREADS where set, else the threads OpenMP starts with."""
    env = os.environ.get("NUMBA_NUM_THREADS")
    return int(env) if env else _runtime().omp_get_max_threads()


NUMBA_NUM_THREADS = None  # the most threads a loop may use: read at the first call


def _limit():
    global NUMBA_NUM_THREADS
    if NUMBA_NUM_THREADS is None:
        NUMBA_NUM_THREADS = _default_threads()
    return NUMBA_NUM_THREADS


def _check_int(value, what):
    import numpy as np

    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
    return int(value)


def set_num_threads(n):
    """The threads this thread's prange loops use from now on (1 to NUMBA_NUM_THREADS)."""
    n = _check_int(n, "The number of threads")
    if not 1 <= n <= _limit():
        raise ValueError(f"The number of threads must be between 1 and {_limit()}")
    _runtime().omp_set_num_threads(n)


def get_num_threads():
    """The threads this thread's prange loops use."""
    _limit()
    return int(_runtime().omp_get_max_threads())


def get_thread_id():
    """This thread's number in the loop it runs (0 outside one)."""
    return int(_runtime().omp_get_thread_num())


def get_parallel_chunksize():
    """The iterations a thread takes at a time in this thread's prange
    loops; 0: the iterations divided evenly between the threads."""
    kind, chunk = ctypes.c_uint(), ctypes.c_int()
    _runtime().omp_get_schedule(ctypes.byref(kind), ctypes.byref(chunk))
    return chunk.value if kind.value == _DYNAMIC_MONOTONIC else 0


def set_parallel_chunksize(n):
    """Sets the chunk size of this thread's prange loops (0: even division);
    returns the one it replaces."""
    n = _check_int(n, "The parallel chunksize")
    if n < 0:
        raise ValueError("chunksize must be greater than or equal to zero")
    old = get_parallel_chunksize()
    if n > 0:
        _runtime().omp_set_schedule(_DYNAMIC_MONOTONIC, n)
    else:
        _runtime().omp_set_schedule(_STATIC, 0)
    return old


@contextlib.contextmanager
def parallel_chunksize(n):
    """The chunk size inside the with block, the one before it after."""
    old = set_parallel_chunksize(n)
    try:
        yield
    finally:
        set_parallel_chunksize(old)
