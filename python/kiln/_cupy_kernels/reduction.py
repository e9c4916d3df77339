"""CuPy's ``ReductionKernel``: map each element of the broadcast inputs with
``map_expr``, combine the mapped values with ``reduce_expr`` (over ``a`` and
``b``) starting from ``identity``, and turn each result ``a`` into the output
with ``post_map_expr``, over ``axis`` (all axes by default).

The loop is split into tasks of (output element, run of the reduced
elements). With enough output elements a task is a whole output and one
kernel finishes it; otherwise the reduced elements are cut into runs so every
multiprocessor (or core) has work, each run's value goes to a scratch array,
and a second kernel combines the runs. On the GPU a task is a block of
threads that combine through shared memory; on the CPU it is one thread.
"""
import math
import operator

from .. import _core
from .._core import ndarray
from .._numpy.creation import empty
from .._numpy.manipulation.shape import broadcast_shapes
from .params import (
    C_TYPES, SUPPORT_INCLUDE, bind_placeholders, broadcast_strides, call_arguments, fold, indexer_bytes,
    multiprocessors, parse_params, resolved_type, typedefs,
)
from .raw import _SCALAR_TYPES, generated_kernels

_THREADS = 256  # a GPU task's block
UNROLL = 4  # reduced elements a thread reads at once
_MIN_RUN = {"cpu": 16384, "cuda": _THREADS * 16}  # elements a run is worth


def _normalize_axes(axis, ndim, name):
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in axes:
        try:
            a = operator.index(a)
        except TypeError:
            raise TypeError(f"{name}: axis must be an int or a tuple of ints, got {a!r}") from None
        if not -ndim <= a < ndim:
            raise ValueError(f"{name}: axis {a} is out of bounds for the inputs' {ndim} dimensions")
        a %= ndim
        if a in out:
            raise ValueError(f"{name}: axis {a} appears twice")
        out.append(a)
    return tuple(sorted(out))


def _element_loads(reads, n_arrays, suffix, index):
    """Reads the inputs at reduced element `index` into _v<suffix>_<name>."""
    lines = [f"    long long _r{suffix}[{max(n_arrays, 1)}];", f"    _inner.offsets({index}, _r{suffix});"]
    return lines + [f"    const {storage} _v{suffix}_{name} = *reinterpret_cast<const {storage}*>"
                    f"(_p_{name} + _o[{slot}] + _r{suffix}[{slot}]);" for name, _, storage, slot in reads]


def _element_map(reads, suffix, map_expr):
    """Maps the values _element_loads read to _b<suffix>."""
    binds = " ".join(f"const {ctype} {name} = ({ctype})(_v{suffix}_{name});" for name, ctype, _, _ in reads)
    return f"    _type_reduce _b{suffix}; {{ {binds} _b{suffix} = (_type_reduce)({map_expr}); }}"


class ReductionKernel:
    """``ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
    name='reduce_kernel', reduce_type=None, reduce_dims=True, preamble='', options=())``."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="", options=()):
        self.name = name
        self.in_params = parse_params(in_params, False, name)
        self.out_params = parse_params(out_params, True, name)
        self.params = self.in_params + self.out_params
        for p in self.params:
            if p.raw:
                raise ValueError(f"{name}: raw parameters are not supported in a ReductionKernel ('{p.name}')")
        if not self.out_params:
            raise ValueError(f"{name}: a ReductionKernel needs an output parameter")
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity = "" if identity is None else str(identity)
        self.reduce_type = reduce_type or self.out_params[0].type
        if not isinstance(self.reduce_type, str):
            self.reduce_type = C_TYPES[self.reduce_type.name]
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = tuple(options)
        self._kernels = {}

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        n_in = len(self.in_params)
        args, device = call_arguments(self.name, self.in_params, self.out_params, args, out)
        inputs = [a for a in args[:n_in] if isinstance(a, ndarray)]
        if not inputs:
            raise ValueError(f"{self.name}: a ReductionKernel needs at least one array input")
        try:
            shape = broadcast_shapes(*(a.shape for a in inputs))
        except ValueError:
            raise ValueError(f"{self.name}: inputs could not be broadcast together with shapes "
                             f"{' '.join(str(a.shape) for a in inputs)}") from None
        axes = _normalize_axes(axis, len(shape), self.name)
        kept = [d for d in range(len(shape)) if d not in axes]
        out_shape = tuple(1 if d in axes else shape[d] for d in range(len(shape))) if keepdims \
            else tuple(shape[d] for d in kept)
        types = bind_placeholders(self.params, args, self.name)
        for k, p in enumerate(self.out_params, n_in):
            dtype = resolved_type(p, types, self.name)
            if args[k] is None:
                args[k] = empty(out_shape, dtype=dtype, device=device)
            elif args[k].dtype != dtype:
                raise TypeError(f"{self.name}: output '{p.name}' is {args[k].dtype}; the kernel declares {dtype}")
            elif args[k].shape != out_shape:
                raise ValueError(f"{self.name}: output '{p.name}' has shape {args[k].shape}; expected {out_shape}")
        self._launch(args, types, shape, axes, kept, device, stream)
        outs = args[n_in:]
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _launch(self, args, types, shape, axes, kept, device, stream):
        n_in = len(self.in_params)
        out_count = math.prod(shape[d] for d in kept)
        red_size = math.prod(shape[d] for d in axes)
        if out_count == 0:
            return
        in_arrays = [k for k in range(n_in) if isinstance(args[k], ndarray)]
        in_strides = [broadcast_strides(args[k], shape) for k in in_arrays]
        out_strides = [list(args[k].strides) for k in range(n_in, len(args))]
        if len(args[n_in].shape) != len(kept):  # keepdims: drop the reduced axes' strides
            out_strides = [[s[d] for d in kept] for s in out_strides]
        kept_shape = [shape[d] for d in kept]
        outer = self._fold(kept_shape, [[s[d] for d in kept] for s in in_strides] + out_strides)
        inner = self._fold([shape[d] for d in axes], [[s[d] for d in axes] for s in in_strides])
        reduce_size = self._reduce_itemsize(types)
        runs = 1
        if reduce_size:
            target = (_core._cpu_threads() * 4 if device.type == "cpu" else multiprocessors(device) * 8)
            runs = max(1, min(-(-target // out_count), red_size // _MIN_RUN[device.type]))
        key = (device.type, tuple(sorted((k, d.name) for k, d in types.items())),
               tuple(a.dtype.name if isinstance(a, ndarray) else None for a in args), len(outer[0]), len(inner[0]))
        kernels = self._kernels.get(key)
        if kernels is None:
            source = self._source(args, types, len(outer[0]), len(inner[0]), len(in_arrays))
            kernels = self._kernels[key] = generated_kernels(
                source, [self.name + suffix for suffix in ("", "_runs", "_combine")], self.options)
        values = [a if isinstance(a, ndarray) else resolved_type(p, types, self.name).type(a)
                  for p, a in zip(self.params, args)]
        inputs, outputs = values[:n_in], values[n_in:]
        scalars = [v for v in inputs if not isinstance(v, ndarray)]
        outer_bytes = indexer_bytes(out_count, *outer)
        inner_bytes = indexer_bytes(red_size, *inner)
        threads = 1 if device.type == "cpu" else _THREADS
        tasks = out_count * runs
        grid = min(tasks, 1 << 20)
        if runs == 1:
            kernels[0](grid, threads, (*inputs, *outputs, outer_bytes, inner_bytes), stream=stream)
            return
        scratch = empty(tasks * reduce_size, dtype="uint8", device=device)
        kernels[1](grid, threads, (*inputs, outer_bytes, inner_bytes, scratch, runs), stream=stream)
        combine_threads = 1 if device.type == "cpu" else 128
        kernels[2](max(1, min(-(-out_count // combine_threads), 1 << 20)), combine_threads,
                   (*scalars, *outputs, outer_bytes, scratch, runs), stream=stream)

    def _fold(self, shape, strides):
        if self.reduce_dims:
            return fold(shape, strides)
        return list(shape) or [1], [list(s) or [0] for s in strides]

    def _reduce_itemsize(self, types):
        """sizeof the reduce type, or 0 where Python cannot tell (then no runs)."""
        if self.reduce_type in types:
            return types[self.reduce_type].itemsize
        import numpy as np

        code = _SCALAR_TYPES.get(self.reduce_type)
        return np.dtype(code).itemsize if code else 0

    def _source(self, args, types, outer_nd, inner_nd, n_arrays):
        n_in = len(self.in_params)
        n_out = len(self.out_params)
        in_params, scalar_params, reads, writes = [], [], [], []
        slot = 0
        for p, a in zip(self.in_params, args):
            ctype = C_TYPES[resolved_type(p, types, self.name).name]
            if isinstance(a, ndarray):
                in_params.append(f"const char* _p_{p.name}")
                reads.append((p.name, ctype, C_TYPES[a.dtype.name], slot))
                slot += 1
            else:
                in_params.append(f"{ctype} {p.name}")
                scalar_params.append(f"{ctype} {p.name}")
        out_params = [f"char* _p_{p.name}" for p in self.out_params]
        for j, p in enumerate(self.out_params):
            ctype = C_TYPES[resolved_type(p, types, self.name).name]
            writes.append(f"{ctype}& {p.name} = *reinterpret_cast<{ctype}*>(_p_{p.name} + _o[{n_arrays + j}]);")
        n_outer_ops = n_arrays + n_out
        outer = f"kiln_indexer<{outer_nd}, {n_outer_ops}> _outer"
        inner = f"kiln_indexer<{inner_nd}, {max(n_arrays, 1)}> _inner"
        post_map = f"{{ {' '.join(writes)} {self.post_map_expr}; }}"
        unrolled = "\n".join([line for k in range(UNROLL) for line in
                               _element_loads(reads, n_arrays, str(k), f"_j + {k} * (long long)blockDim.x")]
                              + [_element_map(reads, str(k), self.map_expr) for k in range(UNROLL)])
        combined = "_b0"
        for k in range(1, UNROLL):
            combined = f"_KILN_REDUCE({combined}, _b{k})"
        unrolled += f"\n    _acc = _KILN_REDUCE(_acc, {combined});"
        return f"""{SUPPORT_INCLUDE}
{typedefs(types)}{self.preamble}
typedef {self.reduce_type} _type_reduce;
#define _KILN_REDUCE(a, b) ({self.reduce_expr})

// The value of reduced elements [lo, hi) of output element o, combined over
// the block's threads (thread 0 holds the result).
KILN_GENERATED_HELPER _type_reduce _kiln_task({", ".join(in_params + [outer, inner])}, long long o,
                                             long long lo, long long hi) {{
  long long _o[{n_outer_ops}];
  _outer.offsets(o, _o);
  _type_reduce _acc = _type_reduce({self.identity});
  long long _j = lo + threadIdx.x;
  // UNROLL elements at a time, all read before any is mapped: their loads overlap.
  for (; _j + {UNROLL - 1} * (long long)blockDim.x < hi; _j += {UNROLL} * (long long)blockDim.x) {{
{unrolled}
  }}
  for (; _j < hi; _j += blockDim.x) {{
{chr(10).join(_element_loads(reads, n_arrays, "", "_j"))}
{_element_map(reads, "", self.map_expr)}
    _acc = _KILN_REDUCE(_acc, _b);
  }}
  return kiln_block_reduce<{_THREADS}>(_acc, [](_type_reduce a, _type_reduce b) {{ return _KILN_REDUCE(a, b); }});
}}

// One task per output element: the whole reduction, then post_map_expr.
KILN_GENERATED_KERNEL {self.name}({", ".join(in_params + out_params + [outer, inner])}) {{
  const long long _n = _inner.size();
  for (long long _t = blockIdx.x; _t < _outer.size(); _t += gridDim.x) {{
    _type_reduce a = _kiln_task({", ".join(p.name if not isinstance(x, ndarray) else "_p_" + p.name
                                         for p, x in zip(self.in_params, args))}, _outer, _inner, _t, 0, _n);
    if (threadIdx.x == 0) {{
      long long _o[{n_outer_ops}];
      _outer.offsets(_t, _o);
      {post_map}
    }}
  }}
}}

// `runs` tasks per output element, each a run of the reduced elements.
KILN_GENERATED_KERNEL {self.name}_runs({", ".join(in_params + [outer, inner])}, _type_reduce* _scratch,
                                     long long _runs) {{
  const long long _n = _inner.size(), _per = (_n + _runs - 1) / _runs;
  for (long long _t = blockIdx.x; _t < _outer.size() * _runs; _t += gridDim.x) {{
    const long long _lo = _t % _runs * _per, _hi = _lo + _per < _n ? _lo + _per : _n;
    _type_reduce _v = _kiln_task({", ".join(p.name if not isinstance(x, ndarray) else "_p_" + p.name
                                         for p, x in zip(self.in_params, args))}, _outer, _inner, _t / _runs, _lo, _hi);
    if (threadIdx.x == 0) _scratch[_t] = _v;
  }}
}}

// Combines each output element's runs, then post_map_expr.
KILN_GENERATED_KERNEL {self.name}_combine({", ".join(scalar_params + out_params + [outer])},
                                         const _type_reduce* _scratch, long long _runs) {{
  KILN_LOOP(_t, _outer.size()) {{
    _type_reduce a = _scratch[_t * _runs];
    for (long long _k = 1; _k < _runs; ++_k) {{
      const _type_reduce _b = _scratch[_t * _runs + _k];
      a = _KILN_REDUCE(a, _b);
    }}
    long long _o[{n_outer_ops}];
    _outer.offsets(_t, _o);
    {post_map}
  }}
}}
"""
