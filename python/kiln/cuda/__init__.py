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
