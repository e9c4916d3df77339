"""Numba's ``cuda.fp16`` functions: arithmetic, comparisons and math on
float16 values. Add, subtract, multiply, fma, negation, abs and comparisons
are one f16 instruction each on the GPU (jit_half.cuh); the rest, and all of
them on the CPU, are computed in float and rounded back to float16
(binary16) once, as the GPU's half-precision instructions round."""
import ast

from ..._numba_cuda import kernel_language as K
from .. import types as T
from ..cxx import cast
from .base import Construct

_ARITHMETIC = {"hadd": "+", "hsub": "-", "hmul": "*", "hdiv": "/"}
_COMPARISONS = {"heq": "==", "hne": "!=", "hge": ">=", "hgt": ">", "hle": "<=", "hlt": "<"}
# one argument: the float expression of {x}
_UNARY = {"hneg": "-{x}", "habs": "fabsf({x})", "hsin": "sinf({x})", "hcos": "cosf({x})", "hlog": "logf({x})",
          "hlog10": "log10f({x})", "hlog2": "log2f({x})", "hexp": "expf({x})", "hexp10": "exp10f({x})",
          "hexp2": "exp2f({x})", "hsqrt": "sqrtf({x})", "hrsqrt": "(1.0f / sqrtf({x}))", "hceil": "ceilf({x})",
          "hfloor": "floorf({x})", "hrcp": "(1.0f / {x})", "hrint": "rintf({x})", "htrunc": "truncf({x})"}
_BINARY = {"hmax": "fmaxf", "hmin": "fminf"}
_NATIVE = {"hadd": "kiln_half_add", "hsub": "kiln_half_sub", "hmul": "kiln_half_mul", "hfma": "kiln_half_fma",
           "hneg": "kiln_half_neg", "habs": "kiln_half_abs", "heq": "kiln_half_eq", "hne": "kiln_half_ne",
           "hge": "kiln_half_ge", "hgt": "kiln_half_gt", "hle": "kiln_half_le", "hlt": "kiln_half_lt"}


class HalfFunction(Construct):
    def __init__(self, name):
        self.name = name
        self.arity = 3 if name == "hfma" else 1 if name in _UNARY else 2

    def type(self, typer, node):
        for t, arg in zip(typer.args(node, self.arity), node.args):
            literal = isinstance(arg, ast.Constant) and type(arg.value) in (int, float)
            if t.kind != "f" and not literal:  # a literal 2 or 2.5 becomes a float16, as in Numba
                typer.typing(node, f"cuda.fp16.{self.name} takes float16 values, not {t}")
        return T.BOOL if self.name in _COMPARISONS else T.FLOAT16

    def emit(self, emitter, node):
        if self.name in _NATIVE:  # one f16 instruction on the GPU (jit_half.cuh)
            return f"{_NATIVE[self.name]}(" + ", ".join(cast(T.FLOAT16, code) for code, _ in emitter.args(node)) + ")"
        # Each argument as the float16 it is (or a literal becomes), computed in float.
        a, b, c = ([cast(T.FLOAT32, cast(T.FLOAT16, code)) for code, _ in emitter.args(node)] + [None, None])[:3]
        if self.name in _COMPARISONS:
            return f"(({a}) {_COMPARISONS[self.name]} ({b}))"
        if self.name in _ARITHMETIC:
            value = f"({a}) {_ARITHMETIC[self.name]} ({b})"
        elif self.name == "hfma":
            value = f"fmaf({a}, {b}, {c})"
        elif self.name in _BINARY:
            value = f"{_BINARY[self.name]}({a}, {b})"
        else:
            value = _UNARY[self.name].format(x=f"({a})")
        return f"float16({value})"


def constructs():
    return {getattr(K.fp16, name): HalfFunction(name) for name in
            [*_ARITHMETIC, *_COMPARISONS, *_UNARY, *_BINARY, "hfma"]}
