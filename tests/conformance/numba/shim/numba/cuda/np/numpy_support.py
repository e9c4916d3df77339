"""``numba.np.numpy_support.from_dtype``: the Numba type of a NumPy dtype."""
from kiln.cuda.types import from_dtype  # noqa: F401
