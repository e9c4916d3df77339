"""Numba's ``cuda.devices`` (``numba.cuda.cudadrv.devices``): the GPUs and
their contexts by Numba's names."""
from .._numba_cuda.numba_host import close as reset  # noqa: F401
from .._numba_cuda.numba_host import current_context as get_context  # noqa: F401
from .._numba_cuda.numba_host import gpus  # noqa: F401
