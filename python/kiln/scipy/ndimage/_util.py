"""What kiln.scipy.ndimage's functions share: SciPy's rules for the output
argument (an array to fill, a dtype, or None for the input's) and for the
fill value ``cval``."""
import math


def _np():
    import numpy

    return numpy


def _is_array(output):
    """Whether `output` is an array to write into (not a dtype or a scalar type)."""
    from ..._core import ndarray

    return isinstance(output, ndarray)


def _output_dtype(input, output, complex_weights=False, shape=None):
    """The result's dtype: the output array's, the dtype given, or the
    input's; complex input or weights need a complex one (SciPy refuses a
    real output array and promotes a real dtype with a warning). An output
    array must have `shape` (default: the input's)."""
    np = _np()
    complex_output = complex_weights or input.dtype.kind == "c"
    if output is None:
        dtype = np.dtype(str(input.dtype))
        return np.promote_types(dtype, np.complex64) if complex_output else dtype
    if _is_array(output):
        if tuple(output.shape) != tuple(input.shape if shape is None else shape):
            raise RuntimeError("output shape not correct")
        dtype = np.dtype(str(output.dtype))
        if complex_output and dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        return dtype
    dtype = np.dtype(output)
    if complex_output and dtype.kind != "c":
        import warnings

        warnings.warn("promoting specified output dtype to complex", UserWarning, stacklevel=4)
        dtype = np.promote_types(dtype, np.complex64)
    return dtype


def _finish(result, input, output):
    """The result in the caller's output array, or as a new array."""
    if _is_array(output):
        output[...] = result
        return output
    return result


def _is_integer_output(output, input):
    """Whether the result (of `output`'s dtype, or the input's) holds integers."""
    if output is None:
        return input.dtype.kind in "iu"
    if _is_array(output):
        return output.dtype.kind in "iu"
    return _np().dtype(output).kind in "iu"


def _check_cval(mode, cval, integer_output):
    """A non-finite fill value has no integer to become: refused (as CuPy
    refuses it) where the constant modes would write it into integers."""
    if mode in ("constant", "grid-constant") and integer_output and not math.isfinite(complex(cval).real):
        raise NotImplementedError("cval: a non-finite fill value is not supported for an output of integer dtype")
