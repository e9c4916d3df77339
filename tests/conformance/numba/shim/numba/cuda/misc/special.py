"""Numba's ``numba.cuda.misc.special``: literal_unroll is kiln.cuda's."""
from kiln.cuda import literal_unroll  # noqa: F401
