"""CuPy's kernel faces: RawKernel/RawModule, ElementwiseKernel,
ReductionKernel, their parameter lists, fuse."""
