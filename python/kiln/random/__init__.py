"""kiln.random: NumPy's random API on Philox4x32-10 counter-based streams,
the same numbers on the CPU and on a GPU for the same seed and shape (bits,
uniforms and integers exactly; normals to the last ulp or so of the
platform's log/sin/cos).

Not yet: choice, permutation, shuffle and the distributions beyond normal,
uniform, exponential and integers."""
from ._generator import Generator, default_rng  # noqa: F401
from ._legacy import (RandomState, exponential, get_random_state, normal, rand, randint, randn, random,  # noqa: F401
                      random_sample, ranf, sample, seed, standard_normal, uniform)
