"""Numba's configuration variables that kiln's Numba face honours
(``numba.cuda.core.config``'s names): read from Numba's environment
variables when this module loads, and settable at run time
(``kiln.cuda.config.CUDA_LOW_OCCUPANCY_WARNINGS = 1``)."""
import os


def _flag(name, default):
    value = os.environ.get(name)
    return default if value is None or value == "" else int(value)


# Warn when a kernel's grid has fewer than 128 blocks (Numba warns by
# default; kiln does not, small grids being the rule on the CPU and in tests).
CUDA_LOW_OCCUPANCY_WARNINGS = _flag("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", 0)
# Warn when a kernel's NumPy array arguments are copied to a GPU and back.
CUDA_WARN_ON_IMPLICIT_COPY = _flag("NUMBA_CUDA_WARN_ON_IMPLICIT_COPY", 1)
# No performance warnings at all.
DISABLE_PERFORMANCE_WARNINGS = _flag("NUMBA_DISABLE_PERFORMANCE_WARNINGS", 0)
# Synchronize the stream an imported __cuda_array_interface__ names before
# using its memory (kernel arguments, as_cuda_array), as Numba does.
CUDA_ARRAY_INTERFACE_SYNC = _flag("NUMBA_CUDA_ARRAY_INTERFACE_SYNC", 1)
