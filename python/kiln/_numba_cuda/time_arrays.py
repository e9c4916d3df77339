"""Device arrays of NumPy's datetime64 and timedelta64, which Numba's
``cuda.to_device`` and ``device_array`` make and kernels index.

kiln's arrays hold numbers only, so a time array is an int64 kiln array of
its counts (NaT the smallest int64) with the NumPy dtype beside: copies to
and from the host reinterpret the same eight bytes, ``view(np.int64)`` is
the int64 array itself (the same memory, as Numba's view is), and kernels
receive the counts with the dtype telling their unit.
"""
import numpy as np

from .record_arrays import delivered


def is_time_dtype(dtype):
    """Whether `dtype` is a datetime64 or timedelta64 of any unit."""
    return isinstance(dtype, np.dtype) and dtype.kind in "Mm"


class DeviceTimeArray:
    """Numba's device array of a datetime64 or timedelta64 dtype:
    ``copy_to_host``, ``copy_to_device``, ``view``, ``shape``, ``strides``,
    ``dtype``, ``size``, ``gpu_data``; a kernel argument like any device
    array."""

    def __init__(self, values, dtype):
        dtype = np.dtype(dtype)
        if not is_time_dtype(dtype):
            raise TypeError(f"dtype: {dtype} is not a datetime64 or timedelta64 dtype")
        self._values = values  # an int64 kiln array: the counts
        self.dtype = dtype

    @classmethod
    def from_host(cls, ary, device):
        from .._numpy.creation import asarray

        ary = np.asarray(ary)
        return cls(asarray(np.ascontiguousarray(ary).view(np.int64), device=device), ary.dtype)

    @classmethod
    def empty(cls, shape, dtype, order, device):
        from .._numpy.creation import empty

        return cls(empty(shape, dtype=np.int64, order=order, device=device), dtype)

    shape = property(lambda self: self._values.shape)
    strides = property(lambda self: self._values.strides)
    ndim = property(lambda self: self._values.ndim)
    size = property(lambda self: self._values.size)
    nbytes = property(lambda self: self._values.nbytes)
    itemsize = property(lambda self: self.dtype.itemsize)
    device = property(lambda self: self._values.device)
    gpu_data = property(lambda self: self._values.gpu_data)
    _data_ptr = property(lambda self: self._values._data_ptr)

    def __len__(self):
        return len(self._values)

    def __repr__(self):
        return f"<kiln.cuda DeviceTimeArray shape={self.shape} dtype={self.dtype} on {self.device}>"

    def view(self, dtype):
        """The same memory as another eight-byte dtype: int64 gives the counts
        (a kiln array), another time dtype a time array."""
        dtype = np.dtype(dtype)
        if dtype.itemsize != 8:
            raise ValueError(f"view: a {self.dtype} array views as eight-byte dtypes only, not {dtype}")
        return DeviceTimeArray(self._values, dtype) if is_time_dtype(dtype) else self._values.view(dtype)

    def copy_to_host(self, ary=None, stream=0):
        """The values as a NumPy array (written into `ary` when given, and returned)."""
        return delivered(self._values.get().view(self.dtype), ary, self)

    def copy_to_device(self, ary, stream=0):
        """The values of `ary` (a NumPy array of this dtype, or another device time array) copied in."""
        if isinstance(ary, DeviceTimeArray):
            ary = ary.copy_to_host()
        ary = np.asarray(ary)
        if ary.dtype != self.dtype or ary.shape != self.shape:
            raise ValueError(f"copy_to_device: ary is {ary.dtype} of shape {ary.shape}, the device array "
                             f"{self.dtype} of shape {self.shape}")
        self._values.set(np.ascontiguousarray(ary).view(np.int64))

    def is_c_contiguous(self):
        return self._values.flags.c_contiguous

    def is_f_contiguous(self):
        return self._values.flags.f_contiguous

    @property
    def __cuda_array_interface__(self):
        interface = dict(self._values.__cuda_array_interface__)
        interface.update(typestr=self.dtype.str, descr=[("", self.dtype.str)])
        return interface
