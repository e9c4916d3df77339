"""Numba's error names, mapped to kiln's."""
from kiln.cuda import TypingError, UnsupportedError  # noqa: F401
from kiln.cuda import PerformanceWarning as NumbaPerformanceWarning  # noqa: F401

NumbaTypeError = TypingError


class NumbaInvalidConfigWarning(UserWarning):
    """Numba warns with it for debug=True with optimisation (NVVM cannot do
    both). kiln has no such warning (its debug mode runs optimised): a class
    of the shim's own, which kiln never raises."""
