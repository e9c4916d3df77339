"""``cmath``'s functions: of complex numbers (reals are taken as complex
ones), computed by the complex math of include/kiln/device/std_complex.cuh
on both devices, with CPython's special values where they differ from
NumPy's, and log by CPython's algorithm (include/kiln/device/cpython_cmath.cuh)."""
import cmath

import numpy as np

from .. import types as T
from ..cxx import cast
from .base import Construct

_COMPLEX_VALUED = {"sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
                   "tanh", "asinh", "acosh", "atanh"}
_TESTS = {"isnan", "isinf", "isfinite"}
_CPYTHON_VALUES = {"sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "acosh", "atan", "log"}
_CPYTHON_HEADER = "kiln/device/cpython_cmath.cuh"


class ComplexFunction(Construct):
    def __init__(self, name):
        self.name = name

    def type(self, typer, node):
        count = 2 if self.name == "rect" else None
        types = typer.args(node, count)
        if self.name == "log" and len(types) == 2:
            return T.as_complex(T.promote(types[0], types[1]))
        if len(types) != (2 if self.name == "rect" else 1):
            typer.typing(node, f"cmath.{self.name} takes {2 if self.name == 'rect' else 1} arguments")
        if self.name in _TESTS:
            return T.BOOL
        if self.name == "phase":
            return T.real_part(T.as_complex(types[0]))
        if self.name == "polar":
            part = T.real_part(T.as_complex(types[0]))
            return T.TupleType([part, part])
        if self.name == "rect":
            return T.as_complex(T.promote(types[0], types[1]))
        return T.as_complex(types[0])

    def emit(self, emitter, node):
        args = emitter.args(node)
        r = emitter.type_of(node)
        if self.name in _TESTS:
            (code, _), = args
            return f"kiln_{self.name}({code})"
        if self.name == "rect":
            (radius, _), (angle, _) = args
            part = T.c_name(T.real_part(r))
            emitter.module.includes.add(_CPYTHON_HEADER)
            return f"kiln_cmath_rect(({part})({radius}), ({part})({angle}))"
        z = cast(T.as_complex(args[0][1]) if self.name in ("phase", "polar") else r, args[0][0])
        if self.name == "phase":
            return f"arg({z})"
        if self.name == "polar":
            return f"kiln_make_tuple(abs({z}), arg({z}))"
        if self.name == "log" and len(args) == 2:
            emitter.module.includes.add(_CPYTHON_HEADER)
            # in double precision, rounded once (as the one-argument form below)
            x, base = (cast(T.COMPLEX128, a) for a, _ in args)
            return cast(r, f"kiln_cmath_quot(kiln_cmath_log({x}), kiln_cmath_log({base}))")
        if r == np.dtype(np.complex64):
            # CPython computes in double precision: complex64 values are computed so
            # too and rounded once, which keeps them within an ulp of its results.
            z = cast(T.COMPLEX128, z)
        if self.name in _CPYTHON_VALUES:
            emitter.module.includes.add(_CPYTHON_HEADER)
            return cast(r, f"kiln_cmath_{self.name}({z})")
        return cast(r, f"{self.name}({z})")


def constructs():
    names = _COMPLEX_VALUED | _TESTS | {"phase", "polar", "rect"}
    return {getattr(cmath, name): ComplexFunction(name) for name in names}
