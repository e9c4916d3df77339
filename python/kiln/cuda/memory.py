"""The device memory pool and the pinned host pool (CuPy's pool interface)."""
from ._backend import core
from .device import Device, _index


class MemoryPool:
    """The caching allocator of the current device (each device has its own)."""

    def _stats(self, device=None):
        return core()._pool_stats(_index(device))

    def used_bytes(self):
        return self._stats()[0]

    def total_bytes(self):
        return self._stats()[1]

    def free_bytes(self):
        used, total, _ = self._stats()
        return total - used

    def get_limit(self):
        return self._stats()[2]

    def free_all_blocks(self):
        core()._free_all_blocks(_index(None))

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
        core()._set_pool_limit(_index(None), int(size))


class PinnedMemoryPointer:
    """Page-locked host memory; ``numpy.asarray(mem)`` views it as uint8."""

    def __init__(self, block):
        self._block = block
        self.ptr, self.size = block.ptr, block.size

    @property
    def __array_interface__(self):
        return {"version": 3, "shape": (self.size,), "typestr": "|u1", "data": (self.ptr, False)}

    def __len__(self):
        return self.size


class PinnedMemoryPool:
    def total_bytes(self):
        return core()._pinned_pool_bytes()


def alloc_pinned_memory(nbytes):
    """``nbytes`` of page-locked host memory from the pinned pool."""
    return PinnedMemoryPointer(core()._alloc_pinned(int(nbytes)))


_DEFAULT_POOL = MemoryPool()
_DEFAULT_PINNED_POOL = PinnedMemoryPool()


def get_default_memory_pool():
    return _DEFAULT_POOL


def get_default_pinned_memory_pool():
    return _DEFAULT_PINNED_POOL
