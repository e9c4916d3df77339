"""kiln.cuda.jit: Numba's CUDA kernel language translated to C++ (see
dispatcher.py for the decorator, translate.py for the language)."""
