"""PyCUDA's ``pycuda.elementwise.ElementwiseKernel``: a C argument list and an
operation on element ``i``, run over the arrays' elements on the current
device (the GPU through NVRTC, the CPU through the host compiler)::

    lin_comb = ElementwiseKernel("float a, float *x, float b, float *y, float *z",
                                 "z[i] = a*x[i] + b*y[i]", "linear_combination")
    lin_comb(5, x_gpu, 6, y_gpu, z_gpu)

The kernel is assembled from the user's text around the loop of
include/kiln/device/kernel_params.cuh; ``n`` (the element count) is visible
to the operation, as in PyCUDA.
"""
import builtins

import numpy as np

from .._cupy_kernels.params import SUPPORT_INCLUDE, launch_shape
from .._cupy_kernels.raw import generated_kernels
from .gpuarray import GPUArray
from .tools import VectorArg, parse_arguments


def _declaration(arguments):
    return ", ".join(a.declarator() for a in arguments) if not isinstance(arguments, str) else arguments


def kernel_arguments(name, declared, args):
    """The launch values of a generated kernel's call (GPUArrays as their kiln
    arrays, scalars as their declared types) and the GPUArrays among them."""
    if len(args) != len(declared):
        raise TypeError(f"{name} takes {len(declared)} arguments, got {len(args)}")
    values, vectors = [], []
    for parameter, value in zip(declared, args):
        if isinstance(parameter, VectorArg):
            if isinstance(value, GPUArray):
                vectors.append(value)
                value = value._array
            values.append(value)
        else:
            values.append(parameter.dtype.type(value))
    if not vectors:
        raise ValueError(f"{name}: at least one array argument is needed to know the size")
    return values, vectors


class ElementwiseKernel:
    def __init__(self, arguments, operation, name="kernel", keep=False, options=None, preamble="", loop_prep="",
                 after_loop=""):
        self.arguments = parse_arguments(arguments)
        self.name = name
        declared = _declaration(arguments)
        source = f"""{SUPPORT_INCLUDE}
{preamble}
KILN_GENERATED_KERNEL {name}({declared}, long long n) {{
  {loop_prep};
  KILN_LOOP(i, n) {{ {operation}; }}
  {after_loop};
}}
KILN_GENERATED_KERNEL {name}_range({declared}, long long start, long long stop, long long step) {{
  const long long n = step > 0 ? (stop - start + step - 1) / step : (start - stop - step - 1) / -step;
  {loop_prep};
  KILN_LOOP(_k, n) {{ const long long i = start + _k * step; {operation}; }}
  {after_loop};
}}
"""
        self._kernels = generated_kernels(source, [name, name + "_range"], tuple(options or ()))

    def __call__(self, *args, range=None, slice=None, stream=None):  # noqa: A002  (PyCUDA's names)
        values, vectors = kernel_arguments(self.name, self.arguments, args)
        size, device = vectors[0].size, vectors[0].device
        if range is not None or slice is not None:
            span = range if range is not None else slice
            start, stop, step = span.indices(size) if slice is not None else (
                span.start or 0, span.stop, span.step or 1)
            count = len(builtins.range(start, stop, step))
            grid, block = launch_shape(device, count)
            self._kernels[1](grid, block, (*values, np.int64(start), np.int64(stop), np.int64(step)), stream=stream)
        else:
            grid, block = launch_shape(device, size)
            self._kernels[0](grid, block, (*values, np.int64(size)), stream=stream)
