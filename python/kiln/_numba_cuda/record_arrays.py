"""Device arrays of NumPy structured (record) dtypes, which Numba's
``cuda.to_device`` and ``device_array`` make and kernels index (``ary[i].x``).

kiln's arrays hold numbers only, so a record array is its bytes in a uint8
kiln array on the device, with the NumPy dtype, shape and byte strides
beside: kernels receive it as a view of records (the jit knows each field's
offset), copies to and from the host move the bytes, and a transpose is a
strided copy of the bytes by kiln's own kernels. The same on the CPU.
"""
import numpy as np

from .._core import _empty


def _strides(shape, itemsize, order):
    strides, step = [0] * len(shape), itemsize
    for d in (reversed(range(len(shape))) if order == "C" else range(len(shape))):
        strides[d] = step
        step *= shape[d]
    return tuple(strides)


def _span(shape, strides, itemsize):
    """Bytes from the first element to the end of the last (strides not negative)."""
    if any(n == 0 for n in shape):
        return 0
    return itemsize + sum((n - 1) * s for n, s in zip(shape, strides))


def delivered(host, ary, device_array):
    """`host`, the host copy of `device_array`: written into `ary` where one
    is given (of the same shape and dtype) and returned, else itself."""
    if ary is None:
        return host
    if ary.shape != device_array.shape or ary.dtype != device_array.dtype:
        raise ValueError(f"copy_to_host: ary is {ary.dtype} of shape {ary.shape}, the device array "
                         f"{device_array.dtype} of shape {device_array.shape}")
    ary[...] = host
    return ary


class DeviceRecordArray:
    """Numba's device array of a structured dtype: ``copy_to_host``,
    ``copy_to_device``, ``shape``, ``strides``, ``dtype``, ``size``, ``T``;
    a kernel argument like any device array."""

    def __init__(self, shape, dtype, order="C", device=None, *, strides=None, _bytes=None):
        from .._ndarray.device import default_device

        self.dtype = np.dtype(dtype)
        if self.dtype.fields is None:
            raise TypeError(f"dtype: {self.dtype} is not a structured (record) dtype")
        self.shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)
        if any(n < 0 for n in self.shape):
            raise ValueError(f"shape: negative dimensions are not allowed, got {self.shape}")
        if order not in ("C", "F"):
            raise ValueError(f"order must be 'C' or 'F', got {order!r}")
        self.strides = _strides(self.shape, self.dtype.itemsize, order) if strides is None else tuple(strides)
        self._bytes = _bytes if _bytes is not None else _empty(
            (max(_span(self.shape, self.strides, self.dtype.itemsize), 1),), "uint8",
            device if device is not None else default_device())

    @classmethod
    def from_host(cls, ary, device=None):
        """A device copy of the NumPy structured array (or record scalar) `ary`."""
        ary = np.asarray(ary)
        order = "F" if ary.flags.f_contiguous and not ary.flags.c_contiguous else "C"
        result = cls(ary.shape, ary.dtype, order, device)
        result.copy_to_device(ary)
        return result

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def device(self):
        return self._bytes.device

    @property
    def _data_ptr(self):
        return self._bytes._data_ptr

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __repr__(self):
        return f"<kiln.cuda DeviceRecordArray shape={self.shape} dtype={self.dtype} on {self.device}>"

    def _host_layout(self, buffer):
        return np.ndarray(self.shape, self.dtype, buffer=buffer, strides=self.strides)

    def copy_to_host(self, ary=None, stream=0):
        """The records as a NumPy array (written into `ary` when given, and returned)."""
        return delivered(self._host_layout(self._bytes.get()), ary, self)

    def copy_to_device(self, ary, stream=0):
        """The records of `ary` (a NumPy array or record, or another device record array) copied in."""
        if isinstance(ary, DeviceRecordArray):
            self[...] = ary
            return
        ary = np.asarray(ary)
        if ary.dtype != self.dtype or ary.shape != self.shape:
            raise ValueError(f"copy_to_device: ary is {ary.dtype} of shape {ary.shape}, the device array "
                             f"{self.dtype} of shape {self.shape}")
        staged = np.zeros(self._bytes.shape, np.uint8)
        self._host_layout(staged)[...] = ary
        self._bytes.set(staged)

    def _byte_view(self):
        """The records as a kiln uint8 array of shape (*shape, itemsize), viewing the same memory."""
        from ..lib.stride_tricks import as_strided

        return as_strided(self._bytes, self.shape + (self.dtype.itemsize,), self.strides + (1,))

    def _kernel_view(self):
        """What a kernel is passed: a uint8 kiln array with this array's shape
        and byte strides over the same memory (the launcher reads only its
        address, shape, strides and device; the kernel sees records)."""
        from ..lib.stride_tricks import as_strided

        return as_strided(self._bytes, self.shape, self.strides)

    def __setitem__(self, key, value):
        """``ary[...] = other``: every record copied from `other` (a device record array or a NumPy array)."""
        if key is not Ellipsis and key != slice(None):
            raise NotImplementedError("a device record array is assigned whole (ary[...] = other); copy it to the "
                                      "host to change single records")
        if not isinstance(value, DeviceRecordArray):
            value = DeviceRecordArray.from_host(value, self.device)
        if value.dtype != self.dtype or value.shape != self.shape:
            raise ValueError(f"cannot assign {value.dtype} of shape {value.shape} to {self.dtype} of shape {self.shape}")
        self._byte_view()[...] = value._byte_view()

    def transpose(self):
        """The transposed view (the same memory)."""
        return DeviceRecordArray(self.shape[::-1], self.dtype, strides=self.strides[::-1], _bytes=self._bytes)

    T = property(transpose)

    def is_c_contiguous(self):
        return self.strides == _strides(self.shape, self.dtype.itemsize, "C")

    def is_f_contiguous(self):
        return self.strides == _strides(self.shape, self.dtype.itemsize, "F")

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "descr": self.dtype.descr,
                "data": (self._data_ptr if self.size else 0, False), "version": 3,
                "strides": None if self.is_c_contiguous() else self.strides, "stream": None}
