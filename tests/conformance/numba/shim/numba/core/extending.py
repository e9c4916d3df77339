"""numba.core.extending is numba.extending."""
from ..extending import register_jitable  # noqa: F401
from ..internals import names_only

__getattr__ = names_only(__name__)
