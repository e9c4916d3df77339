"""``kiln.cusparse`` (CuPy's ``cupyx.cusparse``): which of cuSPARSE's
routines kiln.scipy.sparse offers the operation of, by cuSPARSE's names.
kiln's sparse matrices compute with its own array operations on every
device (no cuSPARSE call yet), so getVersion() answers 0."""

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
