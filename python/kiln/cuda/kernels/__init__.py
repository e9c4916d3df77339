"""Numba's ready-made kernels (``numba.cuda.kernels``): ``transpose``."""
