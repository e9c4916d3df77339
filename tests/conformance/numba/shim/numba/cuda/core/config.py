"""Numba's configuration variables the tests read: kiln is not the simulator."""
ENABLE_CUDASIM = False
DISABLE_PERFORMANCE_WARNINGS = 0
CUDA_WARN_ON_IMPLICIT_COPY = 1
CUDA_LOW_OCCUPANCY_WARNINGS = 0
CUDA_ENABLE_NRT = False
CUDA_DEBUGINFO_DEFAULT = 0
CUDA_ARRAY_INTERFACE_SYNC = 1
CUDA_DEBUG_POLY = 0
CUDA_DEBUG_POLY_USE_TYPED_CONST = 0
DEBUGINFO_DEFAULT = 0
ALWAYS_WARN_UNINIT_VAR = 0
OPT = 3
_O = 3
HTML = None
DUMP_ASSEMBLY = DUMP_BYTECODE = DUMP_CFG = DUMP_IR = DUMP_LLVM = 0


class _OptLevel(int):
    """Numba's optimisation level (an int; "max" is its highest, 3), which
    tests set OPT to."""

    def __new__(cls, value):
        return super().__new__(cls, 3 if value == "max" else value)
