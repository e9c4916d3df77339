"""Compressed sparse columns (SciPy's csc_matrix); the work is _compressed.py's."""
from ._base import ARRAY_FORMATS, FORMATS, sparray, spmatrix
from ._compressed import _compressed_matrix


class _csc_base(_compressed_matrix):
    """A sparse matrix stored by columns: ``data``, ``indices`` (the row of
    each entry) and ``indptr`` (where each column's entries start)."""

    format = "csc"


class csc_matrix(spmatrix, _csc_base):
    """SciPy's csc_matrix."""


class csc_array(sparray, _csc_base):
    """SciPy's csc_array."""


FORMATS["csc"], ARRAY_FORMATS["csc"] = csc_matrix, csc_array
