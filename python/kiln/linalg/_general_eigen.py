"""Eigenvalues and eigenvectors of general (non-symmetric) square matrices:
eig, eigvals, as NumPy's (eigenvectors as unit columns).

LAPACK's geev on the CPU and cuSOLVER's Xgeev on the GPU (the core's
eig). Results are complex for every input, as CuPy's are (NumPy makes them
real when every eigenvalue of a real matrix happens to be)."""
from collections import namedtuple

from .. import _core
from .._core import ndarray
from .._numpy.creation import asarray

EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])


def _operand(a):
    a = a if isinstance(a, ndarray) else asarray(a)
    if a.dtype.kind not in "biufc":
        raise TypeError(f"array type {a.dtype} is unsupported in linalg")
    return a


def eig(a):
    """(eigenvalues, eigenvectors) of each square matrix in ``a``, complex."""
    return EigResult(*_core._eig(_operand(a), True))


def eigvals(a):
    """The eigenvalues of each square matrix in ``a``, complex."""
    return _core._eig(_operand(a), False)[0]
