"""kiln.scipy.signal.windows: SciPy's window functions, computed on the
host by SciPy (see _design.py) and returned as kiln arrays."""
from ._design import WINDOWS, made_on_first_use

__getattr__ = made_on_first_use("signal.windows", WINDOWS, globals())
__all__ = list(WINDOWS)
