"""CuPy's raw kernels: CUDA C source compiled once per device kind, launched
as ``kernel(grid, block, args, shared_mem=0, stream=None)``.

A launch runs where its array arguments live: kiln arrays on ``cuda:N`` (or
objects with ``__cuda_array_interface__``) on that GPU through NVRTC; kiln
arrays on the CPU (or NumPy arrays) on the CPU, the same source compiled by
the host C++ compiler (see include/kiln/device/host_runtime.hpp).
"""
import re

from . import _core

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
# attributes, __launch_bounds__(...)); `name` is filled in.
_KERNEL_HEAD = (r"__global__\s+(?:[\w:]+\s+)*?void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?{name}\s*\(")
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
    if type_name in ("unsigned long int", "long int"):
        type_name = type_name[:-4]
    return _SCALAR_TYPES.get(type_name.replace("std::", ""))


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


class _Program:
    """One source and its options, compiled lazily for each device it runs on."""

    def __init__(self, code, options, name_expressions):
        if not isinstance(code, str):
            raise TypeError(f"code: expected CUDA C source as a str, got {type(code).__name__}")
        self.code = code
        self.options = [str(o) for o in options]
        self.name_expressions = list(name_expressions or ())
        self._host_kernels = None  # expressions in the host module, in entry order
        self._host = None
        self._cuda = {}

    def _host_module(self):
        if self._host is None:
            names = self.name_expressions + [n for n in _global_names(self.code) if n not in self.name_expressions]
            self._host = _core._load_host_module(self.code, self.options, names)
            self._host_kernels = names
        return self._host

    def _cuda_module(self, device_index):
        module = self._cuda.get(device_index)
        if module is None:
            module = self._cuda[device_index] = _core._load_user_module(
                device_index, self.code, self.options, self.name_expressions)
        return module

    def host_entry(self, expression):
        """(host module, entry index) of the kernel `expression` compiled for the CPU."""
        module = self._host_module()
        if expression not in self._host_kernels:
            raise ValueError(f"the module has no kernel named '{expression}'")
        return module, self._host_kernels.index(expression)

    def cuda_function(self, expression, device_index):
        module = self._cuda_module(device_index)
        symbol = expression
        if expression in self.name_expressions:
            symbol = module.lowered_names[self.name_expressions.index(expression)]
        return _core._user_function(module, symbol)

    def global_variable(self, name, device):
        """(address, size in bytes) of the __device__/__constant__ variable `name` on `device`."""
        if device.type == "cpu":
            return _core._host_global(self._host_module(), name)
        return _core._module_global(self._cuda_module(device.index), name)


def _global_names(code):
    """The non-template __global__ functions of `code` (each gets a CPU entry point)."""
    names = []
    for m in re.finditer(_KERNEL_HEAD.format(name=r"(\w+)"), code):
        before = code[:m.start()].rstrip()
        if not before.endswith(">"):  # a template's kernels need name_expressions
            names.append(m.group(1))
    return names


# CUfunction_attribute numbers (cuda.h).
_ATTRIBUTES = {
    "max_threads_per_block": 0, "shared_size_bytes": 1, "const_size_bytes": 2, "local_size_bytes": 3,
    "num_regs": 4, "ptx_version": 5, "binary_version": 6, "cache_mode_ca": 7,
    "max_dynamic_shared_size_bytes": 8, "preferred_shared_memory_carveout": 9,
}


class RawKernel(_core._KernelLauncher):
    """CuPy's ``RawKernel(code, name, options=(), backend="nvrtc")``, called as
    ``kernel(grid, block, args, shared_mem=0, stream=None)``.

    The call itself is C++ (src/python/kernel_launcher.cpp): arguments are
    converted to the parameter types parsed from the source here, the device
    is the arrays' device, and the kernel is compiled for it on first use.
    """

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False, *, _program=None):
        super().__init__()
        if backend not in ("nvrtc", "nvcc"):
            raise ValueError(f"backend: expected 'nvrtc' or 'nvcc', got {backend!r}")
        self.code = code
        self.name = name
        self.options = tuple(options)
        self._program = _program or _Program(code, options, ())
        params = kernel_parameters(code, name)
        kinds = None if params is None else "".join(_KIND_CODES.get(kind, "\0") for kind, _ in params)
        self._configure(name, kinds, [decl for _, decl in params or ()], self._resolve)

    def _resolve(self, device_index):
        """The compiled kernel: (host module, entry) for -1, else its CUfunction on that GPU."""
        if device_index < 0:
            return self._program.host_entry(self.name)
        return self._cuda(device_index)

    def _cuda(self, device_index):
        return self._program.cuda_function(self.name, device_index)

    def _attribute(self, name):
        from .cuda.device import get_device_id

        return _core._function_attribute(self._cuda(get_device_id()), _ATTRIBUTES[name])

    @property
    def attributes(self):
        return {name: self._attribute(name) for name in _ATTRIBUTES}

    @property
    def max_dynamic_shared_size_bytes(self):
        return self._attribute("max_dynamic_shared_size_bytes")

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, value):
        from .cuda.device import get_device_id

        _core._set_function_attribute(self._cuda(get_device_id()),
                                      _ATTRIBUTES["max_dynamic_shared_size_bytes"], int(value))


for _name in ("max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes", "num_regs",
              "ptx_version", "binary_version"):
    setattr(RawKernel, _name, property(lambda self, _n=_name: self._attribute(_n)))


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
        self._program = _Program(code, options, self.name_expressions)

    def get_function(self, name):
        """The kernel `name`, or a template instance listed in name_expressions ("f<float>")."""
        return RawKernel(self.code, name, self.options, _program=self._program)
