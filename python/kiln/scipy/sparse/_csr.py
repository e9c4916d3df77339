"""Compressed sparse rows (SciPy's csr_matrix); the work is _compressed.py's."""
from ._base import FORMATS
from ._compressed import _compressed_matrix


class csr_matrix(_compressed_matrix):
    """A sparse matrix stored by rows: ``data``, ``indices`` (the column of
    each entry) and ``indptr`` (where each row's entries start)."""

    format = "csr"


FORMATS["csr"] = csr_matrix
