"""kiln.scipy.sparse: SciPy's sparse matrices for code ported from
``cupyx.scipy.sparse``, on every device.

The formats are CSR and CSC (_compressed.py, where the work is done), COO
(_coo.py) and DIA (_dia.py), each holding kiln arrays, each as SciPy's
matrix (``csr_matrix``) and array (``csr_array``: elementwise ``*``, 1-d
reductions; _base.py's spmatrix and sparray say which); the constructors are
_construct.py's and indexing is _index.py's; the solvers are linalg's. Every operation is built of
kiln's array operations (sorts, gathers, ``add.at``), so a matrix works on
whichever device its arrays live on. ``get()`` gives SciPy's matrix on the
host; SciPy's own matrices are accepted wherever a matrix is built."""
from ._base import SparseEfficiencyWarning, SparseWarning, _spbase, sparray, spmatrix
from ._construct import (block_array, block_diag, bmat, diags, diags_array, eye, eye_array, find, hstack, identity,
                         kron, kronsum, rand, random, random_array, spdiags, tril, triu, vstack)
from ._coo import coo_array, coo_matrix
from ._csc import csc_array, csc_matrix
from ._csr import csr_array, csr_matrix
from ._dia import dia_array, dia_matrix
from . import linalg  # noqa: F401  (scipy.sparse.linalg)


def issparse(x):
    """Whether ``x`` is one of kiln's sparse matrices or arrays (SciPy's, on the host, are not)."""
    return isinstance(x, _spbase)


def isspmatrix(x):
    """Whether ``x`` is one of kiln's sparse matrices (not arrays, as SciPy's)."""
    return isinstance(x, spmatrix)


def isspmatrix_csr(x):
    return isinstance(x, csr_matrix)


def isspmatrix_csc(x):
    return isinstance(x, csc_matrix)


def isspmatrix_coo(x):
    return isinstance(x, coo_matrix)


def isspmatrix_dia(x):
    return isinstance(x, dia_matrix)


__all__ = ["SparseEfficiencyWarning", "SparseWarning", "block_array", "block_diag", "bmat", "coo_array",
           "coo_matrix", "csc_array", "csc_matrix", "csr_array", "csr_matrix", "dia_array", "dia_matrix", "diags",
           "diags_array", "eye", "eye_array", "find", "hstack", "identity", "issparse", "isspmatrix",
           "isspmatrix_coo", "isspmatrix_csc", "isspmatrix_csr", "isspmatrix_dia", "kron", "kronsum", "rand",
           "random", "random_array", "sparray", "spdiags", "spmatrix", "tril", "triu", "vstack"]
