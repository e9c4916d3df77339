"""Numba's error names, mapped to kiln's."""
from kiln.cuda import TypingError, UnsupportedError  # noqa: F401
from kiln.cuda import PerformanceWarning as NumbaPerformanceWarning  # noqa: F401

NumbaTypeError = TypingError
