"""``kiln.scipy.sparse``: SciPy's predicates for sparse matrices.

kiln has no sparse matrix types yet, so nothing is a kiln sparse matrix and
these predicates answer False (SciPy's own sparse matrices live on the host
and are not kiln's, as CuPy's ``cupyx.scipy.sparse.issparse`` says of them
too). Code written for CuPy asks ``cupyx.scipy.sparse.issparse(x)`` before
treating a result as dense, and runs unchanged."""

# The sparse matrix classes of kiln: none yet. issparse checks against this
# tuple so that the classes, once added, are recognised.
SPARSE_TYPES = ()


def issparse(x):
    """Whether ``x`` is one of kiln's sparse matrices."""
    return isinstance(x, SPARSE_TYPES)


isspmatrix = issparse


def isspmatrix_csr(x):
    return issparse(x) and x.format == "csr"


def isspmatrix_csc(x):
    return issparse(x) and x.format == "csc"


def isspmatrix_coo(x):
    return issparse(x) and x.format == "coo"
