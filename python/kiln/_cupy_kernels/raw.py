"""CuPy's raw kernels: CUDA C source compiled once per device kind, launched
as ``kernel(grid, block, args, shared_mem=0, stream=None)``.

A launch runs where its array arguments live: kiln arrays on ``cuda:N`` (or
objects with ``__cuda_array_interface__``) on that GPU through NVRTC; kiln
arrays on the CPU (or NumPy arrays) on the CPU, the same source compiled by
the host C++ compiler (see include/kiln/device/host_runtime.hpp).
"""
import functools
import re

from .. import _core

# C parameter types and the NumPy type a Python scalar becomes for them.
_SCALAR_TYPES = {
    "bool": "?", "char": "b", "signed char": "b", "unsigned char": "B", "short": "h",
    "unsigned short": "H", "int": "i", "signed": "i", "unsigned": "I", "unsigned int": "I",
    "long": "l", "unsigned long": "L", "long long": "q", "unsigned long long": "Q",
    "size_t": "Q", "ptrdiff_t": "q", "float": "f", "double": "d", "half": "e", "__half": "e",
    "int8_t": "b", "uint8_t": "B", "int16_t": "h", "uint16_t": "H", "int32_t": "i",
    "uint32_t": "I", "int64_t": "q", "uint64_t": "Q",
    "complex<float>": "F", "complex<double>": "D", "thrust::complex<float>": "F",
    "thrust::complex<double>": "D", "cuComplex": "F", "cuFloatComplex": "F", "cuDoubleComplex": "D",
}
# "__global__ void name(" with what may stand between (extern "C", static,
# attributes, __launch_bounds__(...)), or the head of a kernel kiln generates
# (KILN_GENERATED_KERNEL, include/kiln/device/kernel_params.cuh); `name` is
# filled in.
_KERNEL_HEAD = (r"(?:__global__\s+(?:[\w:]+\s+)*?void\s+|KILN_GENERATED_KERNEL\s+)"
                r"(?:__launch_bounds__\s*\([^)]*\)\s*)?{name}\s*\(")
_QUALIFIERS = re.compile(r"\b(const|volatile|__restrict__|__restrict|restrict|struct)\b")
_POINTER = "pointer"
# A parameter kind as the launcher's one-character code.
_KIND_CODES = {_POINTER: "p", **{code: code for code in set(_SCALAR_TYPES.values())}}


def _split_top_level(text, sep=","):
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _parameter_kind(declaration, template_args):
    """'pointer', a NumPy type code, or None for a type kiln cannot fill from a Python scalar."""
    text = declaration.split("=")[0]
    if "*" in text or "[" in text:
        return _POINTER
    words = _QUALIFIERS.sub(" ", text).split()
    if len(words) > 1:
        words = words[:-1]  # drop the parameter's name
    type_name = " ".join(words)
    type_name = template_args.get(type_name, type_name)
    return _SCALAR_TYPES.get(_integer_spelling(type_name.replace("std::", "")))


_INTEGER_WORDS = {"signed", "unsigned", "char", "short", "int", "long"}


def _integer_spelling(type_name):
    """An integer type written any way C allows ("long int", "unsigned long
    long int", "short unsigned", "signed char", "long signed int") as the
    one spelling of _SCALAR_TYPES; any other type as it is."""
    words = type_name.split()
    if not words or not set(words) <= _INTEGER_WORDS or words.count("long") > 2:
        return type_name
    unsigned = "unsigned" in words
    if "char" in words:
        return "unsigned char" if unsigned else ("signed char" if "signed" in words else "char")
    size = "short" if "short" in words else " ".join(["long"] * words.count("long")) or "int"
    return f"unsigned {size}" if unsigned else size


def kernel_parameters(source, expression):
    """The parameter kinds of the kernel `expression` ("name" or "name<T, 4>") in `source`, or None."""
    name, _, targs = expression.partition("<")
    name = name.strip()
    pattern = re.compile(r"(template\s*<(?P<tparams>[^{;]*?)>\s*)?(?:extern\s*\"C\"\s*)?(?:static\s+)?"
                         + _KERNEL_HEAD.format(name=re.escape(name)))
    match = pattern.search(source)
    if match is None:
        return None
    depth, start = 1, match.end()
    end = start
    while depth and end < len(source):
        depth += {"(": 1, ")": -1}.get(source[end], 0)
        end += 1
    params = _split_top_level(source[start:end - 1])
    bindings = {}
    if match.group("tparams") and targs:
        names = [p.split()[-1] for p in _split_top_level(match.group("tparams"))]
        values = _split_top_level(targs.rstrip().rstrip(">"))
        bindings = dict(zip(names, values))
    if params == ["void"]:
        params = []
    return [(_parameter_kind(p, bindings), p) for p in params]


# CUfunction_attribute numbers (cuda.h).
_ATTRIBUTES = {
    "max_threads_per_block": 0, "shared_size_bytes": 1, "const_size_bytes": 2, "local_size_bytes": 3,
    "num_regs": 4, "ptx_version": 5, "binary_version": 6, "cache_mode_ca": 7,
    "max_dynamic_shared_size_bytes": 8, "preferred_shared_memory_carveout": 9,
}


def as_device_functions(code):
    """`code` with its kernels made device functions, for kiln's kernels
    that call a user's kernel function once an element (ndimage's generic
    filters, as CuPy's)."""
    return re.sub(r"\b__global__\b", "__device__", code)


def _raw_module(code, options, name_expressions, cooperative=False):
    """The C++ kiln::RawModule of `code`: compiled for each device on first use
    there. `cooperative` (CuPy's enable_cooperative_groups): its kernels
    launch cooperatively, every block resident at once, so that a grid
    group's sync() may be reached (kiln's marker ends the source, leaving
    its line numbers as they are)."""
    if not isinstance(code, str):
        raise TypeError(f"code: expected CUDA C source as a str, got {type(code).__name__}")
    if cooperative:
        code = f"{code}\n{_core._cooperative_marker}\n"
    return _core._RawModule(code, [str(o) for o in options], list(name_expressions or ()))


class RawKernel(_core._KernelLauncher):
    """CuPy's ``RawKernel(code, name, options=(), backend="nvrtc")``, called as
    ``kernel(grid, block, args, shared_mem=0, stream=None)``.

    The call itself is C++ (src/python/kernel_launcher.cpp): arguments are
    converted to the parameter types parsed from the source here, the device
    is the arrays' device, and kiln::RawKernel compiles the kernel for it on
    first use.
    """

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False, *, _module=None):
        super().__init__()
        if backend not in ("nvrtc", "nvcc"):
            raise ValueError(f"backend: expected 'nvrtc' or 'nvcc', got {backend!r}")
        self.code = code
        self.name = name
        self.options = tuple(options)
        module = _module if _module is not None else _raw_module(code, self.options, (), enable_cooperative_groups)
        self._kernel = module.function(name)
        params = kernel_parameters(code, name)
        kinds = None if params is None else "".join(_KIND_CODES.get(kind, "\0") for kind, _ in params)
        self._configure(name, kinds, [decl for _, decl in params or ()], self._kernel)

    def _cuda(self, device_index):
        """The kernel's CUfunction on GPU `device_index` (compiled there if needed)."""
        return self._kernel.handle(_core.Device(f"cuda:{device_index}"))

    def _attribute(self, name):
        from .._cuda.device import get_device_id, is_available

        if not is_available():
            return self._attributes_without_a_gpu()[name]
        return _core._function_attribute(self._cuda(get_device_id()), _ATTRIBUTES[name])

    def _attributes_without_a_gpu(self):
        """The attributes cuFuncGetAttribute gives on a GPU of compute
        capability 9.0 (the one kiln's Numba face reports where there is no
        GPU, HOST_COMPUTE_CAPABILITY), from ptxas's report of the kernel
        compiled for it by NVRTC, which needs no GPU: registers, stack frame,
        shared and constant memory; the most threads a block may have with
        those registers (64K registers a block, given out 256 a warp, at most
        1024 threads); the driver's defaults for the rest."""
        from .._numba_cuda.numba_host import HOST_COMPUTE_CAPABILITY

        found = getattr(self, "_resources", None)
        if found is None:
            arch = HOST_COMPUTE_CAPABILITY[0] * 10 + HOST_COMPUTE_CAPABILITY[1]
            found = _core._cuda_kernel_resources(self.code, arch, list(self.options), self.name)
            registers_a_warp = -(-max(found["num_regs"], 1) * 32 // 256) * 256
            found.update(max_threads_per_block=min(1024, 65536 // registers_a_warp * 32),
                         ptx_version=arch, binary_version=arch, cache_mode_ca=0,
                         max_dynamic_shared_size_bytes=48 * 1024 - found["shared_size_bytes"],
                         preferred_shared_memory_carveout=-1)
            self._resources = found
        return found

    @property
    def cooperative(self):
        """Whether the kernel syncs its grid (Numba's ``cuda.cg.this_grid()``),
        and so launches with all its blocks running at once."""
        return self._kernel.cooperative

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """Numba's: the most blocks of `blockdim` threads (an int or a tuple),
        with `dynsmemsize` bytes of dynamic shared memory, that a cooperative
        launch of the kernel on the default device can have: what a GPU holds
        at once, or on the CPU one OS thread a block up to a fixed limit."""
        from .._ndarray.device import default_device

        dims = tuple(blockdim) if isinstance(blockdim, (tuple, list)) else (blockdim,)
        if not 1 <= len(dims) <= 3 or not all(isinstance(d, int) and d >= 1 for d in dims):
            raise ValueError(f"blockdim: expected 1 to 3 positive ints, got {blockdim!r}")
        x, y, z = dims + (1,) * (3 - len(dims))
        return self._kernel.max_cooperative_blocks(default_device(), x, y, z, int(dynsmemsize))

    @property
    def attributes(self):
        return {name: self._attribute(name) for name in _ATTRIBUTES}

    def _set_attribute(self, name, value):
        from .._cuda.device import get_device_id

        _core._set_function_attribute(self._cuda(get_device_id()), _ATTRIBUTES[name], int(value))


for _name in ("max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes", "num_regs",
              "ptx_version", "binary_version"):
    setattr(RawKernel, _name, property(lambda self, _n=_name: self._attribute(_n)))
# CuPy's two settable ones: the dynamic shared memory a launch may ask for,
# and the percent of on-chip memory preferred as shared memory.
for _name in ("max_dynamic_shared_size_bytes", "preferred_shared_memory_carveout"):
    setattr(RawKernel, _name, property(lambda self, _n=_name: self._attribute(_n),
                                       lambda self, value, _n=_name: self._set_attribute(_n, value)))


def generated_kernels(code, names, options=()):
    """RawKernels for the kernels `names` of one generated source, compiled
    together: kiln's own kernel generators (ElementwiseKernel,
    ReductionKernel, cuda.jit) name their kernels as name expressions, so no
    backend has to find them in the text."""
    module = _raw_module(code, options, names)
    kernels = [RawKernel(code, name, options, _module=module) for name in names]
    for kernel in kernels:
        kernel._kiln_module = module  # for the generator's own globals (cuda.jit's debug record)
    return kernels


def launch_size(count, threads=256, max_blocks=4096):
    """(grid, block) for a kernel that strides over `count` items: enough
    blocks of `threads` to cover them (at least one), at most `max_blocks`
    (None: no limit), for header_kernels' kernels."""
    blocks = max(1, (count + threads - 1) // threads)
    return (blocks if max_blocks is None else min(blocks, max_blocks),), (threads,)


@functools.cache
def header_kernels(header, names):
    """RawKernels for the kernels `names` (a tuple) of one of kiln's device
    headers (include/kiln/device/`header`), compiled once a process, on
    first use: kiln.scipy's hand-written kernels."""
    return generated_kernels(f"#include <kiln/device/{header}>\n", list(names))


class RawModule:
    """CuPy's ``RawModule(code=..., options=(), name_expressions=None)``."""

    def __init__(self, code=None, path=None, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        if (code is None) == (path is None):
            raise TypeError("RawModule: pass exactly one of code= and path=")
        if path is not None:
            with open(path) as f:
                code = f.read()
        self.code = code
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions or ())
        self._module = _raw_module(code, self.options, self.name_expressions, enable_cooperative_groups)

    def get_function(self, name):
        """The kernel `name`, or a template instance listed in name_expressions ("f<float>")."""
        return RawKernel(self.code, name, self.options, _module=self._module)

    def get_global(self, name, device=None):
        """(address, size in bytes) of the __device__ or __constant__ variable `name`
        on `device` (default: the default device)."""
        from .._ndarray.device import to_device

        return self._module.global_(to_device(device), name)
