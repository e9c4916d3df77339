"""Compressed sparse rows (SciPy's csr_matrix); the work is _compressed.py's."""
from ._base import ARRAY_FORMATS, FORMATS, sparray, spmatrix
from ._compressed import _compressed_matrix


class _csr_base(_compressed_matrix):
    """A sparse matrix stored by rows: ``data``, ``indices`` (the column of
    each entry) and ``indptr`` (where each row's entries start)."""

    format = "csr"


class csr_matrix(spmatrix, _csr_base):
    """SciPy's csr_matrix."""


class csr_array(sparray, _csr_base):
    """SciPy's csr_array."""


FORMATS["csr"], ARRAY_FORMATS["csr"] = csr_matrix, csr_array
