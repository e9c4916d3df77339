"""``numba.cuda.cudadrv.driver``'s names the tests use, mapped to kiln's:
``CudaAPIError`` is kiln.cuda.CUDAError, ``driver`` kiln.cuda.driver (the
driver API by name), ``Stream`` kiln.cuda.Stream. kiln links kernels
without nvJitLink, so ``_have_nvjitlink()`` is False."""
from kiln.cuda import CUDAError as CudaAPIError  # noqa: F401
from kiln.cuda import Stream  # noqa: F401
from kiln.cuda import driver  # noqa: F401


def _have_nvjitlink():
    return False
