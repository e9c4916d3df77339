"""Numba's ``numba.cuda.utils``, as far as the tests read it: the Python version."""
import sys

PYVERSION = sys.version_info[:2]
