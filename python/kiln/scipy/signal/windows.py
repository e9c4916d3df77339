"""kiln.scipy.signal.windows: SciPy's window functions, computed on the
host by SciPy (see _design.py) and returned as kiln arrays."""
from ._design import WINDOWS, on_host

globals().update({name: on_host("signal.windows", name) for name in WINDOWS})
__all__ = list(WINDOWS)
