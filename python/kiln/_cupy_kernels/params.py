"""What ElementwiseKernel and ReductionKernel share: CuPy's parameter lists
("float32 x, T y, raw T z"), the binding of type placeholders to dtypes, the
operands' broadcast layout folded to as few dimensions as possible, and the C
helpers the generated kernels index with.

The generated source is CUDA C that compiles both with NVRTC and with the host
compiler (include/kiln/device/host_runtime.hpp), so one kernel text serves the
GPU and the CPU; ``__CUDA_ARCH__`` tells them apart where the best loop shape
differs.
"""
import re
import struct

from .. import _core
from .._core import ndarray
from .._ndarray.dtypes import normalize

# The C type of each dtype a generated kernel can hold.
C_TYPES = {
    "bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short",
    "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int", "int64": "long long",
    "uint64": "unsigned long long", "float16": "float16", "float32": "float", "float64": "double",
    "complex64": "complex<float>", "complex128": "complex<double>",
}
_NAME = re.compile(r"^[A-Za-z_]\w*$")

# The indexing helpers every generated kernel includes first.
SUPPORT_INCLUDE = "#include <kiln/device/kernel_params.cuh>\n"


class Param:
    """One entry of a parameter list: ``[raw] type name``."""

    __slots__ = ("name", "type", "raw", "is_output")

    def __init__(self, text, is_output, where):
        words = text.split()
        raw = len(words) == 3 and words[0] == "raw"
        if len(words) != 2 + raw or not _NAME.match(words[-1]):
            raise ValueError(f"{where}: cannot read the parameter '{text}' (expected '[raw] type name')")
        self.name, self.raw, self.is_output = words[-1], raw, is_output
        if self.name in ("i", "n") or self.name.startswith("_"):
            raise ValueError(f"{where}: the name '{self.name}' is reserved (i, n and names starting with _)")
        spec = words[-2]
        if len(spec) == 1:
            self.type = spec  # a placeholder, bound at the call
        else:
            try:
                self.type = normalize(spec)
            except TypeError:
                raise ValueError(f"{where}: unknown type '{spec}' in '{text}'") from None

    @property
    def is_placeholder(self):
        return isinstance(self.type, str)


def parse_params(text, is_output, where):
    params = [Param(p.strip(), is_output, where) for p in text.split(",") if p.strip()]
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ValueError(f"{where}: a parameter name appears twice in '{text}'")
    return params


def scalar_dtype(value):
    """The dtype a scalar argument binds a placeholder to (NumPy's for its type)."""
    import numpy as np

    if isinstance(value, np.generic):
        return normalize(value.dtype)
    return normalize(np.dtype(type(value)))


def bind_placeholders(params, args, where):
    """{placeholder: dtype} from array arguments first, then from scalars."""
    types = {}
    for pass_arrays in (True, False):
        for p, a in zip(params, args):
            if a is None or not p.is_placeholder or isinstance(a, ndarray) != pass_arrays:
                continue
            d = a.dtype if pass_arrays else scalar_dtype(a)
            if p.type not in types:
                types[p.type] = normalize(d)
            elif pass_arrays and types[p.type] != d:
                raise TypeError(f"{where}: type placeholder {p.type} is {types[p.type]} from an earlier argument "
                                f"but '{p.name}' is {d}")
    return types


def resolved_type(param, types, where):
    if not param.is_placeholder:
        return param.type
    if param.type not in types:
        raise TypeError(f"{where}: cannot determine the type placeholder {param.type} of '{param.name}' "
                        "(pass an array for it or an output array)")
    return types[param.type]


def typedefs(types):
    return "".join(f"typedef {C_TYPES[d.name]} {name};\n" for name, d in sorted(types.items()))


def broadcast_strides(array, shape):
    """The byte strides of `array` viewed as `shape` (0 along broadcast dimensions)."""
    lead = len(shape) - array.ndim
    return tuple(0 if i < lead or array.shape[i - lead] == 1 and shape[i] != 1 else array.strides[i - lead]
                 for i in range(len(shape)))


def fold(shape, strides_per_operand):
    """Drops length-1 dimensions and merges neighbours every operand walks
    as one: (shape, strides per operand), at least one dimension."""
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    out_shape, out_strides = [], [[] for _ in strides_per_operand]
    for d in dims:
        if out_shape and all(s[-1] == st[d] * shape[d] for s, st in zip(out_strides, strides_per_operand)):
            out_shape[-1] *= shape[d]
            for s, st in zip(out_strides, strides_per_operand):
                s[-1] = st[d]
            continue
        out_shape.append(shape[d])
        for s, st in zip(out_strides, strides_per_operand):
            s.append(st[d])
    if not out_shape:
        return [1], [[0] for _ in strides_per_operand]
    return out_shape, out_strides


def indexer_bytes(size, shape, strides_per_operand):
    """A kiln_indexer<len(shape), max(1, operands)> as its bytes."""
    rows = strides_per_operand or [[0] * len(shape)]
    values = [size, *shape] + [s for row in rows for s in row]
    return struct.pack(f"<{len(values)}q", *values)


def raw_layout(array):
    """(ndim for the template, kiln_raw_layout bytes) of a raw parameter's array."""
    nd = max(array.ndim, 1)
    shape = list(array.shape) or [1]
    strides = list(array.strides) or [array.itemsize]
    values = [array.size, int(array._c_contiguous), *shape, *strides]
    return nd, struct.pack(f"<{len(values)}q", *values)


def device_of(arrays, where):
    from .._ndarray.device import default_device

    found = None
    for a in arrays:
        if found is not None and a.device != found:
            raise TypeError(f"{where}: arguments are on different devices ({found} and {a.device})")
        found = a.device
    return found if found is not None else default_device()


def call_arguments(name, in_params, out_params, args, out):
    """A generated kernel's call: (operands, device). Operands follow the
    parameters, arrays as kiln arrays on the device, None for each output to
    allocate; outputs come positionally after the inputs or as `out=`."""
    n_in, n_all = len(in_params), len(in_params) + len(out_params)
    if out is not None:
        if len(args) != n_in:
            raise TypeError(f"{name}: out= is given, so pass the {n_in} inputs only")
        args = args + (tuple(out) if isinstance(out, (tuple, list)) else (out,))
    if len(args) not in (n_in, n_all):
        raise TypeError(f"{name} takes {n_in} or {n_all} arguments, got {len(args)}")
    device = device_of([a for a in args if isinstance(a, ndarray)], name)
    operands = [as_operand(a, device, name) for a in args] + [None] * (n_all - len(args))
    for p, a in zip(in_params + out_params, operands):
        if a is not None and (p.is_output or p.raw) and not isinstance(a, ndarray):
            what = "output" if p.is_output else "raw parameter"
            raise TypeError(f"{name}: {what} '{p.name}' must be an array, got {type(a).__name__}")
    return operands, device


def as_operand(value, device, where):
    """A kiln array for an array argument (NumPy and __cuda_array_interface__
    arrays are brought to `device`), the value itself for a scalar."""
    import numpy as np

    if isinstance(value, ndarray):
        return value
    if isinstance(value, (bool, int, float, np.generic)):
        return value
    if isinstance(value, np.ndarray) or hasattr(value, "__cuda_array_interface__"):
        from .._numpy.creation import asarray

        return asarray(value, device=device)
    raise TypeError(f"{where}: unsupported argument of type {type(value).__name__}")


_multiprocessors = {}


def launch_shape(device, n, per_block=256, per_thread=1):
    """(grid, block) for a flat loop of n: `per_thread` elements a thread on
    the GPU (the grid capped; the loop strides), a few contiguous runs per
    core on the CPU."""
    if device.type == "cpu":
        runs = max(1, min(_core._cpu_threads() * 4, -(-n // 4096)))
        return runs, 1
    return max(1, min(-(-n // (per_block * per_thread)), 1 << 20)), per_block


def multiprocessors(device):
    count = _multiprocessors.get(device.index)
    if count is None:
        count = _multiprocessors[device.index] = _core._cuda_device_attribute(device.index, 16)
    return count
