"""kiln.scipy.sparse: SciPy's sparse matrices for code ported from
``cupyx.scipy.sparse``, on every device.

The formats are CSR and CSC (_compressed.py, where the work is done), COO
(_coo.py) and DIA (_dia.py), each holding kiln arrays; the constructors are
_construct.py's and indexing is _index.py's; the solvers are linalg's. Every operation is built of
kiln's array operations (sorts, gathers, ``add.at``), so a matrix works on
whichever device its arrays live on. ``get()`` gives SciPy's matrix on the
host; SciPy's own matrices are accepted wherever a matrix is built."""
from ._base import SparseEfficiencyWarning, SparseWarning, spmatrix
from ._construct import (block_diag, bmat, diags, eye, find, hstack, identity, kron, kronsum, rand, random,
                         spdiags, tril, triu, vstack)
from ._coo import coo_matrix
from ._csc import csc_matrix
from ._csr import csr_matrix
from ._dia import dia_matrix
from . import linalg  # noqa: F401  (scipy.sparse.linalg)


def issparse(x):
    """Whether ``x`` is one of kiln's sparse matrices (SciPy's, on the host, are not)."""
    return isinstance(x, spmatrix)


isspmatrix = issparse


def isspmatrix_csr(x):
    return isinstance(x, csr_matrix)


def isspmatrix_csc(x):
    return isinstance(x, csc_matrix)


def isspmatrix_coo(x):
    return isinstance(x, coo_matrix)


def isspmatrix_dia(x):
    return isinstance(x, dia_matrix)


__all__ = ["SparseEfficiencyWarning", "SparseWarning", "block_diag", "bmat", "coo_matrix", "csc_matrix",
           "csr_matrix", "dia_matrix", "diags", "eye", "find", "hstack", "identity", "issparse", "isspmatrix",
           "isspmatrix_coo", "isspmatrix_csc", "isspmatrix_csr", "isspmatrix_dia", "kron", "kronsum", "rand",
           "random", "spdiags", "spmatrix", "tril", "triu", "vstack"]
