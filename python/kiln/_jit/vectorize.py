"""Numba's ``cuda.vectorize``: a scalar Python function made a ufunc-like
object. The function is translated as a device function (translate.py) for
the chosen signature's types and called from an ElementwiseKernel, which
brings broadcasting, output allocation and both devices; NumPy inputs come
back as NumPy results, kiln arrays stay where they are, as Numba's CUDA
ufuncs do with host and device arrays.
"""
import warnings

import numpy as np

from .._core import ndarray
from .._numba_cuda.time_arrays import DeviceTimeArray
from . import pickling
from . import types as T
from .dispatcher import Module, device_of, foreign_arrays_viewed
from .translate import Function, Translation


def _device_source(function, arg_types):
    """(preamble, C name, return type) of `function` translated for `arg_types`."""
    module = Module()
    c_name = f"kiln_ufunc_{function.c_name}"
    translation = Translation(function, arg_types, module, kernel=False, c_name=c_name)
    module.definitions.append("\n".join(translation.lines))
    return module.source([]), c_name, translation.return_type


def _stored(t):
    """The dtype kiln's arrays hold a value of type `t` in: int64 for
    datetime64 and timedelta64 (their counts; the device function is
    translated for the time type itself)."""
    return np.dtype(np.int64) if T.is_time(t) else t


def _stored_input(value, t, device):
    """An input of the ufunc's kernel: a kiln array of `t` (of the counts of a time type)."""
    from .._numpy.creation import asarray

    if isinstance(value, DeviceTimeArray):
        return value._values
    if T.is_time(t):
        return asarray(np.asarray(value).astype(t).view(np.int64), device=device)
    return asarray(value, dtype=t.name, device=device)


def _on_host(result, t):
    """A kernel's result copied to the host, a time type's counts viewed as that type."""
    host = result.get()
    return host.view(t) if T.is_time(t) else host


def _on_device(result, t):
    """A kernel's result left on its device, a time type's counts as a DeviceTimeArray."""
    return DeviceTimeArray(result, t) if T.is_time(t) else result


def _choose(signatures, dtypes, name):
    """Numba's choice of a loop: the first declared signature whose argument
    types equal the inputs', else the first they cast to safely."""
    for exact in (True, False):
        for ret, args in signatures:
            if len(args) == len(dtypes) and all(
                    d == a if exact else np.can_cast(d, a, "safe") for d, a in zip(dtypes, args)):
                return ret, args
    declared = " or ".join(f"{r}({', '.join(map(str, a))})" for r, a in signatures)
    raise TypeError(f"{name}: no signature of {declared} takes ({', '.join(map(str, dtypes))})")


def _dtype_of(value):
    if isinstance(value, (ndarray, np.ndarray, np.generic, DeviceTimeArray)):
        return np.dtype(str(value.dtype))
    if isinstance(value, (list, tuple)):  # array-likes, as to NumPy's ufuncs (a namedtuple too)
        return np.asarray(value).dtype
    return T.of_value(value)


class CUDAUFunc:
    """What ``@cuda.vectorize`` returns: call it on arrays and scalars
    (broadcast), with ``out=`` and ``stream=``; ``reduce`` folds a 1-D array."""

    def __init__(self, pyfunc, signatures=()):
        self.py_func = pyfunc
        self.__name__ = pyfunc.__name__
        self.__doc__ = pyfunc.__doc__
        self._function = Function(pyfunc)
        self._signatures_given = tuple(signatures)  # for pickling (see __reduce__)
        self.signatures = [T.parse_signature(s) for s in signatures]
        for ret, _ in self.signatures:  # None: a signature of argument types only, its result inferred
            if ret is not None and not T.is_scalar(ret):
                raise TypeError(f"vectorize: {self.__name__} returns a scalar, not {ret}")
        self.nin, self.nout = len(self._function.params), 1
        self.nargs = self.nin + 1
        self._kernels = {}  # argument dtypes -> (ElementwiseKernel, argument dtypes, result dtype)

    def __reduce__(self):
        """Pickled by value, as Numba pickles its ufuncs (kiln/_jit/pickling.py)."""
        return pickling.rebuild, (CUDAUFunc, pickling.function_state(self.py_func), self._signatures_given)

    @property
    def types(self):
        return [''.join(a.char for a in args) + "->" + (ret.char if ret is not None else "?")
                for ret, args in self.signatures]

    def _kernel(self, dtypes):
        found = self._kernels.get(dtypes)
        if found is None:
            from .._cupy_kernels.elementwise import ElementwiseKernel

            if self.signatures:
                ret, args = _choose(self.signatures, dtypes, self.__name__)
            else:
                ret, args = None, list(dtypes)
            preamble, c_name, returned = _device_source(self._function, args)
            ret = ret or returned
            if not T.is_scalar(ret):
                raise TypeError(f"vectorize: {self.__name__} must return a number, it returns {ret}")
            inputs = ", ".join(f"{_stored(a).name} x{k}" for k, a in enumerate(args))
            call = f"{c_name}({', '.join(f'x{k}' for k in range(len(args)))})"
            kernel = ElementwiseKernel(inputs, f"{_stored(ret).name} out", f"out = ({T.c_name(ret)})({call})",
                                       name=f"kiln_vectorize_{self.__name__}", preamble=preamble)
            found = self._kernels[dtypes] = (kernel, args, ret)
        return found

    def __call__(self, *args, out=None, stream=0):
        args, out = foreign_arrays_viewed(args), foreign_arrays_viewed((out,))[0]
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__} takes {self.nin} arguments, got {len(args)}")
        kernel, arg_types, ret = self._kernel(tuple(_dtype_of(a) for a in args))
        device = device_of([*args, out])
        on_host = not any(isinstance(a, (ndarray, DeviceTimeArray)) for a in (*args, out))
        inputs = [_stored_input(a, t, device) for a, t in zip(args, arg_types)]
        target = out if isinstance(out, ndarray) else out._values if isinstance(out, DeviceTimeArray) else None
        result = kernel(*inputs, out=target, stream=stream or None)
        if isinstance(out, np.ndarray):
            out[...] = _on_host(result, ret)
            return out
        if isinstance(out, DeviceTimeArray):
            return out
        if on_host:
            host = _on_host(result, ret)
            return host[()] if all(np.ndim(a) == 0 for a in args) else host
        return _on_device(result, ret)

    def reduce(self, arr, axis=0, stream=0):
        """The ufunc folded over a 1-D array, pairwise (as Numba's CUDA ufuncs reduce)."""
        from .._numpy.creation import asarray

        if self.nin != 2:
            raise TypeError(f"{self.__name__}.reduce needs a function of two arguments")
        if axis != 0:
            raise ValueError(f"{self.__name__}.reduce: only axis=0")
        values = asarray(arr, device=device_of([arr]))
        if values.ndim != 1:
            raise ValueError(f"{self.__name__}.reduce: a 1-D array, not {values.ndim}-D")
        if values.size == 0:
            raise ValueError(f"{self.__name__}.reduce of an empty array")
        while values.size > 1:
            half = values.size // 2
            paired = self(values[:half], values[half:2 * half], stream=stream)
            values = paired if values.size % 2 == 0 else _append(paired, values[2 * half:])
        return values.get()[0]  # a host scalar, as Numba's


def _append(a, b):
    from .._numpy.manipulation.joining import concatenate

    return concatenate([a, b.astype(a.dtype)])


def vectorize(signatures_or_func=None, target="cuda", identity=None, cache=False, nopython=None, **options):
    """Numba's ``vectorize`` for the CUDA target: ``@vectorize(['float32(float32, float32)'])``
    or bare (types from the first call's inputs)."""
    if options:  # Numba's error and words
        raise KeyError(f"Unrecognized options: {sorted(options)} (vectorize takes target, identity, cache and "
                       "nopython)")
    if nopython is not None:
        warnings.warn("nopython kwarg for cuda target is redundant: kernels are always compiled without Python",
                      RuntimeWarning, stacklevel=2)
    if target not in ("cuda", "gpu", "cpu", "parallel"):
        raise ValueError(f"vectorize: unknown target {target!r}")
    if callable(signatures_or_func) and not isinstance(signatures_or_func, str):
        return CUDAUFunc(signatures_or_func)
    signatures = signatures_or_func or []
    signatures = [signatures] if isinstance(signatures, str) or not isinstance(signatures, (list, tuple)) \
        else list(signatures)
    return lambda pyfunc: CUDAUFunc(pyfunc, signatures)
