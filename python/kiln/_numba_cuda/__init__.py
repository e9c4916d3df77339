"""Numba's CUDA dialect beneath its compiler: the kernel language's names,
Numba's types, bfloat16 and vector types, foreign device functions, the host
API and its arrays, NUMBA_* configuration. kiln.cuda shows them under
Numba's names; kiln/_jit compiles them."""
