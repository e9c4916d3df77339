"""kiln.polynomial: numpy.polynomial's power-series module and its
helpers, as CuPy offers them (``polynomial.polynomial``: polyvander,
polycompanion; ``polynomial.polyutils``: as_series, trimseq, trimcoef), on
kiln arrays of any device."""
from . import polynomial, polyutils  # noqa: F401
