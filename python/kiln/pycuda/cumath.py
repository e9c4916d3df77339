"""PyCUDA's ``pycuda.cumath``: elementwise math on GPUArrays, each
``f(array, stream=None, out=None)``; kiln's ufuncs do the work."""
from .._cupy_kernels.elementwise import ElementwiseKernel as _CupyStyleKernel
from .gpuarray import GPUArray, _kiln, _result, _wrap

_NUMPY_NAMES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "fabs": "absolute"}


def _unary(name):
    def function(array, stream=None, out=None, **kwargs):
        if not isinstance(array, GPUArray):
            raise TypeError(f"{name}: expected a GPUArray, got {type(array).__name__}")
        return _result(getattr(_kiln(), _NUMPY_NAMES.get(name, name))(array._array), out)

    function.__name__ = name
    function.__doc__ = f"Elementwise {name} of a GPUArray."
    return function


fabs, ceil, floor = _unary("fabs"), _unary("ceil"), _unary("floor")
exp, log, log10, sqrt = _unary("exp"), _unary("log"), _unary("log10"), _unary("sqrt")
sin, cos, tan = _unary("sin"), _unary("cos"), _unary("tan")
asin, acos, atan = _unary("asin"), _unary("acos"), _unary("atan")
sinh, cosh, tanh = _unary("sinh"), _unary("cosh"), _unary("tanh")


def fmod(arg, mod, stream=None, out=None):
    """C's fmod: the remainder with the sign of `arg`."""
    return _result(_kiln().fmod(arg._array, mod._array), out)


# frexp, ldexp and modf through the C library's functions (the device's math
# library on a GPU, libm on the CPU), as PyCUDA computes them; the float
# versions by their C names, which both libraries have.
_C_LIBRARY = """
KILN_GENERATED_HELPER float kiln_frexp(float x, int* e) { return frexpf(x, e); }
KILN_GENERATED_HELPER double kiln_frexp(double x, int* e) { return frexp(x, e); }
KILN_GENERATED_HELPER float kiln_ldexp(float x, int e) { return ldexpf(x, e); }
KILN_GENERATED_HELPER double kiln_ldexp(double x, int e) { return ldexp(x, e); }
KILN_GENERATED_HELPER float kiln_modf(float x, float* i) { return modff(x, i); }
KILN_GENERATED_HELPER double kiln_modf(double x, double* i) { return modf(x, i); }
"""
_frexp = _CupyStyleKernel("T x", "T significand, T exponent",
                          "int e; significand = kiln_frexp(x, &e); exponent = e", "kiln_cumath_frexp",
                          preamble=_C_LIBRARY)
_ldexp = _CupyStyleKernel("T significand, T exponent", "T x", "x = kiln_ldexp(significand, (int)exponent)",
                          "kiln_cumath_ldexp", preamble=_C_LIBRARY)
_modf = _CupyStyleKernel("T x", "T fraction, T integral", "fraction = kiln_modf(x, &integral)",
                         "kiln_cumath_modf", preamble=_C_LIBRARY)


def frexp(arg, stream=None):
    """(significands, exponents): ``arg = significand * 2**exponent``, ``|significand|`` in [0.5, 1);
    the exponents in arg's dtype, as PyCUDA gives them."""
    significand, exponent = _frexp(arg._array)
    return _wrap(significand), _wrap(exponent)


def ldexp(significand, exponent, stream=None):
    return _wrap(_ldexp(significand._array, exponent._array))


def modf(arg, stream=None):
    """(fractional parts, integral parts), both with arg's sign."""
    fraction, integral = _modf(arg._array)
    return _wrap(fraction), _wrap(integral)


__all__ = ["fabs", "ceil", "floor", "exp", "log", "log10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan",
           "sinh", "cosh", "tanh", "fmod", "frexp", "ldexp", "modf"]
