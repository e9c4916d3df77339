"""CuPy's ``cupy.cuda.driver``, the part a program asks of: the CUDA version
kiln builds kernels for, the driver's version, and the driver's error type;
and Numba's ``cuda.driver`` copies by address (``device_to_host``...).
(kiln.pycuda.driver is PyCUDA's driver module; this is CuPy's and Numba's.)"""
from .backend import CUDAError, core

CUDADriverError = CUDAError


def get_build_version():
    """The CUDA version kiln compiles kernels for (1000 * major + 10 * minor): its NVRTC's."""
    from .runtime import runtimeGetVersion

    return runtimeGetVersion()


def driverGetVersion():
    """The installed driver's CUDA version; CUDAError without one."""
    return core()._cuda_driver_version()


# Numba's driver-module copies (``cuda.driver.device_to_host`` and the rest):
# `size` bytes between a device pointer (an int, a MemoryPointer, a device
# array with Numba's gpu_data, or an array exporting
# __cuda_array_interface__) and host memory (a NumPy array, a ctypes object or
# an address); synchronous unless `stream` is given.
def _device_address(obj):
    memory = getattr(obj, "gpu_data", None)  # Numba's and kiln's device arrays: their MemoryPointer
    if memory is not None:
        return int(memory)
    interface = getattr(obj, "__cuda_array_interface__", None)
    return interface["data"][0] if isinstance(interface, dict) else int(obj)


def _host_address(obj):
    import ctypes

    interface = getattr(obj, "__array_interface__", None)
    if isinstance(interface, dict):
        return interface["data"][0]
    if isinstance(obj, ctypes._SimpleCData) or isinstance(obj, (ctypes.Array, ctypes.Structure)):
        return ctypes.addressof(obj)
    return int(obj)


def _copy(dst, src, size, stream):
    from .memory import _copy as copy_bytes

    copy_bytes(dst, src, int(size), int(getattr(stream, "ptr", stream)) if stream else None)


def device_to_host(dst, src, size, stream=0):
    _copy(_host_address(dst), _device_address(src), size, stream)


def host_to_device(dst, src, size, stream=0):
    _copy(_device_address(dst), _host_address(src), size, stream)


def device_to_device(dst, src, size, stream=0):
    _copy(_device_address(dst), _device_address(src), size, stream)
