"""``math.*``: float functions, the float-to-int roundings and the IEEE tests
(NumPy's spellings, ``np.sqrt``, are ufuncs: numpy_ufuncs.py)."""
import math


from ..._numba_cuda import kernel_language as K
from .. import types as T
from ..cxx import cast, fn
from .base import Construct

_FLOAT = {"sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "asin", "acos", "atan",
          "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs", "erf", "erfc", "lgamma", "atan2", "pow",
          "hypot", "copysign", "fmod", "cbrt", "exp2", "nextafter", "remainder"}
_TWO_ARGUMENTS = {"atan2", "pow", "hypot", "copysign", "fmod", "nextafter", "remainder"}
_SCALED = {"degrees": 57.29577951308232, "radians": 0.017453292519943295}  # x times this
_RENAMED = {"gamma": "tgamma"}
_TO_INT = {"floor", "ceil", "trunc"}
_TESTS = {"isnan", "isinf", "isfinite"}


# math.* of a bfloat16 is a bfloat16, computed in float (numba.cuda.bf16's h* functions)
_BFLOAT16 = {"trunc": "htrunc", "ceil": "hceil", "floor": "hfloor", "sqrt": "hsqrt", "log": "hlog", "log2": "hlog2",
             "log10": "hlog10", "cos": "hcos", "sin": "hsin", "tanh": "htanh", "exp": "hexp", "exp2": "hexp2"}


def _is_bfloat16(t):
    return T.is_scalar(t) and t.name == "bfloat16"


class MathFunction(Construct):
    """The result is the float type of the arguments (float64 for integers;
    a bfloat16 for one bfloat16 where Numba has the function)."""

    def __init__(self, name):
        self.name = _RENAMED.get(name, name)

    def _result(self, arg_types):
        if self.name == "ldexp":  # of the mantissa's type; the exponent is an integer
            arg_types = arg_types[:1]
        if any(T.is_complex(t) for t in arg_types):  # NumPy's functions of complex numbers
            r = arg_types[0]
            for t in arg_types[1:]:
                r = T.promote(r, t)
            return r
        if not all(T.is_float(t) for t in arg_types):
            return T.FLOAT64
        r = arg_types[0]
        for t in arg_types[1:]:
            r = T.promote(r, t)
        return r

    def type(self, typer, node):
        arg_types = typer.args(node, 2 if self.name in _TWO_ARGUMENTS or self.name == "ldexp" else 1)
        if self.name in _BFLOAT16 and _is_bfloat16(arg_types[0]):
            return arg_types[0]
        if self.name in _TESTS:
            return T.BOOL
        if self.name == "modf":  # (fractional part, integral part)
            return T.TupleType([self._result(arg_types)] * 2)
        if self.name == "frexp":  # (mantissa, exponent)
            return T.TupleType([self._result(arg_types), T.INT32])
        return T.INT64 if self.name in _TO_INT else self._result(arg_types)

    def emit(self, emitter, node):
        args = emitter.args(node)
        if self.name in _BFLOAT16 and _is_bfloat16(args[0][1]):
            return f"kiln_bf16_{_BFLOAT16[self.name]}({args[0][0]})"
        if self.name in _TESTS:
            (code, ty), = args
            if not (T.is_float(ty) or T.is_complex(ty)):
                return "false" if self.name != "isfinite" else "true"
            return f"kiln_{self.name}({code})"
        r = self._result([t for _, t in args])
        call = ", ".join(cast(r, c) for c, _ in args)
        if self.name in _SCALED:
            return f"({call} * {cast(r, repr(_SCALED[self.name]))})"
        if self.name in ("modf", "frexp"):
            return f"kiln_{self.name}({call})"
        if self.name == "ldexp":
            (x, _), (e, _) = args
            return f"ldexp({cast(r, x)}, (int)({e}))"
        if self.name in _TO_INT:
            return f"(long long){fn(self.name, r)}({call})"
        return f"{fn(self.name, r)}({call})"


def constructs():
    table = {}
    for name in _FLOAT | _TO_INT | _TESTS | set(_SCALED) | {"gamma", "modf", "frexp", "ldexp"}:
        if hasattr(math, name):
            table[getattr(math, name)] = MathFunction(name)
    table[K.cbrt] = MathFunction("cbrt")
    return table
