"""``numba.core.types`` is kiln's Numba types (kiln.numba.types), as a
package, so that Numba's internal submodules of it (internals.py) import."""
from kiln.numba import types as _kiln_types

globals().update({k: v for k, v in vars(_kiln_types).items() if not k.startswith("__")})
