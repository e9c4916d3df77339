"""CuPy's ``ElementwiseKernel``: a loop body in CUDA C over broadcast operands,
compiled per argument types and layout for the GPU (NVRTC) or the CPU (the
host compiler), and cached on disk like every other kernel.

In the body, each non-raw input is a ``const`` value of its parameter's type,
each non-raw output a reference to its element, each raw parameter the whole
array (``x[j]`` by flat C-order index, ``x.size()``), ``i`` the flat index and
``n`` (also ``_ind.size()``) the loop's size.
"""
from .._core import ndarray
from .._numpy.creation import empty
from .params import (
    C_TYPES, SUPPORT_INCLUDE, bind_placeholders, broadcast_strides, call_arguments, fold, indexer_bytes,
    launch_shape, parse_params, raw_layout, resolved_type, typedefs,
)
from .._numpy.manipulation.shape import broadcast_shapes
from .raw import generated_kernels

UNROLL = 4  # elements a GPU thread takes at once when every operand is dense


class ElementwiseKernel:
    """``ElementwiseKernel(in_params, out_params, operation, name='kernel', reduce_dims=True,
    preamble='', no_return=False, return_tuple=False, loop_prep='', after_loop='', options=())``."""

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True, preamble="",
                 no_return=False, return_tuple=False, loop_prep="", after_loop="", options=(), **kwargs):
        if kwargs:
            raise TypeError(f"ElementwiseKernel: unexpected keyword arguments {sorted(kwargs)}")
        self.name = name
        self.in_params = parse_params(in_params, False, name)
        self.out_params = parse_params(out_params, True, name)
        self.params = self.in_params + self.out_params
        if len({p.name for p in self.params}) != len(self.params):
            raise ValueError(f"{name}: an input and an output share a name")
        self.operation, self.preamble = operation, preamble
        self.loop_prep, self.after_loop = loop_prep, after_loop
        self.reduce_dims = reduce_dims
        self.no_return, self.return_tuple = no_return, return_tuple
        self.options = tuple(options)
        self._kernels = {}

    def __call__(self, *args, out=None, size=None, stream=None, block_size=None):
        args, device = call_arguments(self.name, self.in_params, self.out_params, args, out)
        types = bind_placeholders(self.params, args, self.name)
        shape = self._loop_shape(args, size)
        for k, p in enumerate(self.params):
            dtype = resolved_type(p, types, self.name)
            if args[k] is None:
                args[k] = empty(shape, dtype=dtype, device=device)
            elif p.is_output and args[k].dtype != dtype:
                raise TypeError(f"{self.name}: output '{p.name}' is {args[k].dtype}; the kernel declares {dtype}")
            elif p.raw and args[k].dtype != dtype:
                raise TypeError(f"{self.name}: raw parameter '{p.name}' is {args[k].dtype}; the kernel declares {dtype}")
        self._launch(args, types, shape, device, stream, block_size)
        outs = args[len(self.in_params):]
        if self.no_return:
            return None
        return tuple(outs) if self.return_tuple or len(outs) > 1 else outs[0]

    def _loop_shape(self, args, size):
        shapes = [a.shape for p, a in zip(self.params, args) if isinstance(a, ndarray) and not p.raw]
        if size is not None:
            if shapes:
                raise ValueError(f"{self.name}: size= is only for kernels whose arrays are all raw")
            return (int(size),)
        if not shapes:
            raise ValueError(f"{self.name}: the loop size is undecided (pass a non-raw array or size=)")
        try:
            shape = broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError(f"{self.name}: operands could not be broadcast together with shapes "
                             f"{' '.join(str(s) for s in shapes)}") from None
        for p, a in zip(self.out_params, args[len(self.in_params):]):
            if a is not None and not p.raw and a.shape != shape:
                raise ValueError(f"{self.name}: output '{p.name}' has shape {a.shape}; the loop's shape is {shape}")
        return shape

    def _launch(self, args, types, shape, device, stream, block_size):
        n = 1
        for s in shape:
            n *= s
        if n == 0:
            return
        indexed = [k for k, (p, a) in enumerate(zip(self.params, args)) if isinstance(a, ndarray) and not p.raw]
        strides = [broadcast_strides(args[k], shape) for k in indexed]
        if self.reduce_dims:
            folded_shape, folded = fold(shape, strides)
        else:
            folded_shape, folded = list(shape) or [1], [list(s) or [0] for s in strides]
        contiguous = len(folded_shape) == 1 and all(s[0] == args[k].itemsize for k, s in zip(indexed, folded))
        kernel_args, layout = [], []
        for k, (p, a) in enumerate(zip(self.params, args)):
            if p.raw:
                nd, layout_bytes = raw_layout(a)
                kernel_args += [a, layout_bytes]
                layout.append(("raw", a.dtype.name, nd))
            elif isinstance(a, ndarray):
                kernel_args.append(a)
                layout.append(("array", a.dtype.name))
            else:
                kernel_args.append(resolved_type(p, types, self.name).type(a))
                layout.append(("scalar",))
        kernel_args.append(indexer_bytes(n, folded_shape, folded))
        key = (device.type, tuple(sorted((k, d.name) for k, d in types.items())), tuple(layout),
               len(folded_shape), len(indexed), contiguous)
        kernel = self._kernels.get(key)
        if kernel is None:
            source = self._source(types, layout, len(folded_shape), len(indexed), contiguous)
            kernel, = generated_kernels(source, [self.name], self.options)
            self._kernels[key] = kernel
        grid, block = launch_shape(device, n, block_size or 256, UNROLL if contiguous else 1)
        kernel(grid, block, tuple(kernel_args), stream=stream)

    def _source(self, types, layout, nd, n_indexed, contiguous):
        params, raws, arrays = [], [], []  # arrays: (param, C type, storage C type, offset slot)
        for p, how in zip(self.params, layout):
            ctype = C_TYPES[resolved_type(p, types, self.name).name]
            if how[0] == "raw":
                storage = C_TYPES[how[1]]
                params += [f"{storage}* _rawp_{p.name}", f"kiln_raw_layout<{how[2]}> _rawl_{p.name}"]
                raws.append(f"  const kiln_raw<{storage}, {how[2]}> {p.name}(_rawp_{p.name}, _rawl_{p.name});")
            elif how[0] == "array":
                params.append(f"char* _p_{p.name}")
                arrays.append((p, ctype, C_TYPES[how[1]], len(arrays)))
            else:
                params.append(f"{ctype} {p.name}")
        params.append(f"kiln_indexer<{nd}, {max(n_indexed, 1)}> _ind")

        def element(p, storage, slot):
            if contiguous:
                return f"reinterpret_cast<{storage}*>(_p_{p.name})[i]"
            return f"*reinterpret_cast<{storage}*>(_p_{p.name} + _off[{slot}])"

        offsets = "" if contiguous or not n_indexed else f"long long _off[{n_indexed}]; _ind.offsets(i, _off); "
        one = (f"{offsets}{' '.join(_bind(p, c, element(p, s, k)) for p, c, s, k in arrays)} "
               f"{self.operation};")
        loop = [f"  KILN_LOOP(i, n) {{ {one} }}"]
        if contiguous:
            loop = ["#ifdef __CUDA_ARCH__", *self._unrolled_loop(arrays, one), "#else", *loop, "#endif"]
        return "\n".join([
            SUPPORT_INCLUDE, typedefs(types), self.preamble,
            f'KILN_GENERATED_KERNEL {self.name}({", ".join(params)}) {{',
            *raws,
            "  const long long n = _ind.size();",
            f"  {self.loop_prep};",
            *loop,
            f"  {self.after_loop};",
            "}",
        ])

    def _unrolled_loop(self, arrays, one):
        """The GPU's loop over dense operands: UNROLL elements a thread, every
        input loaded before any operation runs. Stores through the outputs
        could otherwise alias the next loads, which would then wait for them."""
        inputs = [(p, c, s) for p, c, s, _ in arrays if not p.is_output]
        outputs = [(p, c, s) for p, c, s, _ in arrays if p.is_output]
        lines = ["  const long long _stride = (long long)blockDim.x * gridDim.x;",
                 "  long long _i = (long long)blockIdx.x * blockDim.x + threadIdx.x;",
                 f"  for (; _i + {UNROLL - 1} * _stride < n; _i += {UNROLL} * _stride) {{"]
        for k in range(UNROLL):
            lines += [f"    const {s} _v{k}_{p.name} = reinterpret_cast<const {s}*>(_p_{p.name})[_i + {k} * _stride];"
                      for p, c, s in inputs]
        for k in range(UNROLL):
            binds = [_bind(p, c, f"_v{k}_{p.name}") for p, c, s in inputs]
            binds += [_bind(p, c, f"reinterpret_cast<{s}*>(_p_{p.name})[i]") for p, c, s in outputs]
            lines.append(f"    {{ const long long i = _i + {k} * _stride; {' '.join(binds)} {self.operation}; }}")
        lines += ["  }", f"  for (long long i = _i; i < n; i += _stride) {{ {one} }}"]
        return lines


def _bind(param, ctype, value):
    """The loop body's name for a parameter's element: a reference to an
    output's, a converted copy of an input's."""
    if param.is_output:
        return f"{ctype}& {param.name} = {value};"
    return f"const {ctype} {param.name} = ({ctype})({value});"
