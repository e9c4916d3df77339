"""Numba's host API (``numba.cuda``'s functions outside kernels) on kiln
arrays: ``cuda.to_device``, ``device_array``, ``device_array_like``,
``pinned_array``, ``select_device``, ``get_current_device``, ``gpus``.
(``cuda.stream()`` and ``cuda.event()`` are the callable modules stream.py
and event.py.)

Device arrays are kiln arrays on the default device: the current GPU, or the
CPU when there is none, so Numba code runs unchanged on a machine without a
GPU. ``copy_to_host`` and ``copy_to_device`` are methods of kiln arrays.
"""
from ._backend import core
from .device import _ATTRIBUTES, ENUM_NAMES, Device, device_count, get_device_id, host_mode, is_available

HOST_COMPUTE_CAPABILITY = (9, 0)


def _device():
    from .._device import default_device

    return default_device()


def to_device(obj, stream=0, copy=True, to=None):
    """A device copy of `obj` (into `to` when given)."""
    from .._creation import asarray

    if to is not None:
        to.set(obj, stream=stream or None)
        return to
    return asarray(obj, device=_device(), copy=True) if copy else asarray(obj, device=_device())


def device_array(shape, dtype=float, strides=None, order="C", stream=0):
    from .._creation import empty

    if strides is not None:
        raise NotImplementedError("device_array: explicit strides are not supported; use order='C' or 'F'")
    return empty(shape, dtype=_dtype(dtype), order=order, device=_device())


def _order_of(ary):
    flags = getattr(ary, "flags", None)
    return "F" if flags is not None and flags.f_contiguous and not flags.c_contiguous else "C"


def device_array_like(ary, stream=0):
    return device_array(ary.shape, ary.dtype, order=_order_of(ary))


def pinned_array(shape, dtype=float, strides=None, order="C"):
    """A NumPy array in page-locked memory (ordinary memory without a GPU)."""
    import numpy as np

    dtype = np.dtype(_dtype(dtype).name)
    if not is_available():
        return np.empty(shape, dtype=dtype, order=order)
    from .memory import alloc_pinned_memory

    count = int(np.prod(shape, dtype=np.int64))
    memory = alloc_pinned_memory(max(count * dtype.itemsize, 1))
    # The bytes as a NumPy array that keeps `memory` alive (through its __array_interface__).
    return np.asarray(memory)[:count * dtype.itemsize].view(dtype).reshape(shape, order=order)


def pinned_array_like(ary):
    return pinned_array(ary.shape, ary.dtype, order=_order_of(ary))


def mapped_array(shape, dtype=float, strides=None, order="C", stream=0, portable=False, wc=False):
    """Numba's host array a kernel may use directly: page-locked memory as a
    NumPy array. Kernels on the CPU use it in place; on a GPU kiln copies it
    to the device and back around each kernel (NumPy arrays' rule) rather
    than reading it across the bus."""
    return pinned_array(shape, dtype, strides, order)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    return mapped_array(ary.shape, ary.dtype, order=_order_of(ary))


def managed_array(shape, dtype=float, strides=None, order="C", stream=0, attach_global=True):
    """Numba's managed (unified) memory array: a host array kernels may use
    (as mapped_array)."""
    return pinned_array(shape, dtype, strides, order)


def _dtype(dtype):
    from .._dtypes import normalize

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
        if host_mode():
            return HOST_COMPUTE_CAPABILITY
        info = self._info
        return info["major"], info["minor"]

    def __getattr__(self, name):
        code = ENUM_NAMES.get(name)
        if code is None:
            raise AttributeError(name)
        self._gpu_only(name)
        return core()._cuda_device_attribute(self.id, _ATTRIBUTES[code])

    def reset(self):
        """Numba's reset: waits for the device's work (kiln keeps its context)."""
        self.synchronize()


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
