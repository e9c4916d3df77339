"""kiln.cuda: CuPy's ``cupy.cuda`` and Numba's ``numba.cuda`` in one namespace.

Which file serves which dialect:

=====================  ==========================================================
device.py              both: ``Device``, ``device_count``, ``is_available``,
                       ``synchronize``, ``detect``
stream.py              CuPy's module ``cuda.stream`` (``Stream``, ``ExternalStream``,
                       ``get_current_stream``); called, Numba's ``cuda.stream()``
event.py               ``cuda.Event`` (CuPy); called, Numba's ``cuda.event()``
memory.py              CuPy's ``cuda.memory`` (the device and pinned pools)
runtime.py             CuPy's ``cuda.runtime`` (the runtime API's calls by name)
compiler.py            CuPy's ``cuda.compiler`` (``compile_with_cache``) and Numba's
                       ``compile_ptx``
nvtx.py                CuPy's ``cuda.nvtx`` (marks and ranges)
profiler.py            CuPy's ``cuda.profiler`` (``start``/``stop``; ``cuda.profile()``)
numba_host.py          Numba's host API (``to_device``, ``device_array``, ``gpus``...)
devicearray.py         Numba's ``cuda.devicearray`` (``DeviceNDArray``, ``auto_device``)
kernel_language.py     Numba's kernel language (``grid``, ``shared.array``, ``atomic``...)
random.py              Numba's ``cuda.random`` (xoroshiro128+), loaded on first use
kernels/               Numba's ``cuda.kernels.transpose``, loaded on first use
nccl.py                CuPy's ``cuda.nccl`` (NCCL communicators), loaded on first use
cusolver.py            CuPy's ``cuda.cusolver`` (the loaded library's version), loaded
                       on first use
=====================  ==========================================================

Where one name is a module in CuPy and a function in Numba (``stream``,
``event``), the module is callable (_callable_module.py); docs/design.md
states the rule. Nothing here loads the CUDA driver until it is first asked
something; on a machine without a GPU ``is_available()`` is False and the
rest raises ``CUDAError``.
"""
import contextlib as _contextlib

from ._backend import ContextPoisoned, CUDAError, OutOfMemoryError
from .compiler import compile_ptx, compile_ptx_for_current_device  # noqa: F401  (Numba's)
from . import compiler, driver, event, memory, nvtx, profiler, runtime, stream  # noqa: F401  (CuPy's submodules)
from . import types  # noqa: F401  (Numba's type objects)
from .types import *  # noqa: F401,F403
from .device import Device, detect, device_count, get_device_id, is_available, synchronize
from .event import Event, get_elapsed_time
from .memory import (  # noqa: F401
    BaseMemory, Memory, MemoryPointer, UnownedMemory, alloc, get_allocator, malloc_managed, set_allocator,
    set_pinned_memory_allocator, using_allocator,
)
from .memory import (MemoryPool, PinnedMemoryPointer, PinnedMemoryPool, alloc_pinned_memory,
                     get_default_memory_pool, get_default_pinned_memory_pool)
from .stream import ExternalStream, Stream, default_stream, external_stream, get_current_stream, per_thread_default_stream
from .kernel_language import (  # noqa: F401  (Numba's kernel language, translated by jit)
    activemask, all_sync, any_sync, atomic, cg, fp16, ballot_sync, brev, cbrt, clz, eq_sync, ffs, lanemask_lt, match_all_sync,
    match_any_sync, popc, selp, blockDim, blockIdx, const, fma, grid, gridDim, gridsize, laneid, local,
    shared, shfl_down_sync, shfl_sync, shfl_up_sync, shfl_xor_sync, syncthreads, syncthreads_and,
    syncthreads_count, syncthreads_or, syncwarp, threadfence, threadfence_block, threadfence_system, threadIdx,
    warpsize, literal_unroll, carray, farray,
)
from .numba_host import (  # noqa: F401
    as_cuda_array, close, current_context, defer_cleanup, device_array, device_array_like, from_cuda_array_interface,
    get_current_device, gpus, is_bfloat16_supported, is_cuda_array, list_devices, managed_array, mapped_array, mapped_array_like, pinned_array, pinned_array_like,
    select_device, to_device,
)
from .._jit.errors import PerformanceWarning, TypingError, UnsupportedError  # noqa: F401
from .linking import CUSource, declare_device  # noqa: F401  (Numba's foreign device functions)
from .bf16 import bfloat16  # noqa: F401  (Numba's cuda.bfloat16; its functions are in cuda.bf16)
from . import devicearray  # noqa: F401  (Numba's cuda.devicearray)
from .ipc import open_ipc_array  # noqa: F401  (Numba's CUDA IPC)
from . import devices  # noqa: F401  (Numba's cuda.devices: get_context, gpus)
from . import vector_types  # noqa: F401  (Numba's vector types: cuda.float32x4, cuda.float4...)
globals().update(vector_types.constructors)

# Numba's other names for the null stream and for event timing.
legacy_default_stream = default_stream
event_elapsed_time = get_elapsed_time


def jit(func_or_sig=None, **options):
    """Numba's ``@cuda.jit`` (see kiln/_jit/dispatcher.py; imported on first use,
    which keeps ``import kiln`` free of NumPy)."""
    from .._jit.dispatcher import jit as make

    return make(func_or_sig, **options)


def vectorize(*args, **options):
    """Numba's ``vectorize`` for the CUDA target (kiln/_jit/vectorize.py)."""
    from .._jit.vectorize import vectorize as make

    return make(*args, **options)


def guvectorize(*args, **options):
    """Numba's ``guvectorize`` for the CUDA target (kiln/_jit/guvectorize.py)."""
    from .._jit.guvectorize import guvectorize as make

    return make(*args, **options)


def __getattr__(name):
    """Numba's submodules ``cuda.random`` and ``cuda.kernels`` (they build on
    the jit, which needs NumPy) and CuPy's ``cuda.nccl`` and ``cuda.cusolver``,
    loaded on first use."""
    if name in ("random", "kernels", "nccl", "cusolver"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def reduce(functor):
    """Numba's ``@cuda.reduce``: a full reduction by `functor` (kiln/_jit/reduce.py)."""
    return Reduce(functor)


def Reduce(functor):  # noqa: N802  (Numba's class name)
    """Numba's ``cuda.Reduce(functor)``: callable as ``r(arr, size=None, res=None, init=0, stream=0)``."""
    from .._jit.reduce import Reduce as make

    return make(functor)


@_contextlib.contextmanager
def profile():
    """CuPy's ``cuda.profile()``: the CUDA profiler collects inside the block
    (profiler.start/stop, looked up at each use)."""
    profiler.start()
    try:
        yield
    finally:
        profiler.stop()
