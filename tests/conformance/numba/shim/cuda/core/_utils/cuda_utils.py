from kiln.cuda import CUDAError  # noqa: F401
