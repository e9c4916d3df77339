"""Numba's configuration module is kiln's (kiln.cuda.config: the variables
kiln honours), with the rest of the names Numba's tests read: kiln is not
the simulator, and has no use for the others."""
import os
import sys

from kiln.cuda import config as _kiln_config

_READ_BY_TESTS = dict(
    ENABLE_CUDASIM=False, CUDA_ENABLE_NRT=False, CUDA_DEBUGINFO_DEFAULT=0, CUDA_ARRAY_INTERFACE_SYNC=1,
    CUDA_DEBUG_POLY=0, CUDA_DEBUG_POLY_USE_TYPED_CONST=0, DEBUGINFO_DEFAULT=0, ALWAYS_WARN_UNINIT_VAR=0, OPT=3, _O=3,
    HTML=None, DUMP_ASSEMBLY=0, DUMP_BYTECODE=0, DUMP_CFG=0, DUMP_IR=0, DUMP_LLVM=0,
    # and facts Numba's CPU tests read
    IS_32BITS=sys.maxsize <= 2 ** 32, IS_WIN32=sys.platform.startswith("win32"), IS_OSX=sys.platform == "darwin",
    DISABLE_JIT=0, NUMBA_NUM_THREADS=os.cpu_count() or 1, NUMBA_DEFAULT_NUM_THREADS=os.cpu_count() or 1)


class _OptLevel(int):
    """Numba's optimisation level (an int; "max" is its highest, 3), which
    tests set OPT to."""

    def __new__(cls, value):
        return super().__new__(cls, 3 if value == "max" else value)


for _name, _value in {**_READ_BY_TESTS, "_OptLevel": _OptLevel}.items():
    if not hasattr(_kiln_config, _name):
        setattr(_kiln_config, _name, _value)
sys.modules[__name__] = _kiln_config
