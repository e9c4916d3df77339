"""kiln.scipy: SciPy's spellings for code ported from ``cupyx.scipy``."""
from . import fft, sparse  # noqa: F401


def __getattr__(name):
    # kiln.scipy.special is loaded when first used: it needs NumPy, which
    # `import kiln` does not load.
    if name == "special":
        from . import special

        return special
    raise AttributeError(f"module 'kiln.scipy' has no attribute {name!r}")
