"""kiln.scipy: SciPy's spellings for code ported from ``cupyx.scipy``."""
from . import fft  # noqa: F401


def __getattr__(name):
    # kiln.scipy.special, linalg, ndimage, signal, sparse and stats are loaded when first used: they
    # need NumPy, which `import kiln` does not load.
    if name in ("special", "linalg", "ndimage", "signal", "sparse", "stats"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'kiln.scipy' has no attribute {name!r}")
