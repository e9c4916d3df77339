"""PyCUDA's ``pycuda.scan``: ``InclusiveScanKernel(dtype, scan_expr)`` and
``ExclusiveScanKernel(dtype, scan_expr, neutral)``, prefix scans with any
associative ``scan_expr`` of ``a`` and ``b``::

    knl = InclusiveScanKernel(np.int32, "a+b")
    knl(a_gpu)            # in place; knl(a_gpu, out_gpu) writes out_gpu

Three passes, each a kernel: every thread scans a run of elements on its
own, one thread scans the runs' totals, every thread folds its run's
offset into its elements.
"""
import numpy as np

from .._core import _cpu_threads
from .._cupy_kernels.params import SUPPORT_INCLUDE
from .._cupy_kernels.raw import generated_kernels
from .gpuarray import GPUArray, empty
from .tools import dtype_to_ctype

_THREADS = 256


class _ScanKernel:
    exclusive = False

    def __init__(self, dtype, scan_expr, neutral=None, name_prefix="scan", options=None, preamble="",
                 devices=None):
        self.dtype = np.dtype(dtype)
        if self.exclusive and neutral is None:
            raise ValueError("ExclusiveScanKernel needs neutral, the value before the first element")
        start = "true" if neutral is None else "false"  # whether a run's first value starts its fold
        name = f"{name_prefix}_{'exclusive' if self.exclusive else 'inclusive'}"
        first = """    if (_first) { _acc = _x; _first = false; } else { _acc = _KILN_SCAN(_acc, _x); }
    _out[j] = _acc;""" if not self.exclusive else """    _out[j] = _acc;
    _acc = _KILN_SCAN(_acc, _x);"""
        source = f"""{SUPPORT_INCLUDE}
{preamble}
typedef {dtype_to_ctype(self.dtype)} _type;
#define _KILN_SCAN(a, b) ({scan_expr})

// Run r (elements [r*per, (r+1)*per)) scanned on its own; its fold into totals[r].
KILN_GENERATED_KERNEL {name}_runs(const _type* _in, _type* _out, _type* _totals, long long n, long long per,
                                  long long runs) {{
  const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= runs) return;
  const long long lo = r * per, hi = lo + per < n ? lo + per : n;
  bool _first = {start};
  _type _acc{'' if neutral is None else f' = {neutral}'};
  for (long long j = lo; j < hi; ++j) {{
    const _type _x = _in[j];
{first}
  }}
  _totals[r] = _acc;
}}

// The runs' totals scanned exclusively, by one thread.
KILN_GENERATED_KERNEL {name}_totals(_type* _totals, long long runs) {{
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  _type _acc = _totals[0];
  for (long long r = 1; r < runs; ++r) {{
    const _type _x = _totals[r];
    _totals[r] = _acc;
    _acc = _KILN_SCAN(_acc, _x);
  }}
}}

// Run r's elements after the runs before it (run 0 has nothing before it).
KILN_GENERATED_KERNEL {name}_offsets(_type* _out, const _type* _totals, long long n, long long per,
                                     long long runs) {{
  const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (r >= runs) return;
  const _type _before = _totals[r];
  const long long lo = r * per, hi = lo + per < n ? lo + per : n;
  for (long long j = lo; j < hi; ++j) _out[j] = _KILN_SCAN(_before, _out[j]);
}}
"""
        self._runs, self._totals, self._offsets = generated_kernels(
            source, [name + "_runs", name + "_totals", name + "_offsets"], tuple(options or ()))

    def __call__(self, input_ary, output_ary=None, allocator=None, queue=None, stream=None):
        if not isinstance(input_ary, GPUArray):
            raise TypeError(f"input_ary: expected a GPUArray, got {type(input_ary).__name__}")
        if input_ary.dtype != self.dtype:
            raise TypeError(f"input_ary: the kernel scans {self.dtype}, not {input_ary.dtype}")
        output_ary = input_ary if output_ary is None else output_ary
        if not (input_ary.flags.c_contiguous and output_ary.flags.c_contiguous):
            raise ValueError("scans need contiguous arrays")
        if output_ary.shape != input_ary.shape or output_ary.dtype != self.dtype:
            raise ValueError("output_ary: expected the input's shape and dtype")
        n = input_ary.size
        if n == 0:
            return output_ary
        on_cpu = input_ary.device.type == "cpu"
        runs = max(1, min(n, 4 * _cpu_threads() if on_cpu else 16384))
        per = -(-n // runs)
        runs = -(-n // per)
        threads = 1 if on_cpu else _THREADS
        grid = -(-runs // threads)
        totals = empty(runs, self.dtype)
        src, dst = input_ary._array.reshape(-1), output_ary._array.reshape(-1)
        self._runs(grid, threads, (src, dst, totals._array, np.int64(n), np.int64(per), np.int64(runs)),
                   stream=stream)
        if runs > 1:
            self._totals(1, 1, (totals._array, np.int64(runs)), stream=stream)
            self._offsets(grid, threads, (dst, totals._array, np.int64(n), np.int64(per), np.int64(runs)),
                          stream=stream)
        return output_ary


class InclusiveScanKernel(_ScanKernel):
    exclusive = False


class ExclusiveScanKernel(_ScanKernel):
    exclusive = True
