"""What kiln.cuda.jit raises and warns (importable without NumPy)."""
from .._core import CompileError


class TypingError(CompileError):
    """A kernel's types do not work out (kiln.cuda.TypingError)."""


class UnsupportedError(CompileError):
    """A Python construct kiln.cuda.jit does not translate (kiln.cuda.UnsupportedError)."""


class PerformanceWarning(UserWarning):
    """A NumPy array passed to a GPU kernel is copied to the device and back (as Numba warns)."""
