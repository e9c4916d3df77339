"""``numba.cuda.cudadrv.error``'s driver errors are kiln.cuda.CUDAError, the
error kiln raises for what the CUDA driver refuses (a fork of a process that
initialised CUDA among them)."""
from kiln.cuda import CUDAError as CudaDriverError  # noqa: F401
from kiln.cuda import CUDAError as CudaSupportError  # noqa: F401
