"""PyCUDA's driver module: ``import kiln.pycuda.driver as drv``.

Device memory is kiln memory: ``mem_alloc`` returns an allocation from the
current device's pool (a CPU allocation when there is no GPU), ``int(alloc)``
is its address, and the copies go through kiln's transfers. ``In``, ``Out``
and ``InOut`` mark NumPy arrays a kernel call copies in, back, or both; on the
CPU the kernel reads and writes the NumPy memory itself.

Without a GPU, ``Device(0)`` is the host as kiln's CUDA C runtime presents
it: its attributes are the limits that runtime enforces (CUDA's), its
compute capability (0, 0) (it is no CUDA architecture), and the CUDA version
is that of the kernel language the runtime follows (12.0: no texture
references).
"""
import enum
import os
import platform

import numpy as np

from .. import _core, cuda
from .._core import ndarray
from .._ndarray.device import cpu, default_device
from .._cuda.device import _ATTRIBUTES, ENUM_NAMES

# The CUDA version whose kernel language kiln's CPU runtime follows.
HOST_RUNTIME_CUDA_VERSION = 12000


def init(flags=0):
    """Nothing to do: kiln starts the driver on first use."""


def get_driver_version():
    """The CUDA driver's version (e.g. 13000); without a GPU, HOST_RUNTIME_CUDA_VERSION."""
    return _core._cuda_driver_version() if cuda.is_available() else HOST_RUNTIME_CUDA_VERSION


def get_version():
    """The CUDA version as a tuple, (13, 0, 0) for 13000."""
    version = get_driver_version()
    return version // 1000, version % 1000 // 10, 0


# CUdevice_attribute, by CUDA's enum names.
device_attribute = enum.IntEnum("device_attribute", {name: _ATTRIBUTES[cupy_name]
                                                     for name, cupy_name in ENUM_NAMES.items()})


class compute_mode(enum.IntEnum):  # noqa: N801  (PyCUDA's spelling)
    DEFAULT = 0
    PROHIBITED = 2
    EXCLUSIVE_PROCESS = 3


class func_cache(enum.IntEnum):  # noqa: N801
    PREFER_NONE = 0
    PREFER_SHARED = 1
    PREFER_L1 = 2
    PREFER_EQUAL = 3


class shared_config(enum.IntEnum):  # noqa: N801
    DEFAULT_BANK_SIZE = 0
    FOUR_BYTE_BANK_SIZE = 1
    EIGHT_BYTE_BANK_SIZE = 2


def _current():
    """The device work goes to now (a kiln Device)."""
    return default_device()


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
        return f"<kiln.pycuda.driver.DeviceAllocation {int(self):#x}, {self.size} bytes on {self.device}>"


class DevicePointer(int):
    """A device address kiln did not allocate (a module's global, for one), on a known device."""

    def __new__(cls, address, device, owner=None):
        self = super().__new__(cls, address)
        self.device, self._owner = device, owner
        return self


class PointerHolderBase:
    """PyCUDA's base for objects that own device memory elsewhere: subclasses
    give ``get_pointer()``, and kernels and copies take them as that address."""

    def get_pointer(self):
        raise NotImplementedError("subclasses of PointerHolderBase give get_pointer()")

    def __int__(self):
        return int(self.get_pointer())

    __index__ = __int__

    @property
    def device(self):
        return default_device()


def mem_alloc(nbytes):
    from .._numpy.creation import empty

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


def _device_bytes(target, nbytes, what, dtype="uint8"):
    """A kiln view of `nbytes` at `target` (an allocation, a kiln array or an
    address), as elements of `dtype` (uint8: the bytes)."""
    if hasattr(target, "__kiln_array__"):  # a GPUArray
        target = target.__kiln_array__()
    if isinstance(target, DeviceAllocation) or (hasattr(target, "size") and hasattr(target, "device")
                                                and not isinstance(target, ndarray)):  # a pool's allocation
        if nbytes > target.size:
            raise ValueError(f"{what}: {nbytes} bytes do not fit in an allocation of {target.size}")
        device, owner = target.device, target
    elif isinstance(target, ndarray):
        if not target._c_contiguous or nbytes > target.nbytes:
            raise ValueError(f"{what}: expected a contiguous kiln array of at least {nbytes} bytes")
        device, owner = target.device, target
    elif isinstance(target, (DevicePointer, PointerHolderBase)):
        device, owner = target.device, target
    elif isinstance(target, (int, np.integer)):
        device, owner = default_device(), None
    else:
        raise TypeError(f"{what}: expected a DeviceAllocation, a kiln array or an address, "
                        f"got {type(target).__name__}")
    address = int(target if not isinstance(target, ndarray) else target._data_ptr)
    count = nbytes // np.dtype(dtype).itemsize
    return _core._wrap_memory(address, dtype, (count,), None, target if owner is None else owner, True, device)


def _host_bytes(array, what):
    """The bytes of a C-contiguous NumPy array or of any object with the buffer
    protocol (bytes, a packed struct), as PyCUDA takes them."""
    if not isinstance(array, np.ndarray):
        try:
            return np.frombuffer(memoryview(array).cast("B"), dtype=np.uint8)
        except TypeError:
            raise TypeError(f"{what}: expected a NumPy array or a buffer, got {type(array).__name__}") from None
    if not array.flags.c_contiguous:
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


def memcpy_htod_async(dest, src, stream=None):
    """memcpy_htod queued on `stream` (kiln's copies from host memory finish
    before they return, so the host array may be reused at once)."""
    host = _host_bytes(src, "src")
    _device_bytes(dest, host.nbytes, "dest").set(host, stream=stream)


def memcpy_dtoh_async(dest, src, stream=None):
    host = _host_bytes(dest, "dest")
    _device_bytes(src, host.nbytes, "src").get(stream=stream, out=host)


def memcpy_dtod_async(dest, src, size, stream=None):
    memcpy_dtod(dest, src, size)


def memset_d8(dest, data, count):
    _device_bytes(dest, count, "dest").fill(data & 0xFF)


def memset_d16(dest, data, count):
    _device_bytes(dest, 2 * count, "dest", "uint16").fill(data & 0xFFFF)


def memset_d32(dest, data, count):
    _device_bytes(dest, 4 * count, "dest", "uint32").fill(data & 0xFFFFFFFF)


def pagelocked_empty(shape, dtype, order="C", mem_flags=0):
    """A NumPy array in page-locked memory (ordinary memory without a GPU)."""
    from .._numba_cuda.numba_host import pinned_array

    return pinned_array(shape, dtype, order=order)


def pagelocked_zeros(shape, dtype, order="C", mem_flags=0):
    out = pagelocked_empty(shape, dtype, order)
    out.fill(0)
    return out


def pagelocked_empty_like(array, mem_flags=0):
    return pagelocked_empty(array.shape, array.dtype, "F" if array.flags.f_contiguous and array.ndim > 1 else "C")


def pagelocked_zeros_like(array, mem_flags=0):
    out = pagelocked_empty_like(array)
    out.fill(0)
    return out


def aligned_empty(shape, dtype, order="C", alignment=4096):
    """A NumPy array whose data starts on an `alignment`-byte boundary."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + alignment, dtype=np.uint8)
    start = -raw.ctypes.data % alignment
    return raw[start:start + nbytes].view(dtype).reshape(shape, order=order)


def aligned_zeros(shape, dtype, order="C", alignment=4096):
    out = aligned_empty(shape, dtype, order, alignment)
    out.fill(0)
    return out


def register_host_memory(ary, flags=0):
    """`ary` itself: kiln's transfers already stage pageable host memory through
    pinned buffers, so registering would only save what staging costs."""
    return ary


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
        from .._numpy.creation import asarray, empty

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
    """PyCUDA's ``Device(n)``: a CUDA device's name, capability, memory and
    attributes; without a GPU, device 0 is the host (see the module's notes)."""

    def __init__(self, number):
        if cuda.is_available():
            self._device = cuda.Device(number)
        elif int(number) != 0:
            raise cuda.CUDAError(f"there is no GPU, so the only device is the host, 0 (not {number})")
        else:
            self._device = None

    @classmethod
    def _host(cls):
        """The host as kiln's CPU runtime presents it (also where a GPU is present)."""
        device = cls.__new__(cls)
        device._device = None
        return device

    @staticmethod
    def count():
        return cuda.device_count() if cuda.is_available() else 1

    def name(self):
        if self._device is None:
            return f"kiln CPU runtime ({platform.processor() or platform.machine()})"
        return self._device.name

    def pci_bus_id(self):
        if self._device is None:
            raise cuda.CUDAError("the host has no PCI bus id")
        return self._device.pci_bus_id

    def compute_capability(self):
        if self._device is None:
            return 0, 0
        info = self._device._info
        return info["major"], info["minor"]

    def total_memory(self):
        if self._device is None:
            return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        return self._device.mem_info[1]

    def get_attributes(self):
        if self._device is None:
            return {device_attribute[name]: value for name, value in _host_attributes().items()}
        return {attribute: _core._cuda_device_attribute(self._device.id, int(attribute))
                for attribute in device_attribute}

    def get_attribute(self, attribute):
        attribute = device_attribute(attribute)
        if self._device is None:
            return _host_attributes()[attribute.name]
        return _core._cuda_device_attribute(self._device.id, int(attribute))

    def __getattr__(self, name):
        if name in ENUM_NAMES:
            return self.get_attribute(device_attribute[name])
        raise AttributeError(name)

    def make_context(self, flags=0):
        if self._device is not None:
            self._device.use()
        return Context(self)

    def retain_primary_context(self):
        return self.make_context()

    def __eq__(self, other):
        return isinstance(other, Device) and self._id == other._id

    def __hash__(self):
        return self._id

    @property
    def _id(self):
        return 0 if self._device is None else self._device.id


def _host_attributes():  # noqa: N802
    """The host's attributes as kiln.cuda reports them in CPU mode (the limits
    kiln's CPU runtime enforces, CUDA's), by the driver's names; the compute
    capability (0, 0), as this module's notes say."""
    cupy_names = {cupy_name: name for name, cupy_name in ENUM_NAMES.items()}
    found = {cupy_names[name]: value for name, value in _core._cpu_device_attributes().items() if name in cupy_names}
    return {**found, "COMPUTE_CAPABILITY_MAJOR": 0, "COMPUTE_CAPABILITY_MINOR": 0}


class Context:
    """The current device's context (kiln keeps one primary context per
    device, current for the thread; push and pop change the device)."""

    _stack = []

    def __init__(self, device=None):
        self._device = device

    @staticmethod
    def synchronize():
        device = default_device()
        if device != cpu:
            _core._cuda_synchronize(device.index)

    @staticmethod
    def get_device():
        """The device work goes to: a GPU, or the host when kiln's default device is the CPU."""
        device = default_device()
        return Device._host() if device == cpu else Device(device.index)

    @staticmethod
    def get_current():
        return Context(Context.get_device())

    def push(self):
        Context._stack.append(Context.get_device())
        if self._device is not None and self._device._device is not None:
            self._device._device.use()

    @staticmethod
    def pop():
        if Context._stack:
            previous = Context._stack.pop()
            if previous._device is not None:
                previous._device.use()

    def detach(self):
        """Nothing to release: kiln's contexts live as long as the process."""

    @staticmethod
    def set_cache_config(config):
        """Accepted: kiln leaves the L1/shared split to the driver."""

    @staticmethod
    def get_cache_config():
        return func_cache.PREFER_NONE

    @staticmethod
    def get_limit(limit):
        raise cuda.CUDAError("context limits are not exposed by kiln")


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


def _no_textures(*args, **kwargs):
    raise NotImplementedError("texture and surface references were removed in CUDA 12, and kiln has no CUDA "
                              "arrays; pass device memory to kernels instead")


# PyCUDA's texture and CUDA-array calls, refused by name.
matrix_to_texref = matrix_to_array = np_to_array = gpuarray_to_array = make_multichannel_2d_array = _no_textures
bind_array_to_texref = Array = ArrayDescriptor = ArrayDescriptor3D = Memcpy2D = Memcpy3D = _no_textures


# PyCUDA's exceptions under kiln's: every CUDA failure is a CUDAError (a
# RuntimeError), running out of device memory an OutOfMemoryError (a
# MemoryError). Defined last: two of the names are builtins', which the code
# above means.
Error = LogicError = LaunchError = RuntimeError = cuda.CUDAError
MemoryError = cuda.OutOfMemoryError
CompileError = _core.CompileError
