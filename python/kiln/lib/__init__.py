"""``kiln.lib``: NumPy's ``numpy.lib`` helpers that CuPy offers (stride_tricks)."""
from . import stride_tricks  # noqa: F401
