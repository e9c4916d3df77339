"""``kiln.cuda.jit``: Numba's decorator. A kernel is translated to C++ for each
new set of argument types (see translate.py), compiled like a RawKernel (NVRTC
for a GPU, the host compiler for the CPU, cached on disk) and launched as
``kernel[griddim, blockdim, stream, sharedmem](*args)``.
"""
import os
import warnings

import numpy as np

from .._core import _argument_kinds, ndarray
from .._raw_kernel import generated_kernels
from . import types as T
from .errors import PerformanceWarning, UnsupportedError
from .translate import Function, Translation


class Module:
    """The translation unit of one kernel specialisation: the support header
    (include/kiln/device/jit_support.cuh), constant arrays, the device
    functions it calls, then the kernel."""

    def __init__(self, debug=False):
        self.definitions = []
        self.constants = []
        self.device_functions = {}
        self.needs_dynamic_shared = False
        self.includes = set()  # device headers beyond jit_support.cuh that constructs need
        self.debug = debug
        self.exceptions = []  # (exception class, message, file, line) of each raise and assert, by code - 1

    def exception_code(self, cls, message, filename, line):
        """The number a kernel records for this raise or assert (debug mode)."""
        self.exceptions.append((cls, message, filename, line))
        return len(self.exceptions)

    def device_function(self, dispatcher, arg_types):
        key = (id(dispatcher), tuple(arg_types))
        found = self.device_functions.get(key)
        if found == "translating":
            dispatcher.function.error(UnsupportedError, dispatcher.function.node, "recursive device functions")
        if found is None:
            self.device_functions[key] = "translating"
            c_name = f"kiln_device_{dispatcher.function.name}_{len(self.definitions)}"
            translation = Translation(dispatcher.function, arg_types, self, kernel=False, c_name=c_name)
            self.definitions.append("\n".join(translation.lines))
            found = self.device_functions[key] = (c_name, translation.return_type)
        return found

    def constant_array(self, dtype, values):
        name = f"kiln_constant_{len(self.constants)}"
        flat = ", ".join(repr(v.item()) if dtype.kind == "f" else str(int(v)) for v in np.ravel(values))
        self.constants.append(f"__constant__ {T.c_name(dtype)} {name}[{max(values.size, 1)}] = {{{flat}}};")
        return name

    def source(self, kernel_lines):
        parts = ["#include <kiln/device/jit_support.cuh>"] + [f"#include <{h}>" for h in sorted(self.includes)]
        if self.debug:  # where a raise or a failed assert leaves its code for the host (see _Launch)
            parts.append("KILN_JIT_ERROR_RECORD")
        if self.needs_dynamic_shared:
            parts.append("extern __shared__ __align__(16) unsigned char kiln_dynamic_shared[];")
        return "\n".join(parts + self.constants + self.definitions + kernel_lines) + "\n"


def _normalize_dims(value, what):
    dims = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{what}: expected 1 to 3 dimensions, got {value!r}")
    try:
        return tuple(int(d) for d in dims)
    except TypeError:
        raise TypeError(f"{what}: expected ints, got {value!r}") from None


def _arg_type(value):
    if isinstance(value, ndarray):
        return T.ArrayType(value.dtype.name, value.ndim)
    if isinstance(value, np.ndarray):
        return T.ArrayType(value.dtype, value.ndim)
    if hasattr(value, "__cuda_array_interface__"):
        interface = value.__cuda_array_interface__
        return T.ArrayType(np.dtype(interface["typestr"]), len(interface["shape"]))
    try:
        return T.of_value(value)
    except TypeError:
        raise TypeError(f"unsupported kernel argument of type {type(value).__name__}") from None


class Dispatcher:
    """What ``@cuda.jit`` returns: a kernel to configure and launch, or (with
    ``device=True``) a device function other kernels call."""

    def __init__(self, pyfunc, device=False, signatures=(), fma=True, debug=False):
        self.py_func = pyfunc
        self.debug = debug or os.environ.get("KILN_DEBUG", "") not in ("", "0")
        self._options = () if fma else ("--fmad=false",)
        self.__name__ = pyfunc.__name__
        self.__doc__ = pyfunc.__doc__
        self._kiln_device_function = device
        self._function = None
        self.signatures = [T.parse_signature(s) for s in signatures]
        self._kernels = {}  # argument types -> RawKernel
        self._by_key = {}  # _argument_kinds of the arguments -> RawKernel, for calls with nothing to convert
        self._launches = {}  # configuration -> _Launch

    @property
    def function(self):
        if self._function is None:
            self._function = Function(self.py_func)
        return self._function

    def __getitem__(self, config):
        launch = self._launches.get(config) if type(config) is tuple else None
        if launch is not None:
            return launch
        if self._kiln_device_function:
            raise TypeError(f"{self.__name__} is a device function: call it from a kernel")
        parts = config if isinstance(config, tuple) else (config,)
        if not 2 <= len(parts) <= 4:
            raise ValueError("launch as kernel[griddim, blockdim] or kernel[griddim, blockdim, stream, sharedmem]")
        grid, block = _normalize_dims(parts[0], "griddim"), _normalize_dims(parts[1], "blockdim")
        stream = parts[2] if len(parts) > 2 else 0
        shared = int(parts[3]) if len(parts) > 3 else 0
        launch = _Launch(self, grid, block, None if not stream else stream, shared)
        if len(self._launches) > 64:  # launch shapes seen lately, not every one ever
            self._launches.clear()
        try:
            self._launches[config] = launch
        except TypeError:  # an unhashable configuration (a list) is simply not remembered
            pass
        return launch

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launch with enough threads for `ntasks` (Numba's ``kernel.forall(n)``)."""
        tpb = tpb or 128
        return self[max(1, -(-int(ntasks) // tpb)), tpb, stream, sharedmem]

    def __call__(self, *args):
        if self._kiln_device_function:
            raise TypeError(f"{self.__name__} is a device function: it runs only inside kernels")
        raise TypeError(f"launch {self.__name__} with a configuration: {self.__name__}[griddim, blockdim](...)")

    def kernel_for(self, types):
        kernel = self._kernels.get(types)
        if kernel is None:
            if self.signatures and not any(list(types) == s[1] for s in self.signatures):
                raise TypeError(f"{self.__name__} was declared for {self._declared()}, not called with "
                                f"({', '.join(map(str, types))})")
            module = Module(self.debug)
            translation = Translation(self.function, types, module, kernel=True, c_name=self.__name__)
            source = module.source(translation.lines)
            kernel, = generated_kernels(source, [self.__name__], self._options)
            kernel._kiln_exceptions = module.exceptions if self.debug else None
            self._kernels[types] = kernel
            kernel._configure(self.__name__, "".join("v" if isinstance(t, T.ArrayType) else t.char for t in types),
                              [f"{t} {p}" for t, p in zip(types, self.function.params)], kernel._kernel)
        return kernel

    def _declared(self):
        return " or ".join("(" + ", ".join(map(str, s[1])) + ")" for s in self.signatures)

    def _cast_to_signature(self, args):
        """Scalars converted to the types of the only declared signature."""
        if len(self.signatures) != 1:
            return args
        declared = self.signatures[0][1]
        if len(declared) != len(args):
            raise TypeError(f"{self.__name__} takes {len(declared)} arguments, got {len(args)}")
        return tuple(_as_declared(d, a) if T.is_scalar(d) and not isinstance(a, (ndarray, np.ndarray)) else a
                     for d, a in zip(declared, args))


def _as_declared(dtype, value):
    """A scalar argument as its declared type, converted as C converts it
    (Numba's): integers wrap around (0xFFFFFFFF as an int32 is -1)."""
    if dtype.kind in "iu" and isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return np.array(int(value) & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64).astype(dtype)[()]
    return dtype.type(value)


class _Launch:
    """A configured kernel: ``kernel[griddim, blockdim, stream, sharedmem]``."""

    __slots__ = ("dispatcher", "grid", "block", "stream", "shared")

    def __init__(self, dispatcher, grid, block, stream, shared):
        self.dispatcher, self.grid, self.block, self.stream, self.shared = dispatcher, grid, block, stream, shared

    def __call__(self, *args):
        key = _argument_kinds(*args)
        kernel = self.dispatcher._by_key.get(key)
        if kernel is None:
            return self._first_call(args, key)
        kernel._launch(self.grid, self.block, args, self.shared, self.stream)
        if kernel._kiln_exceptions is not None:
            _raise_recorded(kernel, args, self.dispatcher.__name__)

    def _first_call(self, args, key):  # key: the arguments' _argument_kinds
        """Any call whose argument kinds this configuration has not seen: checks,
        conversions, the specialisation (compiled if new)."""
        d = self.dispatcher
        if d.signatures:
            args = d._cast_to_signature(args)
        if len(args) != len(d.function.params):
            raise TypeError(f"{d.__name__} takes {len(d.function.params)} arguments, got {len(args)}")
        converted, copy_back = _on_one_device(args, d.__name__)
        types = tuple(_arg_type(a) for a in converted)
        kernel = d.kernel_for(types)
        if any(isinstance(t, T.TupleType) for t in types):  # tuples pass as the bytes of their C++ struct
            converted = tuple(t.pack(a) if isinstance(t, T.TupleType) else a for t, a in zip(types, converted))
        kernel._launch(self.grid, self.block, converted, self.shared, self.stream)
        if kernel._kiln_exceptions is not None:
            _raise_recorded(kernel, converted, d.__name__)
        for device_array, host_array in copy_back:
            device_array.get(out=host_array)
        if not d.signatures and all(type(a) is ndarray or isinstance(a, (bool, int, float, np.generic)) for a in args):
            d._by_key[key] = kernel  # _argument_kinds tells these arguments' types apart: no checks next time


def device_of(args):
    """Where a launch with `args` runs: the device of its kiln arrays when
    they agree, else the default device."""
    from .._device import default_device

    devices = {a.device for a in args if isinstance(a, ndarray)}
    return devices.pop() if len(devices) == 1 else default_device()


def _raise_recorded(kernel, args, name):
    """Debug mode: the exception a thread of the launch raised (or the assert
    it failed), raised here with the thread, the block and the line; the
    record is cleared for the next launch. Waits for the kernel on a GPU."""
    import ctypes

    device = device_of(args)
    address, size = kernel._kiln_module.global_(device, "kiln_jit_error")
    record = (ctypes.c_int * (size // 4))()
    if device.type == "cpu":
        ctypes.memmove(record, address, size)
    else:
        from ..cuda import runtime

        runtime.memcpy(ctypes.addressof(record), address, size, runtime.memcpyDeviceToHost)
    raised, code = record[0], record[1]
    if not raised:
        return
    if device.type == "cpu":
        ctypes.memset(address, 0, size)
    else:
        runtime.memset(address, 0, size)
    cls, message, filename, line = kernel._kiln_exceptions[code - 1]
    block, thread = tuple(record[2:5]), tuple(record[5:8])
    where = f"in {name} at {filename}:{line}, block {block}, thread {thread}"
    raise cls(f"{message} ({where})" if message else where)


def _on_one_device(args, name):
    """NumPy arrays stay where they are on the CPU; for a GPU launch (a kiln
    array on a GPU, or a GPU as the default device) they are copied there and
    back after the kernel, with Numba's warning."""
    if not any(isinstance(a, np.ndarray) for a in args):
        return args, ()
    device = device_of(args)
    if device.type == "cpu":
        return args, ()
    from .._creation import asarray

    warnings.warn(f"{name}: NumPy arrays are copied to {device} and back around the kernel; "
                  "pass kiln arrays (cuda.to_device) to avoid the copies", PerformanceWarning, stacklevel=3)
    converted, copy_back = [], []
    for a in args:
        if isinstance(a, np.ndarray):
            on_device = asarray(a, device=device)
            if a.flags.writeable:
                copy_back.append((on_device, a))
            a = on_device
        converted.append(a)
    return tuple(converted), copy_back


def jit(func_or_sig=None, device=False, cache=False, fastmath=False, lineinfo=False, max_registers=None,
        debug=False, opt=True, inline=False, fma=True, lto=False, link=(), **kws):
    """Numba's ``@cuda.jit``: bare, with options, or with signatures
    (``@cuda.jit("void(float32[:], int32)")``). kiln always caches compiled
    kernels on disk; `cache`, `fastmath`, `lineinfo`, `max_registers`,
    `debug`, `opt`, `inline` and `lto` (kiln compiles a kernel and its device
    functions as one unit) are accepted for Numba code; `link` (PTX/CUDA
    files to link) is refused by name.

    fma=False (kiln's own option) keeps the GPU from fusing a * b + c into
    one rounding, so results match the CPU's bit for bit; the default fuses,
    as Numba does."""
    if kws:
        raise TypeError(f"jit: unexpected options {sorted(kws)}")
    if link:
        raise NotImplementedError("jit(link=...): linking external PTX or CUDA files into a kernel is not "
                                  "supported by kiln yet")
    if callable(func_or_sig) and not isinstance(func_or_sig, str):
        return Dispatcher(func_or_sig, device=device, fma=fma, debug=debug)
    signatures = []
    if func_or_sig is not None:
        # A list of signatures, or one: a string, a Signature object, or a tuple of argument types.
        many = isinstance(func_or_sig, list) or (isinstance(func_or_sig, tuple) and func_or_sig and
                                                 not hasattr(func_or_sig[0], "dtype"))
        signatures = list(func_or_sig) if many else [func_or_sig]

    def decorate(pyfunc):
        return Dispatcher(pyfunc, device=device, signatures=signatures, fma=fma, debug=debug)

    return decorate
