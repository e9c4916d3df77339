"""Numba's ``cuda.guvectorize``: a Python function over core dimensions
(``"(m,n),(n,p)->(m,p)"``) made a generalized ufunc. The function is
translated as a device function taking views of its core dimensions (a
number for a ``()`` input; a one-element view for a ``()`` output, as Numba
passes it); one generated kernel runs it once per element of the broadcast
loop dimensions, a thread each, on either device. NumPy inputs come back as
NumPy results, kiln arrays stay where they are."""
import re

import numpy as np

from .._core import ndarray
from .._cupy_kernels.raw import generated_kernels
from . import types as T
from .dispatcher import Module, device_of, foreign_arrays_viewed
from .errors import warn_low_occupancy
from .translate import Function, Translation
from .._numba_cuda.time_arrays import DeviceTimeArray
from .vectorize import _dtype_of, _on_device, _on_host, _stored, _stored_input

_THREADS = 128


def _parse_layout(layout):
    """'(m,n),(n)->(m)' -> ([('m', 'n'), ('n',)], [('m',)])."""
    def groups(text):
        return [tuple(d.strip() for d in g.split(",") if d.strip()) for g in re.findall(r"\(([^)]*)\)", text)]

    if layout.count("->") != 1:
        raise ValueError(f"guvectorize: the layout {layout!r} needs one '->'")
    ins, outs = layout.split("->")
    return groups(ins), groups(outs)


class CUDAGUFunc:
    """What ``@cuda.guvectorize`` returns: call it on arrays (inputs, then
    optionally the outputs), with ``out=`` and ``stream=``."""

    def __init__(self, pyfunc, signatures, layout):
        self.signatures = [T.parse_signature(s) for s in signatures]
        for given, (result, _) in zip(signatures, self.signatures):
            if result is not None:  # Numba's words
                raise TypeError(f"guvectorized functions cannot return values: signature {given} specifies "
                                f"{result} return type")
        self.py_func = pyfunc
        self.__name__ = pyfunc.__name__
        self.__doc__ = pyfunc.__doc__
        self._function = Function(pyfunc)
        self.layout = layout
        self._ins, self._outs = _parse_layout(layout)
        self.nin, self.nout = len(self._ins), len(self._outs)
        self.nargs = self.nin + self.nout
        if len(self._function.params) != self.nargs:
            raise TypeError(f"guvectorize: {self.__name__} takes {len(self._function.params)} arguments, the layout "
                            f"{layout!r} names {self.nargs}")
        self._kernels = {}

    def _choose(self, dtypes, weak, on_device):
        """The declared types of every argument: the first signature whose
        inputs are `dtypes`, else the first they cast to safely (Python
        numbers, `weak`, to any type of their kind); with one signature, host
        inputs of other types are cast to it (as Numba converts them), but
        a device array (`on_device`) is not converted."""
        if not self.signatures:
            raise TypeError(f"guvectorize: {self.__name__} needs its signatures")
        for rule in ("equiv", "safe", "same_kind"):
            for _, args in self.signatures:
                elements = [a.dtype if isinstance(a, T.ArrayType) else a for a in args]
                if all(np.can_cast(d, a, rule if (rule != "same_kind" or w) else "safe")
                       for d, a, w in zip(dtypes, elements, weak)):
                    return args
        if len(self.signatures) == 1:
            args = self.signatures[0][1]
            elements = [a.dtype if isinstance(a, T.ArrayType) else a for a in args]
            for k, (d, a, device) in enumerate(zip(dtypes, elements, on_device)):
                if device and d != a:  # Numba's words
                    raise TypeError(f"{self.__name__}: input {k} is a device array of {d}, declared {a}: a device "
                                    "array does not support .astype() here; convert it before the call")
            return args
        raise TypeError(f"{self.__name__}: no signature takes ({', '.join(map(str, dtypes))})")

    def _kernel(self, dtypes, weak, on_device):
        """The kernel for these input dtypes, and the element type of every argument."""
        found = self._kernels.get((dtypes, on_device))
        if found is None:
            declared = self._choose(dtypes, weak, on_device)
            args = [a.dtype if isinstance(a, T.ArrayType) else a for a in declared]
            core = self._ins + self._outs
            # an argument declared an array is a view of its core dimensions (a
            # one-element view for ()); one declared a number is a number
            views = [T.ArrayType(a, max(len(c), 1)) if isinstance(d, T.ArrayType) or k >= self.nin else a
                     for k, (a, d, c) in enumerate(zip(args, declared, core))]
            module = Module()
            c_name = f"kiln_gufunc_{self._function.c_name}"
            translation = Translation(self._function, views, module, kernel=False, c_name=c_name)
            module.definitions.append("\n".join(translation.lines))
            name = f"kiln_gufunc_kernel_{self._function.c_name}"
            params = [f"kiln_view<{T.c_name(a)}, {max(len(c), 1) + 1}> a{k}" for k, (a, c) in enumerate(zip(args, core))]
            items = [f"kiln_drop<0>(a{k}, i)" if isinstance(v, T.ArrayType) else f"a{k}.at(i, 0)"
                     for k, v in enumerate(views)]
            kernel_lines = [f"KILN_JIT_KERNEL {name}({', '.join(params)}, long long n) {{",
                            "  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;",
                            f"  if (i < n) {c_name}({', '.join(items)});", "}"]
            kernel, = generated_kernels(module.source(kernel_lines), [name])
            kernel._configure(name, "v" * len(args) + "q", [f"{a} a{k}" for k, a in enumerate(args)] + ["int64 n"],
                              kernel._kernel)
            found = self._kernels[(dtypes, on_device)] = (kernel, args)
        return found

    def __call__(self, *args, out=None, stream=0):
        from .._numpy.creation import empty
        from .._numpy.manipulation.shape import broadcast_to

        args, out = foreign_arrays_viewed(args), foreign_arrays_viewed((out,))[0]
        if out is not None:
            if len(args) > self.nin:
                raise ValueError("cannot specify argument 'out' as both positional and keyword")
            args = args + (tuple(out) if isinstance(out, (tuple, list)) else (out,))
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"{self.__name__}: gufunc accepts {self.nin} positional arguments (the inputs) or "
                            f"{self.nargs} positional arguments (with the outputs). Got {len(args)} positional "
                            f"argument{'s' if len(args) != 1 else ''}.")
        inputs, given = args[:self.nin], args[self.nin:]
        kernel, types = self._kernel(tuple(_dtype_of(a) for a in inputs),
                                     tuple(isinstance(a, (bool, int, float, complex)) for a in inputs),
                                     tuple(isinstance(a, ndarray) for a in inputs))
        device = device_of(list(args))
        on_host = not any(isinstance(a, (ndarray, DeviceTimeArray)) for a in args)
        arrays = [_stored_input(a, t, device) for a, t in zip(inputs, types)]
        sizes, loops = {}, []
        for a, core in zip(arrays, self._ins):
            if a.ndim < len(core):
                raise ValueError(f"{self.__name__}: an input of {a.ndim} dimensions for core dimensions {core}")
            for name, size in zip(core, a.shape[a.ndim - len(core):]):
                if sizes.setdefault(name, size) != size:
                    raise ValueError(f"{self.__name__}: core dimension {name!r} is {sizes[name]} and {size}")
            loops.append(a.shape[:a.ndim - len(core)])
        loop = np.broadcast_shapes(*loops) if loops else ()
        n = int(np.prod(loop, dtype=np.int64))
        flat = [broadcast_to(a, loop + a.shape[a.ndim - len(c):]).reshape((n,) + (a.shape[a.ndim - len(c):] or (1,)))
                for a, c in zip(arrays, self._ins)]
        outputs = []
        for core, t in zip(self._outs, types[self.nin:]):
            missing = [d for d in core if d not in sizes]
            if missing:
                raise ValueError(f"{self.__name__}: output core dimensions {missing} are not in any input")
            outputs.append(empty((n,) + (tuple(sizes[d] for d in core) or (1,)), dtype=_stored(t).name, device=device))
        if n:
            warn_low_occupancy((-(-n // _THREADS),), 2)
            kernel._launch((-(-n // _THREADS), 1, 1), (_THREADS, 1, 1), (*flat, *outputs, n), 0, stream or None)
        results = [o.reshape(loop + tuple(sizes[d] for d in core)) for o, core in zip(outputs, self._outs)]
        out_types = types[self.nin:]
        for target, result, t in zip(given, results, out_types):
            if isinstance(target, DeviceTimeArray):
                target._values[...] = result
            else:
                target[...] = _on_host(result, t) if isinstance(target, np.ndarray) else result
        if given:
            results = list(given)
        else:
            results = [(_on_host if on_host else _on_device)(r, t) for r, t in zip(results, out_types)]
        return results[0] if len(results) == 1 else tuple(results)


def guvectorize(signatures, layout, target="cuda", identity=None, cache=False, nopython=True, **options):
    """Numba's ``guvectorize`` for the CUDA target:
    ``@guvectorize([void(float32[:], float32[:])], "(n)->(n)")``."""
    if options:  # Numba's message
        raise TypeError("The following target options are not supported: " + ", ".join(map(repr, options)))
    if not nopython:
        raise TypeError("nopython flag must be True")
    if target not in ("cuda", "gpu", "cpu", "parallel"):
        raise ValueError(f"guvectorize: unknown target {target!r}")
    signatures = [signatures] if isinstance(signatures, str) or not isinstance(signatures, (list, tuple)) \
        else list(signatures)
    return lambda pyfunc: CUDAGUFunc(pyfunc, signatures, layout)
