"""kiln.scipy: SciPy's spellings for code ported from ``cupyx.scipy``."""
from . import fft, sparse, special  # noqa: F401
