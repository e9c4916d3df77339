"""CuPy's ``cupy.cuda.memory``: the memory pools, memory and pointers into it.

``MemoryPool`` reports and controls kiln's caching allocator of the current
device: a GPU's, or in CPU mode the host's (the same numbers: bytes in live
arrays, bytes held). ``alloc(size)`` gives a ``MemoryPointer`` to fresh
memory; ``ndarray.data`` is a ``MemoryPointer`` too, and
``kiln.ndarray(shape, dtype, memptr)`` views the memory a pointer points at.

``set_allocator(f)`` makes ``alloc`` (and the memory ``ndarray(shape, dtype)``
gets without a memptr) come from ``f(size) -> MemoryPointer``; kiln's own
operations always allocate from kiln's pool, which is what
``get_default_memory_pool()`` reports.
"""
import contextlib
import ctypes
import threading

from .. import _core
from .._core import OutOfMemoryError  # noqa: F401  (CuPy's cupy.cuda.memory.OutOfMemoryError)
from .backend import core
from .device import Device, get_device_id, host_mode


def _array_device(device_id=None):
    """kiln's Device of CUDA device `device_id` (the current one when None), or
    the CPU in CPU mode."""
    from .._core import Device as ArrayDevice

    if host_mode():
        return ArrayDevice("cpu")
    return ArrayDevice(f"cuda:{get_device_id() if device_id is None else int(device_id)}")


class MemoryPool:
    """kiln's caching allocator of the current CUDA device (each device has
    its own; in CPU mode, the host's). ``allocator`` is accepted for CuPy's
    signature; kiln's pool always takes its memory from the driver (or the
    host's allocator)."""

    def __init__(self, allocator=None):
        self._allocator = allocator

    def _device(self):
        return _array_device()

    def _stats(self):
        return core()._pool_stats(self._device())

    def malloc(self, size):
        """A MemoryPointer to ``size`` bytes from this pool (CuPy's pool.malloc, usable with set_allocator)."""
        return _pool_alloc(size)

    def used_bytes(self):
        return self._stats()[0]

    def total_bytes(self):
        return self._stats()[1]

    def free_bytes(self):
        used, total, _ = self._stats()
        return total - used

    def n_free_blocks(self):
        """Not counted by kiln's pool: 1 when it holds unused memory, else 0."""
        return int(self.free_bytes() > 0)

    def get_limit(self):
        return self._stats()[2]

    def free_all_blocks(self, stream=None):
        core()._free_all_blocks(self._device())

    def free_all_free(self):
        self.free_all_blocks()

    def set_limit(self, size=None, fraction=None):
        """Cap this device's pool at ``size`` bytes or ``fraction`` of its memory (0: no cap)."""
        if size is not None and fraction is not None:
            raise ValueError("set_limit: give size or fraction, not both")
        if fraction is not None:
            if not 0 <= fraction <= 1:
                raise ValueError(f"fraction must be in [0, 1], got {fraction}")
            size = int(fraction * Device().mem_info[1])
        if size is None or size < 0:
            raise ValueError("set_limit: size must be a non-negative number of bytes")
        core()._set_pool_limit(self._device(), int(size))


class BaseMemory:
    """A block of memory: ``ptr`` (its address), ``size`` (bytes), ``device_id``."""

    def __init__(self, ptr, size, device_id, array_device=None):
        self.ptr, self.size, self.device_id = int(ptr), int(size), device_id
        # kiln's Device of the memory (what arrays viewing it are on).
        self.array_device = _array_device(device_id) if array_device is None else array_device

    @property
    def device(self):
        return Device(self.device_id)

    def __int__(self):
        return self.ptr


class Memory(BaseMemory):
    """Memory from kiln's pool, kept while this object (or an array viewing it) lives."""

    def __init__(self, size):
        from .._core import _empty

        self._block = _empty((max(int(size), 1),), "uint8", _array_device())
        super().__init__(self._block._data_ptr, int(size), get_device_id(), self._block.device)


class ArrayMemory(BaseMemory):
    """The memory of a kiln array (what ``ndarray.data.mem`` is): keeps the array's memory alive."""

    def __init__(self, array):
        self._array = array
        device = array.device
        super().__init__(array._data_ptr, array.nbytes, 0 if device.type == "cpu" else device.index, device)


class UnownedMemory(BaseMemory):
    """Memory someone else allocated: ``owner`` is kept alive while this object lives."""

    def __init__(self, ptr, size, owner, device_id=None):
        super().__init__(ptr, size, get_device_id() if device_id is None else device_id)
        self.owner = owner


class MemoryPointer:
    """A pointer into a block of memory: ``mem`` (the block), ``ptr`` (the
    address, ``mem.ptr + offset``). Pointers add and subtract byte offsets
    and copy to and from device and host memory."""

    def __init__(self, mem, offset):
        self.mem, self._offset = mem, int(offset)
        self.ptr = mem.ptr + self._offset
        self.device_id = mem.device_id
        self.array_device = mem.array_device

    @property
    def device_pointer(self):
        """Numba's name of the address (``ary.gpu_data.device_pointer``)."""
        return self.ptr

    @property
    def device(self):
        return Device(self.device_id)

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return MemoryPointer(self.mem, self._offset + int(offset))

    __radd__ = __add__

    def __iadd__(self, offset):
        return self + offset

    def __sub__(self, offset):
        return MemoryPointer(self.mem, self._offset - int(offset))

    def __isub__(self, offset):
        return self - offset

    def __repr__(self):
        return f"<MemoryPointer {self.ptr:#x} (device {self.device_id})>"

    # Two pointers to the same address of the same device are equal (Numba's
    # `view.gpu_data == ary.gpu_data` of two arrays over one memory).
    def __eq__(self, other):
        if not isinstance(other, MemoryPointer):
            return NotImplemented
        return self.ptr == other.ptr and self.device_id == other.device_id

    def __hash__(self):
        return hash((self.ptr, self.device_id))

    # --- copies: the direction is read from the addresses, as cudaMemcpyDefault does --------------
    def copy_from_device(self, src, size):
        _copy(self.ptr, int(src), size, None)

    def copy_from_device_async(self, src, size, stream=None):
        _copy(self.ptr, int(src), size, stream)

    def copy_from_host(self, mem, size):
        _copy(self.ptr, _host_address(mem), size, None)

    def copy_from_host_async(self, mem, size, stream=None):
        _copy(self.ptr, _host_address(mem), size, stream)

    def copy_from(self, mem, size):
        _copy(self.ptr, mem.ptr if isinstance(mem, MemoryPointer) else _host_address(mem), size, None)

    def copy_from_async(self, mem, size, stream=None):
        _copy(self.ptr, mem.ptr if isinstance(mem, MemoryPointer) else _host_address(mem), size, stream)

    def copy_to_host(self, mem, size):
        _copy(_host_address(mem), self.ptr, size, None)

    def copy_to_host_async(self, mem, size, stream=None):
        _copy(_host_address(mem), self.ptr, size, stream)

    def memset(self, value, size):
        _fill(self.ptr, value, size, None)

    def memset_async(self, value, size, stream=None):
        _fill(self.ptr, value, size, stream)


def _host_address(mem):
    """The address of host memory given as an int, a ctypes object, a NumPy array or a buffer."""
    if isinstance(mem, int):
        return mem
    if isinstance(mem, ctypes.c_void_p):
        return mem.value or 0
    interface = getattr(mem, "__array_interface__", None)
    if interface is not None:
        return interface["data"][0]
    try:
        return ctypes.addressof(mem)
    except TypeError:
        import numpy as np

        return np.frombuffer(mem, dtype=np.uint8).__array_interface__["data"][0]


def _copy(dst, src, size, stream):
    size = int(size)
    if size <= 0:
        return
    if host_mode():
        ctypes.memmove(dst, src, size)
        return
    handle = int(getattr(stream, "ptr", stream or 0))
    core()._cuda_copy_bytes(int(dst), int(src), size, get_device_id(), handle)
    if stream is None:
        core()._Stream.null(get_device_id()).synchronize()


def _fill(ptr, value, size, stream):
    size = int(size)
    if size <= 0:
        return
    if host_mode():
        ctypes.memset(ptr, int(value) & 0xFF, size)
        return
    core()._cuda_fill_bytes(int(ptr), int(value) & 0xFF, size, get_device_id(), int(getattr(stream, "ptr", stream or 0)))
    if stream is None:
        core()._Stream.null(get_device_id()).synchronize()


def _pool_alloc(size):
    return MemoryPointer(Memory(size), 0)


# --- the allocator alloc() uses ------------------------------------------------------------------------
_allocator = threading.local()   # .function: this thread's, within using_allocator
_default_allocator = [None]      # set_allocator's (None: kiln's pool)


def _current_allocator():
    return getattr(_allocator, "function", _default_allocator[0])


def alloc(size):
    """A MemoryPointer to ``size`` bytes from the current allocator (kiln's pool unless set_allocator changed it)."""
    function = _current_allocator()
    return (function or _pool_alloc)(int(size))


def set_allocator(allocator=None):
    """Make ``allocator(size) -> MemoryPointer`` the one ``alloc`` uses
    (None: kiln's pool)."""
    if allocator is not None and not callable(allocator):
        raise TypeError("allocator: must be callable or None")
    _default_allocator[0] = allocator


def get_allocator():
    return _current_allocator() or _pool_alloc


@contextlib.contextmanager
def using_allocator(allocator=None):
    """``set_allocator`` for this thread, within a ``with`` block."""
    previous = getattr(_allocator, "function", _default_allocator[0])
    _allocator.function = allocator
    try:
        yield
    finally:
        _allocator.function = previous


def malloc_managed(size):
    """Managed memory is not something kiln allocates: refused, naming what to use instead."""
    from .backend import CUDAError

    raise CUDAError("malloc_managed: kiln does not allocate CUDA managed memory; use kiln's pool (alloc)")


# --- pinned host memory --------------------------------------------------------------------------------
# (A build without CUDA has no pinned blocks: _pinned_block's core() says so.)
class PinnedMemoryPointer(getattr(_core, "_PinnedBlock", object)):
    """Page-locked host memory from ``offset`` on in the block ``mem``; a
    buffer (``numpy.frombuffer(mem, dtype)`` views it). Without a GPU,
    plain host memory."""

    def __init__(self, mem, offset=0):
        super().__init__(mem, int(offset))
        self.mem = mem

    @property
    def __array_interface__(self):
        return {"version": 3, "shape": (self.size,), "typestr": "|u1", "data": (self.ptr, False)}

    def __len__(self):
        return self.size

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return PinnedMemoryPointer(self.mem, self.ptr - self.mem.ptr + int(offset))


def _pinned_block(nbytes):
    """``nbytes`` of page-locked host memory from kiln's pinned pool."""
    return PinnedMemoryPointer(core()._PinnedBlock(int(nbytes)))


class PinnedMemoryPool:
    """CuPy's pool of page-locked host memory. Its blocks come from
    ``allocator(size)`` where one is given, else from kiln's pinned pool
    (never through alloc_pinned_memory: ``pool.malloc`` is what programs
    hand to set_pinned_memory_allocator)."""

    def __init__(self, allocator=None):
        if allocator is not None and not callable(allocator):
            raise TypeError("allocator: must be callable or None")
        self._allocator = allocator

    def malloc(self, size):
        return (self._allocator or _pinned_block)(int(size))

    def total_bytes(self):
        return core()._pinned_pool_bytes()

    def n_free_blocks(self):
        return 0

    def free_all_blocks(self):
        """kiln's pinned pool keeps its blocks for reuse for the life of the process."""


_pinned_allocator = [None]


def alloc_pinned_memory(nbytes):
    """``nbytes`` of page-locked host memory (from kiln's pinned pool, or the
    allocator set_pinned_memory_allocator gave)."""
    return (_pinned_allocator[0] or _pinned_block)(int(nbytes))


def set_pinned_memory_allocator(allocator=None):
    """Make ``allocator(size)`` the source of alloc_pinned_memory (None: kiln's pinned pool)."""
    if allocator is not None and not callable(allocator):
        raise TypeError("allocator: must be callable or None")
    _pinned_allocator[0] = allocator


_DEFAULT_POOL = MemoryPool()
_DEFAULT_PINNED_POOL = PinnedMemoryPool()


def get_default_memory_pool():
    return _DEFAULT_POOL


def get_default_pinned_memory_pool():
    return _DEFAULT_PINNED_POOL
