"""kiln.scipy: SciPy's spellings for code ported from ``cupyx.scipy``."""
from . import fft  # noqa: F401


def __getattr__(name):
    # kiln.scipy.special, linalg, ndimage, signal, sparse, stats and interpolate are loaded when first
    # used: they need NumPy, which `import kiln` does not load.
    if name in ("special", "linalg", "ndimage", "signal", "sparse", "stats", "interpolate", "fftpack"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    if name == "_scipy_available":  # cupyx.scipy's flag, which code and tests read before importing SciPy
        import importlib.util

        return importlib.util.find_spec("scipy") is not None
    raise AttributeError(f"module 'kiln.scipy' has no attribute {name!r}")
