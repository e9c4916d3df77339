"""``numba.core`` for Numba's CPU tests: the modules numba.cuda.core has
(the CUDA tests' copies of the same names: config, errors, bytecode,
controlflow) under Numba's CPU names, and types/ and utils.py beside this
file."""
import sys as _sys

from ..cuda.core import bytecode, config, controlflow, errors  # noqa: F401

for _name in ("bytecode", "config", "controlflow", "errors"):
    _sys.modules[f"{__name__}.{_name}"] = globals()[_name]
