"""Compressed sparse columns (SciPy's csc_matrix); the work is _compressed.py's."""
from ._base import FORMATS
from ._compressed import _compressed_matrix


class csc_matrix(_compressed_matrix):
    """A sparse matrix stored by columns: ``data``, ``indices`` (the row of
    each entry) and ``indptr`` (where each column's entries start)."""

    format = "csc"


FORMATS["csc"] = csc_matrix
