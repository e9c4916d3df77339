"""Numba's ``numba.cuda.devicearray`` (``cuda.devicearray``): the type of
the device arrays Numba's host API makes, and ``auto_device``, which Numba's
kernels call on each host argument. kiln's device arrays are kiln arrays
(a DeviceRecordArray for structured dtypes, a DeviceTimeArray for
datetime64 and timedelta64)."""
from .._core import ndarray as DeviceNDArray  # noqa: F401  (Numba's name for the type of cuda.to_device's arrays)

# Numba's words for a host array that is not one block of memory.
errmsg_contiguous_buffer = ("Array contains non-contiguous buffer and cannot be transferred as a single memory "
                            "region. Please ensure contiguous buffer with numpy .ascontiguousarray()")


def is_cuda_ndarray(obj):
    """Whether `obj` is one of kiln's device arrays."""
    from .._numba_cuda.record_arrays import DeviceRecordArray  # NumPy's structured dtypes: loaded when needed
    from .._numba_cuda.time_arrays import DeviceTimeArray  # datetime64 and timedelta64

    return isinstance(obj, (DeviceNDArray, DeviceRecordArray, DeviceTimeArray))


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """Numba's: (a device array holding `obj`, whether it was copied there).
    Device arrays and objects exporting ``__cuda_array_interface__`` come
    back as they are (no copy); anything else becomes a NumPy array, which
    must be one block of memory (ValueError otherwise, as in Numba), copied
    to the default device when `copy`."""
    import numpy as np

    from .._numba_cuda.numba_host import as_cuda_array, device_array_like, to_device

    if is_cuda_ndarray(obj):
        return obj, False
    if hasattr(obj, "__cuda_array_interface__"):
        return as_cuda_array(obj), False
    host = np.asarray(obj)
    if not (host.flags.c_contiguous or host.flags.f_contiguous):
        raise ValueError(errmsg_contiguous_buffer)
    return (to_device(host, stream) if copy else device_array_like(host, stream)), True
