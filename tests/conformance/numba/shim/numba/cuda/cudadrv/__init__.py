"""``numba.cuda.cudadrv``: Numba's driver package, by its names in kiln."""
from . import devicearray, driver, error  # noqa: F401
