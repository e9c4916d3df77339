"""PyCUDA's compiler module: ``from kiln.pycuda.compiler import SourceModule``.

The source is compiled by NVRTC for the current GPU, or by the host compiler
when there is none (the same CUDA C runs on the CPU), and cached on disk.
"""
import time

import numpy as np

from .. import _core
from .._core import ndarray
from .._ndarray.device import cpu, default_device
from .._cupy_kernels.raw import RawModule
from .driver import ArgumentHandler, DeviceAllocation, DevicePointer, PointerHolderBase


# The nvcc flags PyCUDA adds: kiln compiles with NVRTC and adds none.
DEFAULT_NVCC_FLAGS = []


class DynamicModule:
    """PyCUDA's DynamicModule/JitLinkModule links relocatable device code
    (dynamic parallelism with cudadevrt); kiln compiles each module whole
    with NVRTC, so it refuses by name."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("DynamicModule: kiln compiles whole modules with NVRTC; relocatable device "
                                  "code and dynamic parallelism (-rdc=true, cudadevrt) are not supported")


JitLinkModule = DynamicSourceModule = DynamicModule


class SourceModule:
    """``SourceModule(source, nvcc="nvcc", options=None, keep=False, no_extern_c=False, arch=None,
    code=None, cache_dir=None, include_dirs=[])``. Like PyCUDA, the source is wrapped in
    ``extern "C" {}`` unless ``no_extern_c``, so kernels are found by their plain names, and
    compiled at once for the current device: bad CUDA C raises ``kiln.CompileError`` here,
    with the compiler's log and the user's own line numbers."""

    def __init__(self, source, nvcc="nvcc", options=None, keep=False, no_extern_c=False, arch=None, code=None,
                 cache_dir=None, include_dirs=()):
        if isinstance(source, (bytes, bytearray)) or source is None:
            raise TypeError(f"source: expected CUDA C source as a str, got {type(source).__name__}")
        source = str(source)  # PyCUDA takes generated code objects (cgen, codepy) by their text
        if arch is not None and not str(arch).startswith(("sm_", "compute_")):
            raise ValueError(f"arch: expected e.g. 'sm_90', got {arch!r}")
        # kiln compiles for the device it runs on; `arch`, `code`, `nvcc`, `keep`
        # and `cache_dir` are accepted for PyCUDA code and otherwise unused.
        # "#line 1": the user's lines keep their numbers in the compiler's
        # messages and in kiln's listing of them.
        text = source if no_extern_c else 'extern "C" {\n#line 1\n' + source + "\n}\n"
        self._module = RawModule(code=text, options=tuple(options or ()) + tuple(f"-I{d}" for d in include_dirs))
        self._module._module.compile(default_device())

    def get_function(self, name):
        return Function(self._module, name)

    def get_texref(self, name):
        raise NotImplementedError("texture references were removed in CUDA 12; pass arrays to kernels instead")

    get_surfref = get_texref

    def get_global(self, name):
        """(pointer, size in bytes) of the __device__ or __constant__ variable `name`."""
        device = default_device()
        address, size = self._module.get_global(name, device)
        return DevicePointer(address, device, owner=self), size


class Function:
    """A kernel of a SourceModule, called as
    ``f(*args, block=(x, y, z), grid=(x, y), shared=0, stream=None, time_kernel=False)``."""

    def __init__(self, module, name):
        self._kernel = module.get_function(name)
        self._arg_types = None

    def __call__(self, *args, block=None, grid=(1, 1), shared=0, stream=None, time_kernel=False, texrefs=()):
        if block is None:
            raise TypeError(f"{self._kernel.name}: pass the block shape as block=(x, y, z)")
        grid, block = _dims(grid, "grid"), _dims(block, "block")
        if texrefs:
            raise NotImplementedError("texture references are not supported; pass arrays instead")
        device = _device_of(args)
        handled = [(a, a.device_array(device)) for a in args if isinstance(a, ArgumentHandler)]
        as_device = dict((id(a), d) for a, d in handled)
        values = tuple(_kernel_value(as_device.get(id(a), a)) for a in args)
        elapsed = self._launch(grid, block, values, shared, stream, time_kernel, device)
        for a, d in handled:
            a.finish(d)
        return elapsed

    def _launch(self, grid, block, values, shared, stream, time_kernel, device):
        if not time_kernel:
            self._kernel(grid, block, values, shared_mem=shared, stream=stream)
            return None
        if device == cpu:
            start = time.perf_counter()
            self._kernel(grid, block, values, shared_mem=shared, stream=stream)
            return time.perf_counter() - start
        from .driver import Event

        start, end = Event(), Event()
        start.record(stream)
        self._kernel(grid, block, values, shared_mem=shared, stream=stream)
        end.record(stream)
        end.synchronize()
        return start.elapsed_time(end) / 1000.0

    def set_cache_config(self, config):
        """The kernel's preferred L1/shared memory split (a ``drv.func_cache``) on
        the current GPU; the CPU has no such split, so there it changes nothing."""
        device = default_device()
        if device != cpu:
            _core._set_function_cache_config(self._kernel._cuda(device.index), int(config))

    # Prepared invocation: argument types given once, as a struct-module
    # string ("PiiP") or a list of NumPy dtypes.
    def prepare(self, arg_types):
        codes = list(arg_types) if isinstance(arg_types, str) else [np.dtype(t).char for t in arg_types]
        self._arg_types = codes
        return self

    def _prepared_values(self, args):
        if self._arg_types is None:
            raise RuntimeError(f"{self._kernel.name}: call prepare(arg_types) first")
        if len(args) != len(self._arg_types):
            raise TypeError(f"{self._kernel.name}: prepared for {len(self._arg_types)} arguments, got {len(args)}")
        return tuple(_kernel_value(a) if code == "P" and not isinstance(a, (int, np.integer))
                     else np.uintp(int(a)) if code == "P" else np.dtype(code).type(a)
                     for code, a in zip(self._arg_types, args))

    def prepared_call(self, grid, block, *args, shared_size=0):
        self._kernel(_dims(grid, "grid"), _dims(block, "block"), self._prepared_values(args), shared_mem=shared_size)

    def prepared_async_call(self, grid, block, stream, *args, shared_size=0):
        self._kernel(_dims(grid, "grid"), _dims(block, "block"), self._prepared_values(args), shared_mem=shared_size,
                     stream=stream)

    def prepared_timed_call(self, grid, block, *args, shared_size=0):
        elapsed = self._launch(_dims(grid, "grid"), _dims(block, "block"), self._prepared_values(args), shared_size,
                               None, True, _device_of(args))
        return lambda: elapsed


# The kernel's attributes, as PyCUDA names them.
for _name in ("num_regs", "shared_size_bytes", "local_size_bytes", "max_threads_per_block"):
    setattr(Function, _name, property(lambda self, _n=_name: getattr(self._kernel, _n)))


def _dims(value, what):
    """Launch dimensions as ints: PyCUDA truncates numbers that are not ints
    (a grid of N / 256 computed with true division), and so does kiln here."""
    values = value if isinstance(value, (tuple, list)) else (value,)
    try:
        return tuple(int(v) for v in values)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: expected 1 to 3 numbers, got {value!r}") from None


def _device_of(args):
    """The device of the call: that of its kiln arrays, GPUArrays and allocations, else the current one."""
    for a in args:
        if isinstance(a, (ndarray, DeviceAllocation, DevicePointer)) or hasattr(a, "__kiln_array__"):
            return a.device
    return default_device()


def _kernel_value(a):
    """What the launcher takes for a PyCUDA argument."""
    if isinstance(a, DeviceAllocation):
        return a._live()  # the launcher takes its address and device from the array
    if isinstance(a, DevicePointer):
        return np.uintp(a)
    if isinstance(a, PointerHolderBase):
        return np.uintp(a.get_pointer())
    if hasattr(a, "__kiln_array__"):  # a GPUArray
        return a.__kiln_array__()
    return a
