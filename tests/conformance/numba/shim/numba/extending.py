"""numba.extending: kiln.numba's register_jitable; Numba's other extension
names (overload, intrinsic, typeof_impl, models...) are internals' (names
whose use raises, see internals.py)."""
from kiln.numba.extending import register_jitable  # noqa: F401

from .internals import names_only

__getattr__ = names_only(__name__)
