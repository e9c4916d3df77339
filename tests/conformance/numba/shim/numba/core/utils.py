"""The names Numba's CPU tests read from ``numba.core.utils``: facts about
the interpreter, and Python's own signature function under Numba's name."""
import inspect as _inspect
import sys as _sys

PYVERSION = _sys.version_info[:2]
pysignature = _inspect.signature
