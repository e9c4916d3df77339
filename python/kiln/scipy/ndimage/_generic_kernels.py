"""The user kernels ndimage's generic filters take, as CuPy's do: a
RawKernel ``f(const double* window, int size, double* result)`` (or, for
generic_filter1d, ``f(const double* line, ptrdiff_t length, double* out,
ptrdiff_t out_length)``) made a device function, or, for generic_filter, a
ReductionKernel of one input and one output whose expressions run over
each window. Either is called from the kernels of
include/kiln/device/generic_filter.cuh, once a window (or line)."""
from ..._cupy_kernels.params import C_TYPES, SUPPORT_INCLUDE, typedefs
from ..._ndarray.dtypes import float64

# The kernels around users' kernels, by what makes their source.
_WRAPPED = {}


def callable_kind(function, reduction_allowed):
    """'raw', 'reduction' or 'python' (a function run on the host)."""
    from ..._cupy_kernels.elementwise import ElementwiseKernel
    from ..._cupy_kernels.raw import RawKernel
    from ..._cupy_kernels.reduction import ReductionKernel

    if isinstance(function, RawKernel):
        return "raw"
    if isinstance(function, ReductionKernel) and reduction_allowed:
        if len(function.in_params) != 1 or len(function.out_params) != 1:
            raise TypeError("function: a ReductionKernel for generic_filter must have 1 input and 1 output")
        return "reduction"
    if isinstance(function, (ElementwiseKernel, ReductionKernel)):
        kinds = "a RawKernel or a ReductionKernel" if reduction_allowed else "a RawKernel"
        raise TypeError(f"function: takes a Python function or {kinds}; {type(function).__name__} is not one")
    if not callable(function):
        raise TypeError(f"function: expected a callable or a kernel, got {type(function).__name__}")
    return "python"


def _reduction_source(kernel):
    """`kernel`'s expressions as the window function: each window value
    bound to the input's name (in its declared type; a placeholder is
    double, the window's type), mapped, reduced from the identity, and the
    result post-mapped into the output's name. As in CuPy's generic_filter,
    ``_raw_<input>`` is the whole window and ``_in_ind.size()`` its size."""
    (x,), (y,) = kernel.in_params, kernel.out_params
    types = {p.type: float64 for p in (x, y) if p.is_placeholder}
    x_type, y_type = (p.type if p.is_placeholder else C_TYPES[p.type.name] for p in (x, y))
    return f"""{SUPPORT_INCLUDE}{typedefs(types)}{kernel.preamble}
typedef {kernel.reduce_type} _type_reduce;
#define _KILN_REDUCE(a, b) ({kernel.reduce_expr})
struct _kiln_window_index {{
  long long _n;
  KILN_GENERATED_HELPER long long size() const {{ return _n; }}
}};
KILN_GENERATED_HELPER void _kiln_window_reduction(const double* _raw_{x.name}, int _size, double* _result) {{
  const _kiln_window_index _in_ind{{_size}};
  _type_reduce _s = _type_reduce({kernel.identity});
  for (int _j = 0; _j < _size; ++_j) {{
    const {x_type} {x.name} = ({x_type})_raw_{x.name}[_j];
    _s = _KILN_REDUCE(_s, (_type_reduce)({kernel.map_expr}));
  }}
  {y_type} {y.name} = {y_type}();
  {{ const _type_reduce a = _s; {kernel.post_map_expr}; }}
  *_result = (double){y.name};
}}
#define KILN_GENERIC_FILTER_WINDOW_FUNCTION _kiln_window_reduction
#include <kiln/device/generic_filter.cuh>
"""


def wrapped_kernel(kernel, call):
    """The kernel over many windows (call 'window') or lines ('line') that
    calls `kernel`'s function on each."""
    from ..._cupy_kernels.raw import RawKernel, as_device_functions, generated_kernels

    if isinstance(kernel, RawKernel):
        key = (kernel.code, kernel.name, kernel.options, call)
    else:
        key = (kernel.in_params[0].type, kernel.out_params[0].type, kernel.in_params[0].name,
               kernel.out_params[0].name, kernel.map_expr, kernel.reduce_expr, kernel.post_map_expr,
               kernel.identity, kernel.reduce_type, kernel.preamble, kernel.options)
    if key not in _WRAPPED:
        macro = "KILN_GENERIC_FILTER_WINDOW_FUNCTION" if call == "window" else "KILN_GENERIC_FILTER_LINE_FUNCTION"
        source = (_reduction_source(kernel) if not isinstance(kernel, RawKernel) else
                  f"{as_device_functions(kernel.code)}\n#define {macro} {kernel.name}\n"
                  "#include <kiln/device/generic_filter.cuh>\n")
        name = "kiln_generic_filter_windows" if call == "window" else "kiln_generic_filter_lines"
        _WRAPPED[key], = generated_kernels(source, [name], kernel.options)
    return _WRAPPED[key]
