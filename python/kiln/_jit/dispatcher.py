"""``kiln.cuda.jit``: Numba's decorator. A kernel is translated to C++ for each
new set of argument types (see translate.py), compiled like a RawKernel (NVRTC
for a GPU, the host compiler for the CPU, cached on disk) and launched as
``kernel[griddim, blockdim, stream, sharedmem](*args)``.
"""
import ast
import enum
import os
import pickle

import numpy as np

from .._core import CUDAError, _argument_kinds, _cooperative_marker, ndarray
from .._cupy_kernels.raw import generated_kernels
from .._numba_cuda import types as numba_types
from .._numba_cuda.linking import linked_sources
from .._numba_cuda.numba_host import is_mapped
from .._numba_cuda.record_arrays import DeviceRecordArray
from .._numba_cuda.time_arrays import DeviceTimeArray
from . import blockwise, pickling
from . import types as T
from .._numba_cuda import config as _config
from .errors import TypingError, performance_warning, warn_low_occupancy
from .translate import Function, Translation


class _Recursion:
    """A device function being translated: its C++ name and the return type
    its recursive calls are given this round."""

    def __init__(self, c_name, assumed):
        self.c_name, self.assumed, self.called = c_name, assumed, False


def _runaway(function):
    """Whether every return of `function` calls it again: then no return
    gives its type, whatever it is assumed to be."""
    def calls_itself(node):
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == function.name
                   for n in ast.walk(node))

    return all(r.value is not None and calls_itself(r.value)
               for r in ast.walk(function.node) if isinstance(r, ast.Return))


def _first_guess(arg_types):
    """The return type first assumed for a recursive function with no declared
    one: its first scalar argument's (fib(n) returns n's type)."""
    return next((t for t in arg_types if T.is_scalar(t)), T.INT64)


class Module:
    """The translation unit of one kernel specialisation: the support header
    (include/kiln/device/jit_support.cuh), constant arrays, the device
    functions it calls, then the kernel."""

    def __init__(self, debug=False, launch_bounds=(), records=False):
        self.launch_bounds = launch_bounds  # the kernel's __launch_bounds__ arguments, or ()
        self.definitions = []
        self.constants = []
        self.device_functions = {}
        self.needs_dynamic_shared = False
        self.includes = set()  # device headers beyond jit_support.cuh that constructs need
        self.heap_failures = None  # the error codes of a made array too big, and of the heap failing
        self.makes_arrays = False  # np.empty and friends on the heap (constructs/heap_arrays.py)
        self.host_entry = False  # the module of a kiln.numba entry, where functions may make arrays
        self.debug = debug
        # Whether the kernel has the record a raise leaves for the host: in
        # debug mode, and in a kiln.numba entry (Python's error model without
        # debug mode's bounds checks).
        self.records = debug or records
        self.exceptions = []  # (exception class, message, file, line) of each raise and assert, by code - 1
        self.linked = []  # CUDA C++ sources linked in (kiln/cuda/linking.py), each once
        self.externs = {}  # declared device function name -> its wrapper's name
        self.formats = {}  # print()'s format text -> its constant array's name
        self.captured = []  # device arrays the kernel captured from its scope (their addresses are compiled in)
        # The kernel takes the grid group (cuda.cg.this_grid) or calls a device
        # function declared use_cooperative: it launches cooperatively.
        self.cooperative = False

    def exception_code(self, cls, message, filename, line):
        """The number a kernel records for this raise or assert (debug mode)."""
        self.exceptions.append((cls, message, filename, line))
        return len(self.exceptions)

    def device_function(self, dispatcher, arg_types):
        """(C++ name, return type) of `dispatcher`'s device function for
        `arg_types`, translated into this module once. A recursive call, met
        while the function is being translated, returns the declared return
        type or, without one, the type assumed for this round: the function
        is translated again with the type its returns gave until the two
        agree (a fixpoint, as Numba's inference of recursive functions)."""
        key = (id(dispatcher), tuple(arg_types))
        found = self.device_functions.get(key)
        if isinstance(found, _Recursion):
            found.called = True
            return found.c_name, found.assumed
        if found is not None:
            return found
        self.link(dispatcher._link)
        c_name = f"kiln_device_{dispatcher.function.c_name}_{len(self.definitions)}"
        declared = next((r for r, a in dispatcher._declared_signatures if list(a) == list(arg_types)), None)
        guesses = [declared] if declared is not None else [_first_guess(arg_types), T.FLOAT64, T.INT64, T.COMPLEX128]
        state = _Recursion(c_name, guesses[0])
        before, mark = dict(self.device_functions), len(self.definitions)
        for round_ in range(6):
            self.device_functions[key] = state
            try:
                translation = Translation(dispatcher.function, arg_types, self, kernel=False, c_name=c_name)
            except TypingError as e:
                if not state.called or declared is not None:
                    raise
                raise TypingError(f"Return type of recursive function does not converge ({e})") from None
            returned = translation.return_type
            if not state.called or declared is not None or returned == state.assumed:
                break
            # typed with a wrong guess: forget what this round translated and try again
            del self.definitions[mark:]
            self.device_functions = dict(before)
            state = _Recursion(c_name, returned if round_ < 3 else guesses[min(round_ - 2, len(guesses) - 1)])
        else:
            dispatcher.function.error(TypingError, dispatcher.function.node,
                                      "Return type of recursive function does not converge")
        if state.called:
            if declared is None and _runaway(dispatcher.function):
                dispatcher.function.error(TypingError, dispatcher.function.node,
                                          "cannot type infer runaway recursion: no return of it gives a type "
                                          "without calling it again")
            translation.lines[0] = translation.lines[0].replace("KILN_JIT_DEVICE_FUNCTION",
                                                                "KILN_JIT_RECURSIVE_DEVICE_FUNCTION", 1)
            # declared before the device functions it calls, which may call it back
            self.definitions.insert(mark, translation.lines[0].rstrip(" {") + ";")
        self.definitions.append("\n".join(translation.lines))
        found = self.device_functions[key] = (c_name, translation.return_type)
        return found

    def link(self, sources):
        self.linked += [text for text in sources if text not in self.linked]

    def extern_function(self, function):
        """The wrapper calling a declare_device function with Numba's result
        pointer (defined once, after the sources it links)."""
        wrapper = self.externs.get(function.name)
        self.cooperative |= function.cooperative
        if wrapper is None:
            self.link(function.sources)
            result, params = T.parse_signature(function.sig)
            wrapper = self.externs[function.name] = f"kiln_extern_{function.name}"
            returned = T.c_name(result) if result is not None else "void"
            args = [f"a{k}" for k in range(len(params))]
            if function.abi == "c":
                body = f"return {function.name}({', '.join(args)});"
            else:  # Numba's: a status returned, the result through the first argument
                slot = returned if result is not None else "int"
                body = (f"{slot} r = {{}}; {function.name}({', '.join(['kiln_result_slot{&r}'] + args)}); "
                        f"{'return r;' if result is not None else ''}")
            self.definitions.append(
                f"KILN_JIT_DEVICE_FUNCTION {returned} {wrapper}("
                f"{', '.join(f'{T.c_name(p)} {a}' for p, a in zip(params, args))}) {{ {body} }}")
        return wrapper

    def format_string(self, text):
        """A printf format (C string-literal text) in constant memory, where
        Numba's kernels keep theirs: the name of its array, one per text."""
        name = self.formats.get(text)
        if name is None:
            name = self.formats[text] = f"kiln_format_{len(self.formats)}"
            self.constants.append(f'__constant__ char {name}[] = "{text}";')
        return name

    def constant_array(self, dtype, values):
        """Constant data holding `values`: a pointer expression of the dtype's
        C type. Floats and complex numbers are stored as their parts' bits
        (NaN and the infinities have no literal that NVRTC takes in a
        constant initializer) and read through a cast."""
        name = f"kiln_constant_{len(self.constants)}"
        values = np.ravel(np.asarray(values, dtype=dtype))
        part = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
        stored = np.dtype(f"u{part}") if dtype.kind in "fc" else np.dtype("u1") if T.is_record(dtype) else dtype
        bits = np.frombuffer(values.tobytes(), stored) if T.is_record(dtype) else values.view(stored)
        flat = ", ".join(f"{int(v)}ULL" if stored.kind == "u" else str(int(v)) for v in bits)
        self.constants.append(f"__constant__ __align__(16) {T.c_name(stored)} {name}[{max(bits.size, 1)}] = {{{flat}}};")
        return name if stored == dtype else f"reinterpret_cast<{T.c_name(dtype)}*>({name})"

    def source(self, kernel_lines):
        parts = ["#include <kiln/device/jit_support.cuh>"] + [f"#include <{h}>" for h in sorted(self.includes)]
        if self.cooperative:
            parts.append(_cooperative_marker)
        parts += self.linked
        if self.records:  # where a raise or a failed assert leaves its code for the host (see _Launch)
            parts.append("KILN_JIT_ERROR_RECORD")
        if self.needs_dynamic_shared:
            parts.append("extern __shared__ __align__(16) unsigned char kiln_dynamic_shared[];")
        if self.heap_failures is not None:  # declared by jit_heap_arrays.cuh
            too_big, no_memory = self.heap_failures
            parts.append(f"int kiln_heap_failure(bool memory) {{ return memory ? {no_memory} : {too_big}; }}")
        return "\n".join(parts + self.constants + self.definitions + kernel_lines) + "\n"


def args_as_types(types):
    """kiln's argument types as Numba type objects (what signatures take)."""
    return [numba_types.Array(t.dtype, t.ndim) if isinstance(t, T.ArrayType) else numba_types.from_dtype(t)
            for t in types]


def _current_arch():
    from .._cuda import device as cuda_device
    from .._numba_cuda.numba_host import HOST_COMPUTE_CAPABILITY

    if cuda_device.is_available() and not cuda_device.host_mode():
        return int(cuda_device.Device().compute_capability)
    major, minor = HOST_COMPUTE_CAPABILITY  # what kiln's Numba face reports without a GPU
    return major * 10 + minor


def ptx_of(source, options=(), cc=None):
    """The PTX NVRTC makes of jit-made `source` for compute capability `cc`
    (major, minor), else the current device's."""
    from .. import _core

    arch = int(cc[0]) * 10 + int(cc[1]) if cc else _current_arch()
    return _core._cuda_ptx(source, arch, list(options))


def compile_ptx(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False, cc=None, opt=None,
                abi="c", abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    """Numba's ``cuda.compile_ptx``: (PTX, return type) of `pyfunc` for `sig`,
    a kernel or (device=True) a device function named by `abi_info`'s
    "abi_name" (default its own name) with C linkage. Made by NVRTC, so it
    works without a GPU. kiln has only the C ABI and PTX output."""
    if output != "ptx":
        raise NotImplementedError(f"compile_ptx(output={output!r}): kiln makes PTX only")
    if abi not in ("c", "numba") or (abi == "numba" and not device):
        raise NotImplementedError(f"compile_ptx(abi={abi!r}): unsupported ABI")
    declared_return, arg_types = T.parse_signature(sig)
    dispatcher = Dispatcher(pyfunc, device=device, debug=debug)
    if not device:
        if declared_return is not None:
            raise TypeError(f"{pyfunc.__name__}: a kernel returns nothing, the signature says {declared_return}")
        return ptx_of(dispatcher.source_for(arg_types)[0], (), cc), numba_types.void
    module = Module(debug)
    name = (abi_info or {}).get("abi_name", dispatcher.function.c_name)
    c_name, result = module.device_function(dispatcher, arg_types)
    params = [(f"{T.c_name(t)} a{i}", f"a{i}") for i, t in enumerate(arg_types)]
    call = f"{c_name}({', '.join(p[1] for p in params)})"
    wrapper = (f'KILN_JIT_EXPORTED_DEVICE_FUNCTION {T.c_name(result)} {name}({", ".join(p[0] for p in params)}) '
               f'{{ {"return " if result is not None else ""}{call}; }}')
    ptx = ptx_of(module.source([wrapper]), ("--relocatable-device-code=true",), cc)
    return ptx, numba_types.void if result is None else numba_types.from_dtype(result)


def compile_ptx_for_current_device(*args, **kwargs):
    """``compile_ptx`` for the current device's compute capability."""
    return compile_ptx(*args, cc=None, **kwargs)


def _launch_bounds(value):
    """Numba's launch_bounds: max threads per block, or a tuple of it, the min
    blocks per multiprocessor and the max blocks per cluster."""
    if value is None:
        return ()
    bounds = tuple(value) if isinstance(value, tuple) else (value,)
    if len(bounds) > 3:
        raise ValueError(f"Got {len(bounds)} launch bounds: {value!r}. A maximum of three are supported: "
                         "(max threads per block, min blocks per multiprocessor, max blocks per cluster)")
    if not bounds or not all(isinstance(b, (int, np.integer)) for b in bounds):
        raise ValueError(f"launch_bounds must be an int or a tuple of 1 to 3 ints, got {value!r}")
    return tuple(int(b) for b in bounds)


_CARVEOUTS = {"MaxL1": 0, "MaxShared": 100, "default": -1}


def _carveout(value):
    """Numba's shared_memory_carveout: the percent of on-chip memory to give
    shared memory (-1 the driver's default), or "MaxL1"/"MaxShared"/"default"."""
    if value is None:
        return None
    if isinstance(value, str):
        if value not in _CARVEOUTS:
            raise ValueError(f"Invalid carveout value {value!r}: use 'MaxL1', 'MaxShared', 'default' or -1 to 100")
        return _CARVEOUTS[value]
    if not -1 <= int(value) <= 100:
        raise ValueError(f"shared_memory_carveout must be between -1 and 100, got {value}")
    return int(value)


def _normalize_dims(value, what):
    """A launch dimension as a tuple of 1 to 3 ints, refused as Numba refuses it."""
    dims = list(value) if isinstance(value, (tuple, list)) else [value]
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{what} must be a sequence of 1, 2 or 3 integers, got {dims!r}")
    if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dims):
        raise TypeError(f"{what} must be a sequence of integers, got {dims!r}")
    return tuple(int(d) for d in dims)


# kiln's device arrays: its own, and those of dtypes its core does not hold.
_DEVICE_ARRAYS = (ndarray, DeviceRecordArray, DeviceTimeArray)


def _arg_type(value):
    if isinstance(value, tuple):  # of numbers, arrays and tuples; a namedtuple's fields by name too
        return T.TupleType((_arg_type(v) for v in value), getattr(value, "_fields", None))
    if isinstance(value, ndarray):
        return T.ArrayType(value.dtype.name, value.ndim)
    if isinstance(value, (np.ndarray, DeviceRecordArray, DeviceTimeArray)):
        return T.ArrayType(value.dtype, value.ndim)
    if hasattr(value, "__cuda_array_interface__"):
        interface = value.__cuda_array_interface__
        return T.ArrayType(np.dtype(interface["typestr"]), len(interface["shape"]))
    if isinstance(value, enum.Enum):  # an IntEnum's member too: `is` tells the classes apart
        return T.EnumMemberType(type(value))
    if isinstance(value, _Address):
        return value.type
    try:
        return T.of_value(value)
    except TypeError:
        raise TypeError(f"unsupported kernel argument of type {type(value).__name__}") from None


class Dispatcher:
    """What ``@cuda.jit`` returns: a kernel to configure and launch, or (with
    ``device=True``) a device function other kernels call."""

    def __init__(self, pyfunc, device=False, signatures=(), fma=True, debug=False, launch_bounds=None,
                 shared_memory_carveout=None, numba_integers=True, link=()):
        self.py_func = pyfunc
        # What pickling needs to make it again (see __reduce__)
        self._made_with = (device, tuple(signatures), fma, debug, launch_bounds, shared_memory_carveout,
                           numba_integers, tuple(link))
        self._link = list(link)  # CUDA C++ sources compiled with it (kiln/cuda/linking.py)
        self._numba_integers = numba_integers  # Numba's 64-bit integer arithmetic, or NumPy's (CuPy's jit)
        self.debug = debug or os.environ.get("KILN_DEBUG", "") not in ("", "0")
        # kiln.numba's entry of an @njit function, run once on the host for a
        # call from Python: its functions may make arrays, and what they raise
        # carries its own message alone, not the thread and block a kernel's.
        self.host_entry = False
        self._options = () if fma else ("--fmad=false",)
        self._launch_bounds = _launch_bounds(launch_bounds)
        self._carveout = _carveout(shared_memory_carveout)
        self.__name__ = pyfunc.__name__
        self.__doc__ = pyfunc.__doc__
        self._kiln_device_function = device
        self._function = None
        self._function_options = {}  # how its Function is translated (kiln.numba's parallel, error_model)
        self._declared_signatures = [T.parse_signature(s) for s in signatures]  # (return, argument types)
        self._kernels = {}  # argument types -> RawKernel
        self._sources = {}  # argument types -> the CUDA C++ of that specialisation
        self._modules = {}  # argument types -> the Module its source was made in
        self._specialized = {}  # argument types -> the Dispatcher specialize made for them
        self._by_key = {}  # _argument_kinds of the arguments -> RawKernel, for calls with nothing to convert
        self._launches = {}  # configuration -> _Launch

    def __reduce__(self):
        """Pickled by value, as Numba pickles kernels (kiln/_jit/pickling.py)."""
        return pickling.rebuild, (Dispatcher, pickling.function_state(self.py_func), *self._made_with)

    @property
    def function(self):
        if self._function is None:
            self._function = Function(self.py_func, self._numba_integers, **self._function_options)
            # A recursive function typed as it is decorated (a declared
            # signature) calls a name not bound yet: the name it is being bound to.
            self._function.scope.setdefault(self.py_func.__name__, self)
        return self._function

    def __getitem__(self, config):
        launch = self._launches.get(config) if type(config) is tuple else None
        if launch is not None:
            if _config.CUDA_LOW_OCCUPANCY_WARNINGS and isinstance(launch, _Launch):
                warn_low_occupancy(launch.grid, 2)
            return launch
        if self._kiln_device_function:  # Numba's RuntimeError and words
            raise RuntimeError(f"Cannot compile a device function as a kernel: {self.__name__} is a device "
                               "function; call it from a kernel")
        parts = config if isinstance(config, tuple) else (config,)
        if not 2 <= len(parts) <= 4:
            raise ValueError("launch as kernel[griddim, blockdim] or kernel[griddim, blockdim, stream, sharedmem]")
        grid, block = _normalize_dims(parts[0], "griddim"), _normalize_dims(parts[1], "blockdim")
        warn_low_occupancy(grid, 2)
        stream = parts[2] if len(parts) > 2 else 0
        shared = int(parts[3]) if len(parts) > 3 else 0
        threads = int(np.prod(block))
        if self._launch_bounds and threads > self._launch_bounds[0]:  # as the GPU's driver refuses it, on every device
            launch = _Refused(f"cuLaunchKernel: CUDA_ERROR_INVALID_VALUE ({self.__name__}: a block of {threads} "
                              f"threads, more than its launch_bounds of {self._launch_bounds[0]})")
        else:
            launch = _Launch(self, grid, block, None if not stream else stream, shared)
        if len(self._launches) > 64:  # launch shapes seen lately, not every one ever
            self._launches.clear()
        try:
            self._launches[config] = launch
        except TypeError:  # an unhashable configuration (a list) is simply not remembered
            pass
        return launch

    def _forget_launch(self, launch):
        """Stops handing `launch` out for its configuration."""
        for config in [c for c, known in self._launches.items() if known is launch]:
            del self._launches[config]

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launch with enough threads for `ntasks` (Numba's ``kernel.forall(n)``)."""
        if ntasks < 0:
            raise ValueError(f"Can't create ForAll with negative task count: {ntasks}")
        tpb = tpb or 128
        return self[max(1, -(-int(ntasks) // tpb)), tpb, stream, sharedmem]

    def __call__(self, *args):
        if self._kiln_device_function:
            raise TypeError(f"{self.__name__} is a device function: it runs only inside kernels")
        raise ValueError(f"{self.__name__}: the launch configuration was not specified: launch it as "
                         f"{self.__name__}[griddim, blockdim](...)")  # Numba's ValueError

    def check_declared(self, types):
        """TypeError, as Numba's, where signatures were declared and `types` is none of them."""
        if self._declared_signatures and not any(list(types) == list(s[1]) for s in self._declared_signatures):
            raise TypeError(f"No matching definition for argument type(s) {', '.join(map(str, types))}: "
                            f"{self.__name__} was declared for {self._declared()}")

    def kernel_for(self, types):
        kernel = self._kernels.get(types)
        if kernel is None:
            self.check_declared(types)
            source, module = self.source_for(types)
            kernel, = generated_kernels(source, [f"kiln_jit::{self.function.c_name}"], self._options)
            kernel._kiln_exceptions = module.exceptions if module.records else None
            kernel._kiln_captured = module.captured  # kept alive while the kernel is
            self._kernels[types] = kernel
            if self._carveout is not None and device_of([]).type == "cuda":
                kernel.preferred_shared_memory_carveout = self._carveout
            kernel._configure(self.__name__, "".join("v" if isinstance(t, T.ArrayType) else t.char for t in types),
                              [f"{t} {p}" for t, p in zip(types, self.function.params)], kernel._kernel)
        return kernel

    @property
    def signatures(self):
        """Numba's: the argument types of each specialisation, declared or
        compiled so far (keys of ``overloads``)."""
        if self._declared_signatures:
            return [tuple(args) for _, args in self._declared_signatures]
        return list(self._kernels)

    @property
    def overloads(self):
        """Numba's: the compiled specialisations (the declared ones
        included), by argument types: kiln's, or Numba's type objects."""
        if not self._kiln_device_function:
            for _, types in self._declared_signatures:
                self.kernel_for(tuple(types))
        return _ByArgumentTypes(self._kernels)

    @property
    def specializations(self):
        """Numba's: the dispatchers ``specialize`` made, by argument types."""
        return self._specialized

    def specialize(self, *args):
        """Numba's: a dispatcher compiled for the types of `args` (values or
        Numba types) alone, made once per set of types."""
        if self._declared_signatures:
            raise RuntimeError("Dispatcher already specialized")
        types = tuple(_arg_type(a) if not isinstance(a, numba_types.Type) else T.parse_type(a) for a in args)
        # Numba tells specialisations apart by array layout too (float32[:] and float32[::1]),
        # though kiln compiles both alike (its kernels take strided views)
        key = types + tuple(_layout_of(a) for a in args)
        found = self._specialized.get(key)
        if found is None:
            found = self._specialized[key] = Dispatcher(
                self.py_func, device=self._kiln_device_function, signatures=[tuple(args_as_types(types))],
                fma=not self._options, debug=self.debug, launch_bounds=self._launch_bounds or None,
                shared_memory_carveout=self._carveout, link=self._link)
        return found

    def source_for(self, types):
        """The CUDA C++ of the kernel specialised for argument `types`, and its Module."""
        types = tuple(types)
        if types in self._modules:
            return self._sources[types], self._modules[types]
        module = Module(self.debug, self._launch_bounds, records=self.host_entry)
        module.host_entry = self.host_entry
        module.link(self._link)
        c_name = self.function.c_name
        translation = Translation(self.function, list(types), module, kernel=True, c_name=c_name)
        kernel_lines = ["namespace kiln_jit {"] + translation.lines + ["}  // namespace kiln_jit"]
        cpu_lines = blockwise.lines(translation.typed, c_name, module, translation.lines)
        if cpu_lines:  # the CPU runs a block in one call, its threads as loops between barriers
            kernel_lines = ["#ifdef __CUDA_ARCH__", *kernel_lines, "#else",
                            "namespace kiln_jit {", *cpu_lines, "}  // namespace kiln_jit", "#endif"]
        source = self._sources[types] = module.source(kernel_lines)
        self._modules[types] = module
        return source, module

    def type_declared(self):
        """Type every declared signature now, as Numba compiles them when
        decorating, so that a kernel that cannot be typed fails there."""
        for declared_return, types in self._declared_signatures:
            if self._kiln_device_function:
                Module(self.debug).device_function(self, types)
            elif declared_return is not None:
                raise TypeError(f"{self.__name__}: a kernel returns nothing, the signature says {declared_return}")
            else:
                self.source_for(types)

    def _kernel_attribute(self, name, signature):
        """A compiled kernel's attribute (CUDA's cuFuncGetAttribute) for
        `signature`; without one, the only declared signature's, or a dict of
        every specialisation compiled so far by argument types. A GPU's
        figures: without a GPU, those of the kernel compiled by NVRTC for
        compute capability 9.0 (RawKernel._attributes_without_a_gpu)."""
        if signature is not None:
            return getattr(self.kernel_for(_argument_types(signature)), name)
        if len(self._declared_signatures) == 1:
            return getattr(self.kernel_for(tuple(self._declared_signatures[0][1])), name)
        return _ByArgumentTypes({types: getattr(kernel, name) for types, kernel in self._kernels.items()})

    def get_regs_per_thread(self, signature=None):
        """Numba's: the registers a thread of the kernel uses."""
        return self._kernel_attribute("num_regs", signature)

    def get_shared_mem_per_block(self, signature=None):
        """Numba's: the kernel's static shared memory, in bytes."""
        return self._kernel_attribute("shared_size_bytes", signature)

    def get_const_mem_size(self, signature=None):
        """Numba's: the kernel's constant memory, in bytes."""
        return self._kernel_attribute("const_size_bytes", signature)

    def get_local_mem_per_thread(self, signature=None):
        """Numba's: the local memory a thread of the kernel uses, in bytes."""
        return self._kernel_attribute("local_size_bytes", signature)

    def get_max_threads_per_block(self, signature=None):
        """Numba's: the most threads a block of the kernel may have."""
        return self._kernel_attribute("max_threads_per_block", signature)

    def inspect_asm(self, signature=None):
        """Numba's ``inspect_asm``: the PTX of the specialisation for
        `signature` (argument types, or a signature), or a dict of every
        specialisation compiled or declared so far by argument types. NVRTC
        makes it for the current GPU's architecture (compute_90 on a machine
        without one), so it is there on the CPU too."""
        if signature is not None:
            types = tuple(T.parse_signature(signature)[1]) if not isinstance(signature, tuple) or \
                not all(isinstance(t, (np.dtype, T.ArrayType)) for t in signature) else signature
            source = self._sources.get(types) or self.source_for(types)[0]
            return ptx_of(source, self._options)
        for _, declared in self._declared_signatures:
            if tuple(declared) not in self._sources:
                self.source_for(declared)
        return {types: ptx_of(source, self._options) for types, source in self._sources.items()}

    inspect_lto_ptx = inspect_asm  # kiln links no LTO-IR: the PTX is what runs

    def inspect_sass(self, signature=None):
        """Numba's ``inspect_sass`` (disassembled machine code), which kiln does
        not make: the PTX is ``inspect_asm``'s. A device function has none of
        its own, as in Numba."""
        if self._kiln_device_function:
            raise RuntimeError(f"Cannot inspect SASS of a device function ({self.__name__})")
        raise NotImplementedError(f"{self.__name__}: kiln does not disassemble kernels to SASS; inspect_asm() "
                                  "gives the PTX")

    def _declared(self):
        return " or ".join("(" + ", ".join(map(str, s[1])) + ")" for s in self._declared_signatures)

    def _cast_to_signature(self, args):
        """Scalars converted to the types of the declared signature the call
        resolves to: the only one (any number converts, as C converts it), or
        among several, Numba's choice: an exact match, else the one whose
        conversions are all safe and fewest in rank; two such are ambiguous."""
        if len(self._declared_signatures) == 1:
            declared = self._declared_signatures[0][1]
            if len(declared) != len(args):
                raise TypeError(f"{self.__name__} takes {len(declared)} arguments, got {len(args)}")
            args = tuple(_as_declared_array(d, a) for d, a in zip(declared, args))
            args = tuple(_Address(int(a), d) if isinstance(d, T.PointerType) and isinstance(a, (int, np.integer))
                         else a for d, a in zip(declared, args))
        else:
            declared = self._resolve(args)
            if declared is None:
                return args  # kernel_for names the declared signatures
        return tuple(_as_declared(d, a) for d, a in zip(declared, args))

    def _resolve(self, args):
        """The declared argument types a call with `args` converts to, or None."""
        try:
            given = [_arg_type(a) for a in args]
        except TypeError:
            return None
        return self.resolve_types(given)

    def resolve_types(self, given, ambiguous_ok=False):
        """The declared argument types arguments of types `given` convert to,
        or None (Numba's choice; see _cast_to_signature). Two equally good
        signatures are ambiguous for a launch; a device function's call takes
        the first declared (Numba's behaviour, its issue 8307)."""
        ranked = []
        for _, declared in self._declared_signatures:
            if len(declared) != len(given):
                continue
            cost = [_conversion_rank(g, d) for g, d in zip(given, declared)]
            if None not in cost:  # (unsafe conversions, safe ones): fewer unsafe first
                ranked.append(((sum(c[0] for c in cost), sum(c[1] for c in cost)), declared))
        ranked.sort(key=lambda r: r[0])  # stable: ties keep the declared order
        if not ranked:
            return None
        if len(ranked) > 1 and ranked[0][0] == ranked[1][0] and ranked[0][0] != (0, 0) and not ambiguous_ok:
            def numba_names(types):
                return "(" + ", ".join(map(_numba_name, types)) + ")"
            raise TypeError(f"Ambiguous overloading for {self.py_func!r} {numba_names(given)}:\n"
                            f"{numba_names(ranked[0][1])} -> none\n{numba_names(ranked[1][1])} -> none")
        return ranked[0][1]


def _layout_of(value):
    """An array argument's layout as Numba names it ('C', 'F' or 'A'; None for others)."""
    if not isinstance(value, numba_types.Type) and hasattr(value, "flags") and hasattr(value, "ndim"):
        value = numba_types.typeof(value)
    return value.layout if isinstance(value, numba_types.Array) else None


def _argument_types(signature):
    """kiln's argument types of a signature, a tuple of types or of Numba types."""
    return tuple(T.parse_signature(tuple(signature) if isinstance(signature, list) else signature)[1])


class _ByArgumentTypes(dict):
    """Results by argument types, also found by Numba's type objects (a
    signature's ``args``)."""

    def __missing__(self, key):
        types = _argument_types(key)
        if types == key:
            raise KeyError(key)
        return self[types]


def _conversion_rank(given, declared):
    """(unsafe, safe) conversions of one argument: (0, 0) for the same type,
    (0, 1) for a safe one between numbers (NumPy's rule: int64 to float64),
    (1, 0) for an unsafe one (float64 to float32, float to int), None where
    there is none (arrays of another type, a complex number to a real)."""
    if given == declared:
        return 0, 0
    if not (T.is_scalar(given) and T.is_scalar(declared)) or (given.kind == "c" and declared.kind != "c"):
        return None
    return (0, 1) if np.can_cast(given, declared, "safe") else (1, 0)


def _numba_name(t):
    """A type as Numba prints it: Array(float64, 1, 'C', False, aligned=True), float64."""
    if isinstance(t, T.ArrayType):
        return f"Array({t.dtype.name}, {t.ndim}, 'C', False, aligned=True)"
    return str(t)


class _Address:
    """An integer given for a CPointer parameter: the address it passes."""

    def __init__(self, value, ty):
        self.value, self.type = value, ty


def _as_declared_array(declared, value):
    """With one declared signature Numba launches it whatever the arrays'
    element types: an array of another type of the same size and dimensions
    is passed as it is, its elements read as the declared type (a view)."""
    if not isinstance(declared, T.ArrayType) or not isinstance(value, (ndarray, np.ndarray)):
        return value
    dtype = np.dtype(value.dtype.name) if isinstance(value, ndarray) else value.dtype
    if dtype == declared.dtype or T.is_record(declared.dtype) or T.is_record(dtype) or \
            dtype.itemsize != declared.dtype.itemsize or value.ndim != declared.ndim:
        return value
    return value.view(declared.dtype.name if isinstance(value, ndarray) else declared.dtype)


def _as_declared(dtype, value):
    """A scalar argument as its declared type, converted as C converts it
    (Numba's): integers wrap around (0xFFFFFFFF as an int32 is -1); a tuple's
    items each as theirs; anything else as it is."""
    if isinstance(dtype, T.TupleType) and isinstance(value, tuple) and len(value) == len(dtype.items):
        items = [_as_declared(d, v) for d, v in zip(dtype.items, value)]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if not T.is_scalar(dtype) or isinstance(value, (ndarray, np.ndarray)):
        return value
    if dtype.kind in "iu" and isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return np.array(int(value) & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64).astype(dtype)[()]
    return dtype.type(value)


class _Refused:
    """A configuration the kernel cannot launch with: the call raises."""

    def __init__(self, message):
        self.message = message

    def __call__(self, *args):
        raise CUDAError(self.message)


def _configured(dispatcher, grid, block, stream, shared):
    """A pickled configuration, configured again."""
    return dispatcher[grid, block, stream, shared]


class _Launch:
    """A configured kernel: ``kernel[griddim, blockdim, stream, sharedmem]``."""

    __slots__ = ("dispatcher", "grid", "block", "stream", "shared", "_callbacks")

    def __init__(self, dispatcher, grid, block, stream, shared):
        self.dispatcher, self.grid, self.block, self.stream, self.shared = dispatcher, grid, block, stream, shared
        self._callbacks = None

    def __reduce__(self):
        if self._callbacks:
            raise pickle.PicklingError("Cannot pickle configured launches with pre-launch callbacks")
        return _configured, (self.dispatcher, self.grid, self.block, self.stream or 0, self.shared)

    @property
    def pre_launch_callbacks(self):
        """Numba's: callables run as ``callback(kernel, configuration)``
        before each launch through this configuration. Numba makes a new
        configuration at each ``kernel[...]``; kiln hands the same one out
        again, except one whose callbacks were asked for."""
        if self._callbacks is None:
            self._callbacks = []
            self.dispatcher._forget_launch(self)
        return self._callbacks

    def _run_callbacks(self, kernel):
        for callback in self._callbacks:
            callback(kernel, self)

    @property
    def griddim(self):
        """Numba's: the grid's three extents."""
        return self.grid + (1,) * (3 - len(self.grid))

    @property
    def blockdim(self):
        """Numba's: the block's three extents."""
        return self.block + (1,) * (3 - len(self.block))

    def __call__(self, *args):
        key = _argument_kinds(*args)
        kernel = self.dispatcher._by_key.get(key)
        if kernel is None:
            return self._first_call(args, key)
        if self._callbacks:
            self._run_callbacks(kernel)
        kernel._launch(self.grid, self.block, args, self.shared, self.stream)
        if kernel._kiln_exceptions is not None:
            _raise_recorded(kernel, args, self.dispatcher.__name__, self.dispatcher.host_entry)

    def _first_call(self, args, key):  # key: the arguments' _argument_kinds
        """Any call whose argument kinds this configuration has not seen: checks,
        conversions, the specialisation (compiled if new)."""
        d = self.dispatcher
        if d._declared_signatures:
            args = d._cast_to_signature(args)
        if len(args) != len(d.function.params):
            raise TypeError(f"{d.__name__} takes {len(d.function.params)} arguments, got {len(args)}")
        viewed = foreign_arrays_viewed(args)
        types = tuple(_arg_type(a) for a in viewed)  # a record scalar's type is kept where it moves
        converted, copy_back = _on_one_device(viewed, d.__name__)
        kernel = d.kernel_for(types)
        _check_captured(kernel, converted, d.__name__)
        converted = tuple(_passed(t, a) for t, a in zip(types, converted))
        if self._callbacks:
            self._run_callbacks(kernel)
        kernel._launch(self.grid, self.block, converted, self.shared, self.stream)
        if kernel._kiln_exceptions is not None:
            _raise_recorded(kernel, converted, d.__name__, d.host_entry)
        for device_array, host_array in copy_back:
            device_array.copy_to_host(host_array)
        if not d._declared_signatures and not kernel._kiln_captured and all(
                type(a) is ndarray or (isinstance(a, (bool, int, float, np.generic)) and
                                       not isinstance(a, (np.void, np.datetime64, np.timedelta64, enum.Enum)))
                for a in args):
            d._by_key[key] = kernel  # _argument_kinds tells these arguments' types apart: no checks next time


def _passed(ty, value):
    """An argument as the launcher takes it: a tuple as the bytes of its C++
    struct; a device record array as a uint8 kiln array of its shape and
    strides (the launcher passes its address, shape and strides, and runs
    the kernel on its device); a NumPy record as the 0-d array viewing its
    memory (the launcher passes the address: the kernel writes the record in
    place); the rest as they are."""
    if isinstance(ty, T.TupleType):
        return ty.pack(_view_numbers(value))
    if isinstance(value, DeviceRecordArray):
        return value._kernel_view()
    if isinstance(value, DeviceTimeArray):
        return value._values
    if isinstance(value, np.ndarray) and T.is_time(value.dtype):  # on the CPU: the counts, in place
        return value.view(np.int64)
    if T.is_time(ty):
        return np.int64(value.astype(np.int64))
    if _is_record(value):
        return np.asarray(value)
    if isinstance(ty, T.EnumMemberType):
        return np.int64(ty.code(value))
    if isinstance(value, _Address):
        return np.uint64(value.value % 2**64)
    return value


def _view_numbers(value):
    """A tuple argument with each array as the numbers of its kiln_view:
    data address, shape, byte strides."""
    if isinstance(value, tuple):
        return tuple(_view_numbers(v) for v in value)
    if isinstance(value, _DEVICE_ARRAYS):
        return (value._data_ptr, *value.shape, *value.strides)
    if isinstance(value, np.ndarray):
        return (value.ctypes.data, *value.shape, *value.strides)
    return value


def device_of(args):
    """Where a launch with `args` runs: the device of its kiln arrays (in
    tuples too) when they agree, else the default device."""
    from .._ndarray.device import default_device

    devices = {a.device for a in T.leaves(args) if isinstance(a, _DEVICE_ARRAYS)}
    return devices.pop() if len(devices) == 1 else default_device()


def _check_captured(kernel, args, name):
    """A captured device array's address is compiled in: the kernel must run
    where the array is."""
    from .constructs.captured_arrays import device_of as captured_device

    if not kernel._kiln_captured:
        return
    device = device_of(args)
    where = "cpu" if device.type == "cpu" else f"cuda:{device.index}"
    for array in kernel._kiln_captured:
        if not (captured_device(array) == where or (captured_device(array) == "cuda" and where != "cpu")):
            raise ValueError(f"{name} captures an array on {captured_device(array)} but runs on {where}: "
                             "a captured array's address is compiled into the kernel, so it runs only there")


def _raise_recorded(kernel, args, name, plain=False):
    """Debug mode: the exception a thread of the launch raised (or the assert
    it failed), raised here with the thread, the block and the line (`plain`:
    with its own message alone, as a function run on the host raises it); the
    record is cleared for the next launch. Waits for the kernel on a GPU."""
    import ctypes

    class Record(ctypes.Structure):  # jit_support.cuh's kiln_jit_error_t
        _fields_ = [("raised", ctypes.c_int), ("code", ctypes.c_int), ("block", ctypes.c_uint * 3),
                    ("thread", ctypes.c_uint * 3), ("axis", ctypes.c_int), ("index", ctypes.c_longlong),
                    ("extent", ctypes.c_longlong)]

    device = device_of(args)
    address, size = kernel._kiln_module.global_(device, "kiln_jit_error")
    record = Record()
    if device.type == "cpu":
        ctypes.memmove(ctypes.addressof(record), address, ctypes.sizeof(record))
    else:
        from .._cuda import runtime

        runtime.memcpy(ctypes.addressof(record), address, ctypes.sizeof(record), runtime.memcpyDeviceToHost)
    if not record.raised:
        return
    if device.type == "cpu":
        ctypes.memset(address, 0, size)
    else:
        runtime.memset(address, 0, size)
    cls, message, filename, line = kernel._kiln_exceptions[record.code - 1]
    if record.axis >= 0:  # an index out of bounds: its numbers
        message = message.format(index=record.index, axis=record.axis, extent=record.extent)
    if plain:
        raise cls(message) if message else cls()
    # Numba's words: In function 'f', file F, line N, tid=[x, y, z] ctaid=[x, y, z]: message
    where = (f"In function '{name}', file {filename}, line {line}, tid={list(record.thread)} "
             f"ctaid={list(record.block)}")
    raise cls(f"{where}: {message}" if message else where)


def foreign_arrays_viewed(args):
    """Objects that are arrays only by ``__cuda_array_interface__`` (CuPy's,
    PyTorch's, Numba's ForeignArray) as kiln arrays viewing the same memory,
    the streams their interfaces name synchronized first, as Numba does
    (unless ``kiln.cuda.config.CUDA_ARRAY_INTERFACE_SYNC`` is 0)."""
    from .._ndarray.cuda_array_interface import exported, from_interface
    from .._numba_cuda import config

    def viewed(a):
        foreign = not isinstance(a, (np.ndarray, *_DEVICE_ARRAYS)) and exported(a) is not None
        return from_interface(a, bool(config.CUDA_ARRAY_INTERFACE_SYNC)) if foreign else a

    return T.map_leaves(args, viewed)


def _on_one_device(args, name):
    """NumPy arrays stay where they are on the CPU; for a GPU launch (a kiln
    array on a GPU, or a GPU as the default device) they are copied there and
    back after the kernel, with Numba's warning."""
    if not any(isinstance(a, np.ndarray) or _is_record(a) for a in T.leaves(args)):
        return args, ()
    device = device_of(args)
    if device.type == "cpu":
        return args, ()
    from .._numpy.creation import asarray

    if not all(is_mapped(a) for a in T.leaves(args) if isinstance(a, np.ndarray)):  # Numba's words first
        performance_warning("CUDA_WARN_ON_IMPLICIT_COPY", "Host array used in CUDA kernel will incur copy overhead "
                            f"to/from device: {name}'s NumPy arrays are copied to {device} and back around the "
                            "kernel; pass kiln arrays (cuda.to_device) to avoid the copies", 3)
    copy_back = []

    def moved(a):
        if _is_record(a):  # a NumPy record: the 0-d array viewing its memory, which the copy back writes
            a = np.asarray(a)
        if not isinstance(a, np.ndarray):
            return a
        if T.is_record(a.dtype):
            on_device = DeviceRecordArray.from_host(a, device)
        elif T.is_time(a.dtype):
            on_device = DeviceTimeArray.from_host(a, device)
        else:
            on_device = asarray(a, device=device)
        if a.flags.writeable:
            copy_back.append((on_device, a))
        return on_device

    return T.map_leaves(tuple(args), moved), copy_back


def _is_record(value):
    """Whether `value` is a NumPy record scalar (an element of a structured array)."""
    return isinstance(value, np.void) and value.dtype.fields is not None


def jit(func_or_sig=None, device=False, cache=False, fastmath=False, lineinfo=False, max_registers=None,
        debug=False, opt=True, inline=False, forceinline=False, fma=True, lto=False, link=(), launch_bounds=None,
        shared_memory_carveout=None, **kws):
    """Numba's ``@cuda.jit``: bare, with options, or with signatures
    (``@cuda.jit("void(float32[:], int32)")``). kiln always caches compiled
    kernels on disk; `cache`, `fastmath`, `lineinfo`, `max_registers`,
    `debug`, `opt`, `inline`, `forceinline` and `lto` (kiln compiles a kernel and its device
    functions as one unit) are accepted for Numba code; `launch_bounds`
    becomes the kernel's __launch_bounds__ and `shared_memory_carveout` its
    preferred carveout on a GPU (the CPU has no such split); `link` takes
    CUDA C++ (.cu files, ``cuda.CUSource``) the kernel is compiled with
    (kiln/cuda/linking.py).

    fma=False (kiln's own option) keeps the GPU from fusing a * b + c into
    one rounding, so results match the CPU's bit for bit; the default fuses,
    as Numba does."""
    if kws:
        raise TypeError(f"jit: unexpected options {sorted(kws)}")
    options = dict(device=device, fma=fma, debug=debug, launch_bounds=launch_bounds,
                   shared_memory_carveout=shared_memory_carveout, link=linked_sources(link or None))
    if callable(func_or_sig) and not isinstance(func_or_sig, str):
        return Dispatcher(func_or_sig, **options)
    signatures = []
    if func_or_sig is not None:
        # A list of signatures, or one: a string, a Signature object, or a tuple of argument types.
        many = isinstance(func_or_sig, list) or (isinstance(func_or_sig, tuple) and func_or_sig and
                                                 not hasattr(func_or_sig[0], "dtype"))
        signatures = list(func_or_sig) if many else [func_or_sig]

    def decorate(pyfunc):
        dispatcher = Dispatcher(pyfunc, signatures=signatures, **options)
        dispatcher.type_declared()
        return dispatcher

    return decorate
