"""kiln.random: NumPy's random API on Philox4x32-10 counter-based streams
(and, for Generator, CuPy's XORWOW and MRG32k3a bit generators),
the same numbers on the CPU and on a GPU for the same seed and shape (bits,
uniforms, integers and float32 normals exactly; float64 normals and
exponentials to the last ulp or so of the platform's log/sin/cos). choice
without replacement, permutation and shuffle order by sorting random keys,
so they differ from NumPy's draws. Every distribution of NumPy's Generator
and RandomState is built on those draws (_distributions.py)."""
from ._generator import (BitGenerator, Generator, MRG32k3a, Philox, Philox4x3210, XORWOW,  # noqa: F401
                         default_rng)
from ._legacy import MODULE_FUNCTIONS, RandomState, get_random_state, reset_states, seed, set_random_state  # noqa: F401
from . import _legacy

globals().update({name: getattr(_legacy, name) for name in MODULE_FUNCTIONS})


def __getattr__(name):
    if name == "SeedSequence":  # host-side entropy mixing: NumPy's, loaded on first use
        from numpy.random import SeedSequence

        return SeedSequence
    raise AttributeError(f"module 'kiln.random' has no attribute {name!r}")
