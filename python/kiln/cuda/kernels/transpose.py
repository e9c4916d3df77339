"""Numba's ``cuda.kernels.transpose.transpose``."""

def transpose(a, b=None):
    """b = a.T for a 2-D array `a`, into `b` (made when None), which is returned.
    kiln's own transposing copy does it, on the array's device."""
    if a.ndim != 2:
        raise ValueError(f"transpose: a must be 2-D, not {a.ndim}-D")
    if b is None:
        from ..._numba_cuda.numba_host import device_array

        b = device_array((a.shape[1], a.shape[0]), dtype=a.dtype)
    if tuple(b.shape) != (a.shape[1], a.shape[0]):
        raise ValueError(f"transpose: b has the shape {tuple(b.shape)}, a.T has {(a.shape[1], a.shape[0])}")
    b[...] = a.T  # a record array's transpose is a strided copy of its bytes (record_arrays.py)
    return b
