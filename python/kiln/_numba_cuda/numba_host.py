"""Numba's host API (``numba.cuda``'s functions outside kernels) on kiln
arrays: ``cuda.to_device``, ``device_array``, ``device_array_like``,
``pinned_array``, ``select_device``, ``get_current_device``, ``gpus``,
``current_context``, ``list_devices``, ``close``, ``defer_cleanup``,
``as_cuda_array``, ``is_cuda_array``.
(``cuda.stream()`` and ``cuda.event()`` are the callable modules stream.py
and event.py.)

Device arrays are kiln arrays on the default device: the current GPU, or the
CPU when there is none, so Numba code runs unchanged on a machine without a
GPU. ``copy_to_host`` and ``copy_to_device`` are methods of kiln arrays.
"""
import contextlib
import functools

from .. import _core
from . import config
from .numba_arrays import numba_array as _numba_array
from .._cuda.device import ENUM_NAMES, Device, device_count, get_device_id, host_mode, is_available

# The level of the kernel language kiln's CPU backend runs (host_launch.hpp).
HOST_COMPUTE_CAPABILITY = tuple(_core._cpu_device_attributes()[f"ComputeCapability{part}"] for part in ("Major", "Minor"))


def _device():
    from .._ndarray.device import default_device

    return default_device()


def _structured(dtype):
    """The NumPy structured dtype `dtype` names (a dtype or Numba's Record), or None."""
    dtype = getattr(dtype, "dtype", dtype)
    return dtype if getattr(dtype, "fields", None) is not None else None


def _plain_dtype(dtype):
    """The NumPy dtype `dtype` names (a dtype, its name, or a type with a .dtype), or None."""
    import numpy as np

    try:
        return np.dtype(getattr(dtype, "dtype", dtype))
    except TypeError:
        return None


def to_device(obj, stream=0, copy=True, to=None):
    """A device copy of `obj` (into `to` when given); a structured (record)
    array becomes a DeviceRecordArray, a datetime64 or timedelta64 array a
    DeviceTimeArray."""
    from .._numpy.creation import asarray
    from .record_arrays import DeviceRecordArray
    from .time_arrays import DeviceTimeArray, is_time_dtype

    if to is not None:
        if isinstance(to, (DeviceRecordArray, DeviceTimeArray)):
            to.copy_to_device(obj)
        else:
            to.set(obj, stream=stream or None)
        return to
    if _structured(getattr(obj, "dtype", None)) is not None:
        return DeviceRecordArray.from_host(obj, _device())
    if is_time_dtype(getattr(obj, "dtype", None)):
        return DeviceTimeArray.from_host(obj, _device())
    return _numba_array(asarray(obj, device=_device(), copy=True) if copy else asarray(obj, device=_device()),
                        stream)


def device_array(shape, dtype=float, strides=None, order="C", stream=0):
    from .._numpy.creation import empty

    if strides is not None:
        raise NotImplementedError("device_array: explicit strides are not supported; use order='C' or 'F'")
    if _structured(dtype) is not None:
        from .record_arrays import DeviceRecordArray

        return DeviceRecordArray(shape, _structured(dtype), order, _device())
    from .time_arrays import DeviceTimeArray, is_time_dtype

    if is_time_dtype(_plain_dtype(dtype)):
        return DeviceTimeArray.empty(shape, _plain_dtype(dtype), order, _device())
    return _numba_array(empty(shape, dtype=_dtype(dtype), order=order, device=_device()), stream)


def _order_of(ary):
    """The layout a *_like array takes from `ary`, as NumPy's order="K" picks
    between C and F: F where it is F-contiguous, or a view whose strides grow
    from the first axis to the last (a slice of an F-ordered array)."""
    flags = getattr(ary, "flags", None)
    if flags is None or flags.c_contiguous:
        return "C"
    if flags.f_contiguous:
        return "F"
    strides = [abs(s) for n, s in zip(ary.shape, ary.strides) if n > 1]
    return "F" if len(strides) > 1 and all(a < b for a, b in zip(strides, strides[1:])) else "C"


def device_array_like(ary, stream=0):
    return device_array(ary.shape, ary.dtype, order=_order_of(ary), stream=stream)


def pinned_array(shape, dtype=float, strides=None, order="C"):
    """A NumPy array in page-locked memory (ordinary memory without a GPU)."""
    import numpy as np

    dtype = np.dtype(_dtype(dtype).name)
    if not is_available():
        return np.empty(shape, dtype=dtype, order=order)
    from .._cuda.memory import alloc_pinned_memory

    count = int(np.prod(shape, dtype=np.int64))
    memory = alloc_pinned_memory(max(count * dtype.itemsize, 1))
    # The bytes as a NumPy array that keeps `memory` alive (through its __array_interface__).
    return np.asarray(memory)[:count * dtype.itemsize].view(dtype).reshape(shape, order=order)


def pinned_array_like(ary):
    return pinned_array(ary.shape, ary.dtype, order=_order_of(ary))


def mapped_array(shape, dtype=float, strides=None, order="C", stream=0, portable=False, wc=False):
    """Numba's host array a kernel may use directly: page-locked memory as a
    NumPy array that also exports ``__cuda_array_interface__`` (page-locked
    memory has the same address on the GPU). Kernels on the CPU use it in
    place; on a GPU kiln copies it to the device and back around each kernel
    (NumPy arrays' rule) rather than reading it across the bus. Its stream,
    when given, is what its ``__cuda_array_interface__`` names."""
    mapped = pinned_array(shape, dtype, strides, order).view(_mapped_array_type())
    mapped._numba_stream = stream or 0
    return mapped


@functools.cache
def _mapped_array_type():
    """A NumPy array of page-locked (mapped) memory, which GPUs reach at the
    same address: also a CUDA array, with the stream it was made on, or none
    (nothing pending). Made on first use: ``import kiln`` does not load NumPy."""
    import numpy as np

    def interface(self):
        stream = getattr(self, "_numba_stream", 0)
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ctypes.data if self.size else 0,
                not self.flags.writeable), "version": 3,
                "strides": None if self.flags.c_contiguous else self.strides,
                "stream": int(stream.handle) if stream else None}

    return type("MappedArray", (np.ndarray,), {"__cuda_array_interface__": property(interface),
                                                "__module__": __name__})


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    return mapped_array(ary.shape, ary.dtype, order=_order_of(ary), stream=stream)


def is_mapped(ary):
    """Whether `ary` is a mapped (or managed) array: page-locked memory the
    user asked kernels to use, which kiln does not warn about copying."""
    return _mapped_array_type.cache_info().currsize > 0 and isinstance(ary, _mapped_array_type())  # made on use


def managed_array(shape, dtype=float, strides=None, order="C", stream=0, attach_global=True):
    """Numba's managed (unified) memory array: a host array kernels may use
    (as mapped_array)."""
    return mapped_array(shape, dtype, strides, order, stream)


def _dtype(dtype):
    from .._ndarray.dtypes import normalize

    return normalize(dtype)


class NumbaDevice(Device):
    """A device as Numba shows it: ``name`` in bytes, ``compute_capability``
    as a tuple, the driver's attributes by their upper-case names
    (``MULTIPROCESSOR_COUNT``); CuPy's ``Device`` otherwise."""

    @property
    def name(self):
        return super().name.encode()

    @property
    def compute_capability(self):
        """(major, minor). On a machine without a GPU, (9, 0): the level of the
        kernel language kiln's CPU backend runs (Numba code reads this to
        choose what it may use, and all of it works there)."""
        return self._attribute("ComputeCapabilityMajor"), self._attribute("ComputeCapabilityMinor")

    def __getattr__(self, name):
        code = ENUM_NAMES.get(name)
        if code is None:
            raise AttributeError(name)
        return self._attribute(code)

    def reset(self):
        """Numba's reset: waits for the device's work (kiln keeps its context)."""
        self.synchronize()


def is_bfloat16_supported():
    """Numba's: whether kernels may use bfloat16 (numba.cuda.bf16). kiln
    computes it in float on every GPU and on the CPU; what it needs is
    NumPy's bfloat16 dtype, from the ml_dtypes package."""
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        return False
    return True


def select_device(device_id):
    device = NumbaDevice(device_id)
    device.use()
    return device


def get_current_device():
    return NumbaDevice(get_device_id())


class _Gpus:
    """``cuda.gpus``: the devices, indexable and iterable."""

    def __len__(self):
        return device_count()

    def __getitem__(self, i):
        if not 0 <= i < len(self):
            raise IndexError(f"there are {len(self)} GPUs")
        return NumbaDevice(i)

    def __iter__(self):
        return (NumbaDevice(i) for i in range(len(self)))

    @property
    def current(self):
        return get_current_device()


gpus = _Gpus()


def list_devices():
    """Numba's ``cuda.list_devices()``: every GPU (none on a machine without one)."""
    return list(gpus)


class _MemoryInfo(tuple):
    """(free, total) bytes, also as ``.free`` and ``.total``."""

    free = property(lambda self: self[0])
    total = property(lambda self: self[1])


class Context:
    """Numba's context of a device: its memory, its synchronisation. kiln
    keeps one context per GPU for the life of the process (the primary
    context, which CuPy and PyTorch share); on a machine without a GPU the
    context is the host's, and its memory the host's memory."""

    def __init__(self, device):
        self.device = device

    def get_memory_info(self):
        """(free, total) bytes of the device's memory."""
        return _MemoryInfo(self.device.mem_info)

    def synchronize(self):
        self.device.synchronize()

    def get_ipc_handle(self, memory):
        """Numba's: an IpcHandle of a MemoryPointer's memory (``devarr.gpu_data``)
        for another process (see ipc.py)."""
        from .._cuda.ipc import export

        return export(int(memory), memory.mem.size - (int(memory) - memory.mem.ptr), memory)

    def reset(self):
        """Waits for the device's work and returns the memory pool's cached
        blocks to the driver (kiln keeps the context itself)."""
        from .._cuda.memory import get_default_memory_pool

        self.device.synchronize()
        if not host_mode():
            get_default_memory_pool().free_all_blocks()


def current_context(devnum=None):
    """Numba's ``cuda.current_context()`` (of GPU `devnum` when given)."""
    if devnum is not None:
        select_device(devnum)
    return Context(get_current_device())


def close():
    """Numba's ``cuda.close()``: waits for this thread's device and returns its
    pool's cached memory (kiln's contexts stay: they are the driver's
    primary contexts, shared with other libraries in the process)."""
    current_context().reset()


@contextlib.contextmanager
def defer_cleanup():
    """Numba's ``defer_cleanup()``: in Numba, frees wait until the block ends.
    kiln's frees already return memory to its pool without waiting for the
    GPU, so there is nothing to defer: the block simply runs."""
    yield


def is_cuda_array(obj):
    """Whether `obj` exports CUDA device memory (``__cuda_array_interface__``)."""
    return hasattr(obj, "__cuda_array_interface__")


def from_cuda_array_interface(desc, owner=None, sync=True):
    """Numba's: a kiln array viewing the memory a ``__cuda_array_interface__``
    dictionary describes (kept alive through `owner`, when given). Where the
    dictionary names a stream other than kiln's current one, that stream is
    synchronized first, as Numba does, unless `sync` or
    ``config.CUDA_ARRAY_INTERFACE_SYNC`` is false."""
    from .._ndarray.cuda_array_interface import from_interface

    synchronize = bool(sync and config.CUDA_ARRAY_INTERFACE_SYNC)
    return _numba_array(from_interface(_Interface(desc, owner), synchronize), _stream_of(desc))


class _Interface:
    """An interface dictionary as an object that exports it (and holds its owner)."""

    def __init__(self, desc, owner):
        self.__cuda_array_interface__, self._owner = desc, owner


def as_cuda_array(obj, sync=True):
    """A kiln array sharing `obj`'s device memory (``__cuda_array_interface__``), no copy."""
    from .._ndarray.methods import ndarray
    from .._numpy.creation import asarray
    from .record_arrays import DeviceRecordArray
    from .time_arrays import DeviceTimeArray

    if not is_cuda_array(obj):
        raise TypeError(f"as_cuda_array: a {type(obj).__name__} is not a CUDA array (it has no "
                        "__cuda_array_interface__)")
    if isinstance(obj, DeviceTimeArray):  # kiln's own, already a device array
        return obj
    if isinstance(obj, (ndarray, DeviceRecordArray)):  # kiln's own: no other stream to wait for
        return _numba_array(asarray(obj), _stream_of(obj.__cuda_array_interface__))
    return from_cuda_array_interface(obj.__cuda_array_interface__, owner=obj, sync=sync)


def _stream_of(desc):
    """The stream an imported ``__cuda_array_interface__`` names, as Numba
    keeps it on the array it makes (an external stream; 0 for none)."""
    from .._cuda.stream import ExternalStream

    handle = desc.get("stream")
    return ExternalStream(handle) if handle not in (None, 0) else 0
