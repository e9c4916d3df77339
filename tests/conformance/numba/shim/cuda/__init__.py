"""The ``cuda`` package (cuda-python) as far as Numba's tests name it: its
CUDAError is kiln.cuda.CUDAError."""
