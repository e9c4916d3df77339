"""kiln.cuda: CUDA devices, streams, events and memory.

Nothing here loads the CUDA driver until it is first asked something; on a
machine without a GPU ``is_available()`` is False and the rest raises
``CUDAError``.
"""
from ._backend import CUDAError, OutOfMemoryError
from .device import Device, detect, device_count, get_device_id, is_available, synchronize
from .memory import (MemoryPool, PinnedMemoryPointer, PinnedMemoryPool, alloc_pinned_memory,
                     get_default_memory_pool, get_default_pinned_memory_pool)
from .stream import Event, ExternalStream, Stream, get_current_stream, get_elapsed_time
from .kernel_language import (  # noqa: F401  (Numba's kernel language, translated by jit)
    all_sync, any_sync, atomic, ballot_sync, blockDim, blockIdx, const, fma, grid, gridDim, gridsize, laneid, local,
    shared, shfl_down_sync, shfl_sync, shfl_up_sync, shfl_xor_sync, syncthreads, syncthreads_and,
    syncthreads_count, syncthreads_or, syncwarp, threadfence, threadfence_block, threadfence_system, threadIdx,
    warpsize,
)
from .numba_arrays import (  # noqa: F401
    default_stream, device_array, device_array_like, event, get_current_device, gpus, pinned_array, select_device,
    stream, to_device,
)
from .._jit.errors import PerformanceWarning, TypingError, UnsupportedError  # noqa: F401


def jit(func_or_sig=None, **options):
    """Numba's ``@cuda.jit`` (see kiln/_jit/dispatcher.py; imported on first use,
    which keeps ``import kiln`` free of NumPy)."""
    from .._jit.dispatcher import jit as make

    return make(func_or_sig, **options)

