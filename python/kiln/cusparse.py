"""``kiln.cusparse`` (CuPy's ``cupyx.cusparse``): which of cuSPARSE's
routines kiln.scipy.sparse offers the operation of, by cuSPARSE's names,
and CuPy's in-place sorts of a matrix's indices (``csrsort``, ``cscsort``,
``coosort``). kiln's sparse matrices compute with its own operations on
every device, so getVersion() answers 0."""

from ._numpy.manipulation.joining import stack
from ._numpy.sorting import lexsort

# cuSPARSE's routines whose operations kiln.scipy.sparse offers: products
# with dense vectors and matrices and with sparse matrices, sums, format
# conversions and sorts.
_OFFERED = {"csrmv", "csrmvEx", "csrmm", "csrmm2", "spmv", "spmm", "csrgemm", "csrgemm2", "spgemm", "csrgeam",
            "csrgeam2", "csr2dense", "csc2dense", "dense2csr", "dense2csc", "csr2csc", "csc2csr", "coo2csr",
            "csr2coo", "coosort", "csrsort", "cscsort", "denseToSparse", "sparseToDense"}


def check_availability(name):
    """Whether kiln offers what cuSPARSE's routine ``name`` computes."""
    return name in _OFFERED


def getVersion():
    """The cuSPARSE version kiln's sparse operations use: 0, none (they are kiln's own)."""
    return 0


def _check_format(x, format, routine):
    if getattr(x, "format", None) != format:
        raise TypeError(f"x: {routine} takes a {format}_matrix, got {type(x).__name__}")


def csrsort(x):
    """Sorts the column indices of each row of CSR matrix `x` in place, as
    CuPy's (and cuSPARSE's) csrsort."""
    _check_format(x, "csr", "csrsort")
    x.sort_indices()


def cscsort(x):
    """Sorts the row indices of each column of CSC matrix `x` in place, as
    CuPy's (and cuSPARSE's) cscsort."""
    _check_format(x, "csc", "cscsort")
    x.sort_indices()


def coosort(x, sort_by="r"):
    """Sorts the entries of COO matrix `x` in place by (row, column), or
    by (column, row) with ``sort_by='c'`` (duplicates kept, as CuPy's)."""
    _check_format(x, "coo", "coosort")
    if sort_by not in ("r", "c"):
        raise ValueError("sort_by must be either 'r' or 'c'")
    if x.nnz == 0 or (sort_by == "r" and x.has_canonical_format):
        return
    order = lexsort(stack([x.col, x.row] if sort_by == "r" else [x.row, x.col]))
    x.row, x.col, x.data = x.row[order], x.col[order], x.data[order]
    if sort_by == "c":
        x.has_canonical_format = False
