"""How values and functions are spelled in the C++ the jit emits."""
import math

import numpy as np

from . import types as T


def fn(name, ty):
    """The C function for `name` on float type `ty` (sqrtf for float32)."""
    return name + "f" if ty == np.dtype("float32") else name


def float_literal(v):
    if math.isnan(v):
        return "kiln_double_bits(0x7ff8000000000000ULL)"
    if math.isinf(v):
        return "kiln_double_bits(0x7ff0000000000000ULL)" if v > 0 else "(-kiln_double_bits(0x7ff0000000000000ULL))"
    return repr(float(v))


def literal(value, ty):
    if ty.kind == "c":
        value = complex(value)
        return f"{T.c_name(ty)}({float_literal(value.real)}, {float_literal(value.imag)})"
    if ty.kind == "b":
        return "true" if value else "false"
    if ty.kind == "f":
        lit = float_literal(float(value))
        return lit if ty == T.FLOAT64 else f"((float){lit})"
    return f"(({T.c_name(ty)}){int(value)}LL)" if ty.kind == "i" else f"(({T.c_name(ty)}){int(value)}ULL)"


def cast(ty, code):
    return f"({T.c_name(ty)})({code})"
