"""Eigenvalues and eigenvectors of general (non-symmetric) square matrices:
eig, eigvals, as NumPy's (complex results, eigenvectors as unit columns).

They are LAPACK's geev on the host (through NumPy), for arrays on any
device: the values come back to the array's device. kiln's GPU path for
them (cuSOLVER's Xgeev) is not written yet, so a GPU array makes a round
trip through host memory here."""
from collections import namedtuple

from .._core import ndarray
from .._creation import asarray

EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])


def _square(a, name):
    a = a if isinstance(a, ndarray) else asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        from .._core import LinAlgError

        raise LinAlgError(f"{name}: last 2 dimensions of the array must be square")
    if a.dtype.kind not in "biufc":
        raise TypeError(f"{name}: array type {a.dtype} is unsupported in linalg")
    return a


def _result_dtype(a):
    return "complex64" if a.dtype.name in ("float16", "float32", "complex64") else "complex128"


def eig(a):
    """(eigenvalues, eigenvectors) of each square matrix in ``a``, complex."""
    import numpy as np

    a = _square(a, "eig")
    values, vectors = np.linalg.eig(a.get().astype(_result_dtype(a)))
    return EigResult(asarray(values, device=a.device), asarray(vectors, device=a.device))


def eigvals(a):
    """The eigenvalues of each square matrix in ``a``, complex."""
    import numpy as np

    a = _square(a, "eigvals")
    return asarray(np.linalg.eigvals(a.get().astype(_result_dtype(a))), device=a.device)
