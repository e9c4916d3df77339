"""PyCUDA's ``pycuda.reduction.ReductionKernel``: ``map_expr`` on element ``i``
of the arguments, combined by ``reduce_expr`` of ``a`` and ``b`` from
``neutral``, into a 0-d GPUArray of ``dtype_out``::

    dot = ReductionKernel(np.float32, neutral="0", reduce_expr="a+b",
                          map_expr="x[i]*y[i]", arguments="float *x, float *y")
    dot(x_gpu, y_gpu).get()

Two passes: each block folds a share of the elements and the block's
threads combine theirs (kiln_block_reduce), then one block folds the
blocks' values.
"""
import numpy as np

from .._core import _cpu_threads
from .._cupy_kernels.params import SUPPORT_INCLUDE
from .._cupy_kernels.raw import generated_kernels
from .elementwise import kernel_arguments
from .gpuarray import empty
from .tools import dtype_to_ctype, parse_arguments

_THREADS = 256  # a block's threads on the GPU (one on the CPU)


class ReductionKernel:
    def __init__(self, dtype_out, neutral, reduce_expr, map_expr=None, arguments=None, name="reduce_kernel",
                 keep=False, options=None, preamble="", allocator=None):
        self.dtype_out = np.dtype(dtype_out)
        out_type = dtype_to_ctype(self.dtype_out)
        if arguments is None:
            arguments = f"const {out_type} *in"
        map_expr = map_expr or "in[i]"
        self.arguments = parse_arguments(arguments)
        self.name = name
        declared = arguments if isinstance(arguments, str) else ", ".join(a.declarator() for a in arguments)
        source = f"""{SUPPORT_INCLUDE}
{preamble}
typedef {out_type} _out_type;
#define _KILN_REDUCE(a, b) ({reduce_expr})

KILN_GENERATED_HELPER _out_type _kiln_combine(_out_type a, _out_type b) {{ return _KILN_REDUCE(a, b); }}

// Each block's value of the elements its threads visit.
KILN_GENERATED_KERNEL {name}_blocks({declared}, _out_type* _partial, long long n) {{
  _out_type _acc = {neutral};
  KILN_LOOP(i, n) {{ _acc = _kiln_combine(_acc, (_out_type)({map_expr})); }}
  _acc = kiln_block_reduce<{_THREADS}>(_acc, _kiln_combine);
  if (threadIdx.x == 0) _partial[blockIdx.x] = _acc;
}}

// The blocks' values combined by one block.
KILN_GENERATED_KERNEL {name}_total(const _out_type* _partial, _out_type* _out, long long n) {{
  _out_type _acc = {neutral};
  for (long long i = threadIdx.x; i < n; i += blockDim.x) _acc = _kiln_combine(_acc, _partial[i]);
  _acc = kiln_block_reduce<{_THREADS}>(_acc, _kiln_combine);
  if (threadIdx.x == 0) _out[0] = _acc;
}}
"""
        self._blocks, self._total = generated_kernels(source, [name + "_blocks", name + "_total"],
                                                      tuple(options or ()))

    def __call__(self, *args, stream=None, out=None, range=None, slice=None):  # noqa: A002
        if range is not None or slice is not None:
            raise NotImplementedError(f"{self.name}: range= and slice= are not supported; reduce a view instead")
        values, vectors = kernel_arguments(self.name, self.arguments, args)
        size, device = vectors[0].size, vectors[0].device
        on_cpu = device.type == "cpu"
        threads = 1 if on_cpu else _THREADS
        blocks = max(1, min(-(-size // threads), 4 * _cpu_threads() if on_cpu else 1024))
        partial = empty(blocks, self.dtype_out)
        self._blocks(blocks, threads, (*values, partial._array, np.int64(size)), stream=stream)
        result = out if out is not None else empty((), self.dtype_out)
        self._total(1, threads, (partial._array, result._array, np.int64(blocks)), stream=stream)
        return result
