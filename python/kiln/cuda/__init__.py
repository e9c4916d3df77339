"""kiln.cuda: CuPy's ``cupy.cuda`` and Numba's ``numba.cuda`` in one namespace.

This package is the face; the code lives beneath the arrays (the layer rule
of docs/design.md): CUDA's runtime in kiln/_cuda, Numba's kernel language,
types and host API in kiln/_numba_cuda, the Numba compiler in kiln/_jit.

=====================  ==========================================================
_cuda/device.py        both: ``Device``, ``device_count``, ``is_available``,
                       ``synchronize``, ``detect``
_cuda/stream.py        CuPy's module ``cuda.stream`` (``Stream``, ``ExternalStream``,
                       ``get_current_stream``); called, Numba's ``cuda.stream()``
_cuda/event.py         ``cuda.Event`` (CuPy); called, Numba's ``cuda.event()``
_cuda/memory.py        CuPy's ``cuda.memory`` (the device and pinned pools)
_cuda/runtime.py       CuPy's ``cuda.runtime`` (the runtime API's calls by name)
_cuda/driver.py        CuPy's ``cuda.driver``
_cuda/nvtx.py          CuPy's ``cuda.nvtx`` (marks and ranges)
_cuda/profiler.py      CuPy's ``cuda.profiler`` (``start``/``stop``; ``cuda.profile()``)
compiler.py            CuPy's ``cuda.compiler`` (``compile_with_cache``) and Numba's
                       ``compile_ptx``
_numba_cuda/           Numba's host API (``to_device``, ``device_array``, ``gpus``...),
                       kernel language (``grid``, ``shared.array``, ``atomic``...),
                       ``types``, ``bf16``, ``vector_types``, ``config``
devicearray.py         Numba's ``cuda.devicearray`` (``DeviceNDArray``, ``auto_device``)
devices.py             Numba's ``cuda.devices`` (``get_context``, ``gpus``)
random.py              Numba's ``cuda.random`` (xoroshiro128+), loaded on first use
kernels/               Numba's ``cuda.kernels.transpose``, loaded on first use
nccl.py                CuPy's ``cuda.nccl`` (NCCL communicators), loaded on first use
cusolver.py            CuPy's ``cuda.cusolver`` (the loaded library's version), loaded
                       on first use
=====================  ==========================================================

The submodules CuPy and Numba name (``cupy.cuda.runtime``, ``numba.cuda.types``...)
are registered under this package's name too: ``import kiln.cuda.runtime``
is kiln/_cuda/runtime.py.

Where one name is a module in CuPy and a function in Numba (``stream``,
``event``), the module is callable (_cuda/callable_module.py); docs/design.md
states the rule. Nothing here loads the CUDA driver until it is first asked
something; on a machine without a GPU ``is_available()`` is False and the
rest raises ``CUDAError``.
"""
import contextlib as _contextlib
import sys as _sys

from .._cuda.backend import ContextPoisoned, CUDAError, OutOfMemoryError
from .compiler import compile_ptx, compile_ptx_for_current_device  # noqa: F401  (Numba's)
from . import compiler
from .._cuda import device, driver, event, memory, nvtx, profiler, runtime, stream  # noqa: F401  (CuPy's submodules)
from .._numba_cuda import bf16, config, types, vector_types  # noqa: F401  (Numba's submodules)
from .._numba_cuda.types import *  # noqa: F401,F403
from .._cuda.device import Device, detect, device_count, get_device_id, is_available, synchronize
from .._cuda.event import Event, get_elapsed_time
from .._cuda.memory import (  # noqa: F401
    BaseMemory, Memory, MemoryPointer, UnownedMemory, alloc, get_allocator, malloc_managed, set_allocator,
    set_pinned_memory_allocator, using_allocator,
)
from .._cuda.memory import (MemoryPool, PinnedMemoryPointer, PinnedMemoryPool, alloc_pinned_memory,
                            get_default_memory_pool, get_default_pinned_memory_pool)
from .._cuda.stream import (
    ExternalStream, Stream, default_stream, external_stream, get_current_stream, per_thread_default_stream,
)
from .._numba_cuda.kernel_language import (  # noqa: F401  (Numba's kernel language, translated by jit)
    activemask, all_sync, any_sync, atomic, cg, fp16, ballot_sync, brev, cbrt, clz, eq_sync, ffs, lanemask_lt, match_all_sync,
    match_any_sync, popc, selp, blockDim, blockIdx, const, fma, grid, gridDim, gridsize, laneid, local,
    shared, shfl_down_sync, shfl_sync, shfl_up_sync, shfl_xor_sync, syncthreads, syncthreads_and,
    syncthreads_count, syncthreads_or, syncwarp, threadfence, threadfence_block, threadfence_system, threadIdx,
    warpsize, literal_unroll, carray, farray,
)
from .._numba_cuda.numba_host import (  # noqa: F401
    as_cuda_array, close, current_context, defer_cleanup, device_array, device_array_like, from_cuda_array_interface,
    get_current_device, gpus, is_bfloat16_supported, is_cuda_array, list_devices, managed_array, mapped_array, mapped_array_like, pinned_array, pinned_array_like,
    select_device, to_device,
)
from .._jit.errors import PerformanceWarning, TypingError, UnsupportedError  # noqa: F401
from .._numba_cuda.linking import CUSource, declare_device  # noqa: F401  (Numba's foreign device functions)
from .._numba_cuda.bf16 import bfloat16  # noqa: F401  (Numba's cuda.bfloat16; its functions are in cuda.bf16)
from . import devicearray  # noqa: F401  (Numba's cuda.devicearray)
from .._cuda.ipc import open_ipc_array  # noqa: F401  (Numba's CUDA IPC)
from . import devices  # noqa: F401  (Numba's cuda.devices: get_context, gpus)
globals().update(vector_types.constructors)  # Numba's vector types: cuda.float32x4, cuda.float4...

for _submodule in (device, driver, event, memory, nvtx, profiler, runtime, stream, bf16, config, types, vector_types):
    _sys.modules[f"{__name__}.{_submodule.__name__.rpartition('.')[2]}"] = _submodule

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
