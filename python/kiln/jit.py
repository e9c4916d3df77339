"""CuPy's Python kernel language (``cupyx.jit``): a function decorated with
``@jit.rawkernel()`` is a kernel launched as ``kernel(grid, block, args)``
(or ``kernel[grid, block](*args)``), written with ``jit.threadIdx``,
``jit.grid(1)``, ``jit.shared_memory(dtype, size)``, ``jit.syncthreads()``,
``jit.atomic_add(a, i, v)`` and the rest.

It is translated by kiln's kernel compiler, the one behind ``kiln.cuda.jit``,
so it runs on the GPU and, compiled by the host compiler, on the CPU, with
CuPy's typing: integer arithmetic promotes as NumPy's (int32 + int32 is
int32, where Numba's is int64). The
compiler finds a construct by the object an expression names, so the names
here are the same objects as ``kiln.cuda``'s.
"""
import builtins

from ._jit.dispatcher import Dispatcher as _Dispatcher
from ._numba_cuda import kernel_language as _K

threadIdx, blockIdx, blockDim, gridDim = _K.threadIdx, _K.blockIdx, _K.blockDim, _K.gridDim
grid, gridsize, laneid, warpsize = _K.grid, _K.gridsize, _K.laneid, _K.warpsize
syncthreads, syncwarp, shared_memory = _K.syncthreads, _K.syncwarp, _K.shared_memory
shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync = (_K.shfl_sync, _K.shfl_up_sync, _K.shfl_down_sync,
                                                          _K.shfl_xor_sync)
atomic_add, atomic_sub, atomic_exch = _K.atomic.add, _K.atomic.sub, _K.atomic.exch
atomic_min, atomic_max, atomic_inc, atomic_dec = _K.atomic.min, _K.atomic.max, _K.atomic.inc, _K.atomic.dec
atomic_cas, atomic_and, atomic_or, atomic_xor = _K.atomic.cas, _K.atomic.and_, _K.atomic.or_, _K.atomic.xor
# CuPy's jit.range takes unroll hints; the loop itself is Python's range.
range = builtins.range


class _RawKernel:
    """A ``@rawkernel()`` kernel: CuPy's call form over kiln.cuda.jit's launch."""

    def __init__(self, func):
        self._dispatcher = _Dispatcher(func, numba_integers=False)
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        if not isinstance(args, tuple):
            raise TypeError(f"{self.__name__}: args must be a tuple of the kernel's arguments, "
                            f"got {type(args).__name__}")
        return self._dispatcher[grid, block, stream or 0, shared_mem](*args)

    def __getitem__(self, config):
        return self._dispatcher[config]


def rawkernel(*, mode="cuda", device=False):
    """CuPy's decorator: a kernel, or with ``device=True`` a device function
    that kernels call."""
    if mode != "cuda":
        raise ValueError(f"mode: kiln's jit has the 'cuda' mode only, got {mode!r}")

    def wrap(func):
        return _Dispatcher(func, device=True, numba_integers=False) if device else _RawKernel(func)

    return wrap
