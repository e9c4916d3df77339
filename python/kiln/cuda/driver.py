"""CuPy's ``cupy.cuda.driver``, the part a program asks of: the CUDA version
kiln builds kernels for, the driver's version, and the driver's error type.
(kiln.driver is PyCUDA's driver module; this is CuPy's.)"""
from ._backend import CUDAError, core

CUDADriverError = CUDAError


def get_build_version():
    """The CUDA version kiln compiles kernels for (1000 * major + 10 * minor): its NVRTC's."""
    from .runtime import runtimeGetVersion

    return runtimeGetVersion()


def driverGetVersion():
    """The installed driver's CUDA version; CUDAError without one."""
    return core()._cuda_driver_version()
