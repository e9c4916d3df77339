"""Arrays made by Numba's host API (to_device, device_array, as_cuda_array,
IPC): kiln arrays with Numba's marks, which the conversions to NumPy and the
interchange protocols read (kiln/_ndarray/methods.py, _ndarray/cuda_array_interface.py)."""


def numba_array(a, stream=0):
    """`a` marked as made by Numba's host API: NumPy converts it to a host
    copy, as Numba's device arrays allow (``np.testing.assert_equal(d, h)``);
    CuPy's arrays refuse to (kiln/_ndarray/methods.py). Its ``stream`` is the stream
    it was made on (0: none), which it exports through
    ``__cuda_array_interface__`` (see _ndarray/cuda_array_interface.py)."""
    a._numba_device_array = True
    a._numba_stream = stream or 0
    return a
