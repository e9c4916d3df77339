"""PyCUDA's driver module: ``import kiln.driver as drv``.

Device memory is kiln memory: ``mem_alloc`` returns an allocation from the
current device's pool (a CPU allocation when there is no GPU), ``int(alloc)``
is its address, and the copies go through kiln's transfers. ``In``, ``Out``
and ``InOut`` mark NumPy arrays a kernel call copies in, back, or both; on the
CPU the kernel reads and writes the NumPy memory itself.
"""
import numpy as np

from . import _core, cuda
from ._core import ndarray
from ._device import cpu, default_device


def init(flags=0):
    """Nothing to do: kiln starts the driver on first use."""


class DeviceAllocation:
    """Memory from :func:`mem_alloc`; freed with :meth:`free` or when unreferenced."""

    def __init__(self, array):
        self._array = array  # a kiln uint8 array that owns the memory

    def _live(self):
        if self._array is None:
            raise ValueError("the allocation has been freed")
        return self._array

    def __int__(self):
        return self._live()._data_ptr

    __index__ = __int__

    @property
    def device(self):
        return self._live().device

    @property
    def size(self):
        return self._live().nbytes

    def free(self):
        self._array = None

    def __repr__(self):
        return f"<kiln.driver.DeviceAllocation {int(self):#x}, {self.size} bytes on {self.device}>"


class DevicePointer(int):
    """A device address kiln did not allocate (a module's global, for one), on a known device."""

    def __new__(cls, address, device, owner=None):
        self = super().__new__(cls, address)
        self.device, self._owner = device, owner
        return self


def mem_alloc(nbytes):
    from ._creation import empty

    return DeviceAllocation(empty(int(nbytes), dtype="uint8", device=default_device()))


def mem_alloc_like(ary):
    return mem_alloc(ary.nbytes)


def mem_get_info():
    """(free bytes, total bytes) of the current device."""
    device = default_device()
    if device == cpu:
        import os

        pages, free_pages = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_AVPHYS_PAGES")
        return free_pages * os.sysconf("SC_PAGE_SIZE"), pages * os.sysconf("SC_PAGE_SIZE")
    return _core._cuda_mem_info(device.index)


def _device_bytes(target, nbytes, what):
    """A kiln uint8 view of `nbytes` at `target` (an allocation, a kiln array or an address)."""
    if isinstance(target, DeviceAllocation):
        if nbytes > target.size:
            raise ValueError(f"{what}: {nbytes} bytes do not fit in an allocation of {target.size}")
        device, owner = target.device, target
    elif isinstance(target, ndarray):
        if not target._c_contiguous or nbytes > target.nbytes:
            raise ValueError(f"{what}: expected a contiguous kiln array of at least {nbytes} bytes")
        device, owner = target.device, target
    elif isinstance(target, DevicePointer):
        device, owner = target.device, target
    elif isinstance(target, (int, np.integer)):
        device, owner = default_device(), None
    else:
        raise TypeError(f"{what}: expected a DeviceAllocation, a kiln array or an address, "
                        f"got {type(target).__name__}")
    return _core._wrap_memory(int(target if not isinstance(target, ndarray) else target._data_ptr), "uint8",
                              (nbytes,), None, owner, True, device)


def _host_bytes(array, what):
    if not isinstance(array, np.ndarray) or not array.flags.c_contiguous:
        raise TypeError(f"{what}: expected a C-contiguous NumPy array")
    return array.reshape(-1).view(np.uint8)


def memcpy_htod(dest, src):
    """Copy the NumPy array `src` to device memory `dest`."""
    host = _host_bytes(src, "src")
    _device_bytes(dest, host.nbytes, "dest").set(host)


def memcpy_dtoh(dest, src):
    """Copy device memory `src` into the NumPy array `dest`."""
    host = _host_bytes(dest, "dest")
    _device_bytes(src, host.nbytes, "src").get(out=host)


def memcpy_dtod(dest, src, size):
    _device_bytes(dest, size, "dest")[...] = _device_bytes(src, size, "src")


def to_device(ary):
    """A new allocation holding a copy of the NumPy array `ary`."""
    alloc = mem_alloc(ary.nbytes)
    memcpy_htod(alloc, np.ascontiguousarray(ary))
    return alloc


def from_device(devptr, shape, dtype, order="C"):
    """A NumPy array of `shape` and `dtype` copied from device memory."""
    out = np.empty(shape, dtype=dtype, order=order)
    host = out if order == "C" else out.T
    memcpy_dtoh(np.ascontiguousarray(host) if not host.flags.c_contiguous else host, devptr)
    return out


def from_device_like(devptr, other_ary):
    return from_device(devptr, other_ary.shape, other_ary.dtype)


class ArgumentHandler:
    """A NumPy array passed to a kernel call through device memory."""

    copy_in = copy_out = False

    def __init__(self, array):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{type(self).__name__}: expected a NumPy array, got {type(array).__name__}")
        self.array = array

    def device_array(self, device):
        """The array as the kernel sees it on `device` (NumPy's own memory on the CPU)."""
        if device == cpu:
            return self.array
        from ._creation import asarray, empty

        if self.copy_in:
            return asarray(self.array, device=device)
        return empty(self.array.shape, dtype=self.array.dtype.name, device=device)

    def finish(self, device_array):
        if self.copy_out and device_array is not self.array:
            device_array.get(out=self.array)


class In(ArgumentHandler):
    copy_in = True


class Out(ArgumentHandler):
    copy_out = True


class InOut(ArgumentHandler):
    copy_in = copy_out = True


class Device:
    """PyCUDA's ``Device(n)``: a CUDA device's name, capability and memory."""

    def __init__(self, number):
        self._device = cuda.Device(number)

    @staticmethod
    def count():
        return cuda.device_count()

    def name(self):
        return self._device.name

    def compute_capability(self):
        info = self._device._info
        return info["major"], info["minor"]

    def total_memory(self):
        return self._device.mem_info[1]

    def make_context(self, flags=0):
        self._device.use()
        return Context(self)

    def __eq__(self, other):
        return isinstance(other, Device) and self._device.id == other._device.id

    def __hash__(self):
        return self._device.id


class Context:
    """The current device's context (kiln keeps one primary context per device)."""

    def __init__(self, device=None):
        self._device = device

    @staticmethod
    def synchronize():
        device = default_device()
        if device != cpu:
            _core._cuda_synchronize(device.index)

    @staticmethod
    def get_device():
        device = default_device()
        return None if device == cpu else Device(device.index)

    def push(self):
        if self._device is not None:
            self._device._device.use()

    @staticmethod
    def pop():
        """Nothing to undo: kiln's contexts stay current for the thread."""

    def detach(self):
        """Nothing to release: kiln's contexts live as long as the process."""


class Stream(cuda.Stream):
    """PyCUDA's ``Stream()``."""

    def is_done(self):
        return self.done


class Event(cuda.Event):
    """PyCUDA's ``Event()``: ``record``, ``synchronize``, ``time_since`` and ``time_till`` in ms."""

    def record(self, stream=None):
        super().record(stream)
        return self

    def time_since(self, earlier):
        return earlier.elapsed_time(self)

    def time_till(self, later):
        return self.elapsed_time(later)
