"""What kiln.cuda.jit raises and warns (importable without NumPy)."""
import warnings

from .._core import CompileError
from .._numba_cuda import config


class TypingError(CompileError):
    """A kernel's types do not work out (kiln.cuda.TypingError)."""


class UnsupportedError(CompileError):
    """A Python construct kiln.cuda.jit does not translate (kiln.cuda.UnsupportedError)."""


class PerformanceWarning(UserWarning):
    """A NumPy array passed to a GPU kernel is copied to the device and back,
    or a grid is too small to fill a GPU (as Numba warns)."""


def performance_warning(setting, message, stacklevel):
    """Warns `message` when the config flag named `setting` is on and
    performance warnings are not disabled."""
    if getattr(config, setting) and not config.DISABLE_PERFORMANCE_WARNINGS:
        warnings.warn(message, PerformanceWarning, stacklevel=stacklevel + 1)


def warn_low_occupancy(grid, stacklevel):
    """Numba's warning for a launch of fewer than 128 blocks (when
    ``config.CUDA_LOW_OCCUPANCY_WARNINGS`` is on)."""
    blocks = 1
    for extent in grid:
        blocks *= extent
    if blocks < 128:
        performance_warning("CUDA_LOW_OCCUPANCY_WARNINGS", f"Grid size {blocks} will likely result in GPU "
                            "under-utilization due to low occupancy.", stacklevel + 1)
