"""Numba's ``cuda.reduce`` / ``cuda.Reduce``: a full reduction of a 1-D array
by a binary function, on the array's device. Each pass has T threads fold
a strided share of n values into T partial results, until one is left; the
function runs as a device function inside a kiln.cuda.jit kernel, so it
reads as Numba's does (associative and commutative, as Numba requires)."""
import numpy as np

from .._core import ndarray
from .._numpy.creation import asarray, empty
from .._numba_cuda import kernel_language as K
from .dispatcher import device_of, jit

_THREADS = 256
_FIRST_PASS_THREADS = 64 * _THREADS  # enough to fill a GPU; a few blocks a core on the CPU


class Reduce:
    def __init__(self, functor):
        self._functor = functor
        self.__name__ = getattr(functor, "__name__", "reduce")
        self.__doc__ = functor.__doc__
        op = jit(device=True)(functor)

        def fold(values, n, partials, init, use_init):
            t = K.grid(1)
            stride = K.gridsize(1)
            if t < n:
                acc = values[t]
                i = t + stride
                while i < n:
                    acc = op(acc, values[i])
                    i += stride
                if use_init and t == 0:
                    acc = op(acc, init)
                partials[t] = acc

        self._fold = jit(fold)

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        """The reduction of `arr` (its first `size` elements), combined once with
        `init`; written to ``res[0]`` (then None is returned) or returned."""
        if arr.ndim != 1:
            raise TypeError(f"reduce: only 1-D arrays are reduced (arr is {arr.ndim}-D)")
        if size is not None:
            arr = arr[:size]
        init = np.dtype(arr.dtype.name).type(init)
        if arr.size < 1:
            return init
        device = device_of([arr])
        values = arr if isinstance(arr, ndarray) else asarray(arr, device=device)
        n, use_init = values.size, True
        while True:
            # later passes fold at least 16 values a thread, so each shrinks n
            threads = min(n, _FIRST_PASS_THREADS) if use_init else max(1, min(_THREADS, n // 16))
            partials = empty(threads, dtype=values.dtype, device=device)
            self._fold[-(-threads // _THREADS), min(threads, _THREADS), stream](values, n, partials, init, use_init)
            values, n, use_init = partials, threads, False
            if n == 1:
                break

        if res is not None:
            res[:1] = values
            return None
        return values[0].item()
