"""kiln.random: NumPy's random API on Philox4x32-10 counter-based streams,
the same numbers on the CPU and on a GPU for the same seed and shape (bits,
uniforms, integers and float32 normals exactly; float64 normals and
exponentials to the last ulp or so of the platform's log/sin/cos). choice without replacement, permutation and
shuffle order by sorting random keys, so they differ from NumPy's draws.

Not yet: the distributions beyond normal, uniform, exponential and integers."""
from ._generator import Generator, default_rng  # noqa: F401
from ._legacy import (RandomState, choice, exponential, get_random_state, normal, permutation,  # noqa: F401
                      rand, randint, randn, random, random_sample, ranf, sample, seed, shuffle, standard_normal,
                      uniform)
