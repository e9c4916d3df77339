"""NumPy's ufuncs inside kernels, as Numba's CUDA target has them:
``np.sin(x)`` of numbers is a number; ``np.add(a, b, out)`` with an output
array fills it element by element, broadcasting numbers and arrays (a kernel
cannot make arrays, so array inputs need the output). Types follow NumPy's
loop selection (``ufunc.resolve_dtypes``); the values are kiln's one
definition of each op (include/kiln/device/ops.cuh, through jit_ufuncs.cuh)."""
import ast

import numpy as np

from .. import types as T
from ..cxx import cast
from .base import Construct

HEADER = "kiln/device/jit_ufuncs.cuh"

# NumPy's name -> ops.cuh's op_<name> where they differ.
_OP_NAMES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
             "arctanh": "atanh", "arctan2": "atan2", "absolute": "abs", "fabs": "abs", "invert": "bitwise_invert",
             "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift", "conjugate": "conj",
             "degrees": "rad2deg", "radians": "deg2rad"}
# Ops ops.cuh defines (the op_<name> structs).
_OPS = {"abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and", "bitwise_invert",
        "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor", "cbrt", "ceil", "conj", "copysign",
        "cos", "cosh", "deg2rad", "divide", "equal", "exp", "exp2", "expm1", "floor", "floor_divide", "fmax", "fmin",
        "fmod", "gcd", "greater", "greater_equal", "hypot", "isfinite", "isinf", "isnan", "lcm", "ldexp", "less", "less_equal", "log",
        "log10", "log1p", "log2", "logaddexp", "logical_and", "logical_not", "logical_or", "logical_xor", "maximum",
        "minimum", "multiply", "negative", "nextafter", "not_equal", "positive", "power", "rad2deg", "reciprocal",
        "remainder", "rint", "sign", "signbit", "sin", "sinh", "sqrt", "square", "subtract", "tan", "tanh", "trunc"}
_ORDER = {"less": "<", "less_equal": "<=", "greater": ">", "greater_equal": ">=", "equal": "==", "not_equal": "!="}


def _computed_as(dtype):
    """The C type a loop of `dtype` computes in: float16 goes through float."""
    return np.dtype("float32") if dtype == np.dtype("float16") else dtype


class UFunc(Construct):
    def __init__(self, ufunc):
        self.ufunc = ufunc
        self.op = _OP_NAMES.get(ufunc.__name__, ufunc.__name__)

    def _loop(self, typer, node, in_types):
        """The dtypes NumPy's loop for these inputs takes and gives."""
        try:
            return self.ufunc.resolve_dtypes(tuple(in_types) + (None,) * self.ufunc.nout)
        except (TypeError, np.exceptions.DTypePromotionError) as e:
            typer.typing(node, f"np.{self.ufunc.__name__} of {', '.join(map(str, in_types))}: {e}")

    def type(self, typer, node):
        name, nin = self.ufunc.__name__, self.ufunc.nin
        if self.ufunc.nout != 1 or self.op not in _OPS:
            typer.unsupported(node, f"np.{name} in a kernel")
        if len(node.args) not in (nin, nin + 1):
            typer.typing(node, f"np.{name} takes {nin} inputs and an optional output array, got {len(node.args)}")
        types = [typer.expr(a) for a in node.args]
        for t in types:
            if not (T.is_scalar(t) or isinstance(t, T.ArrayType)):
                typer.typing(node, f"np.{name} of a {t}")
        in_types = [t.dtype if isinstance(t, T.ArrayType) else t for t in types[:nin]]
        result = self._loop(typer, node, in_types)[-1]
        if len(types) == nin:
            if any(isinstance(t, T.ArrayType) for t in types):  # a new array (an @njit function's)
                return typer.array_expression(node, self.ufunc, node.args, types)
            return result
        out = types[-1]
        if not isinstance(out, T.ArrayType):
            typer.typing(node, f"np.{name}'s output must be an array, not {out}")
        if not np.can_cast(result, out.dtype, "same_kind"):
            typer.typing(node, f"np.{name} gives {result}, which cannot be stored in a {out}")
        return out

    def emit(self, emitter, node):
        if node in emitter.typed.elementwise:
            return emitter.array_expression(node)
        emitter.module.includes.add(HEADER)
        nin = self.ufunc.nin
        args = emitter.args(node)
        in_types = [t.dtype if isinstance(t, T.ArrayType) else t for _, t in args[:nin]]
        loop = self.ufunc.resolve_dtypes(tuple(in_types) + (None,))
        if len(args) == nin:
            return self.compute([c for c, _ in args], loop)
        # the element function: a functor defined beside the kernel (NVRTC takes no device lambdas)
        functor = f"kiln_ufunc_element_{len(emitter.module.definitions)}"
        params = ", ".join(f"{T.c_name(t)} x{i}" for i, t in enumerate(in_types))
        result = T.c_name(loop[-1])
        emitter.module.definitions.append(
            f"struct {functor} {{ KILN_JIT_DEVICE_FUNCTION {result} operator()({params}) const {{ "
            f"return {self.compute([f'x{i}' for i in range(nin)], loop)}; }} }};")
        return f"kiln_ufunc_loop({args[-1][0]}, {functor}(), {', '.join(c for c, _ in args[:nin])})"

    def compute(self, codes, loop):
        """The C++ of the op on `codes` (numbers), by NumPy's `loop` dtypes."""
        ins, result = loop[:-1], loop[-1]
        if self.op in _ORDER and len(set(ins)) > 1 and all(T.is_int(t) for t in ins):
            a, b = (cast(t, c) for t, c in zip(ins, codes))  # int64 against uint64, exactly
            return f"(kiln_mixed_order({a}, {b}) {_ORDER[self.op]} 0)"
        if self.op.startswith("logical_"):
            operands = ", ".join(f"kiln_truth({cast(t, c)})" for t, c in zip(ins, codes))
        else:
            operands = ", ".join(cast(_computed_as(t), c) for t, c in zip(ins, codes))
        return f"kiln_ufunc<kiln::dev::op_{self.op}, {T.c_name(result)}>({operands})"


class DivMod(Construct):
    """``np.divmod``: floor_divide's and remainder's results, into its two
    output arrays, or of numbers as a tuple."""

    parts = (UFunc(np.floor_divide), UFunc(np.remainder))

    @staticmethod
    def _calls(node):
        """One call of each part, made once per node (typing runs in rounds)."""
        if not hasattr(node, "kiln_parts"):
            a, b, *outs = node.args
            node.kiln_parts = [ast.copy_location(ast.Call(func=node.func, args=[a, b] + outs[k:k + 1], keywords=[]),
                                                 node) for k in range(2)]
        return node.kiln_parts

    def type(self, typer, node):
        if len(node.args) not in (2, 4):
            typer.typing(node, f"np.divmod takes 2 inputs and optionally 2 output arrays, got {len(node.args)}")
        types = [part.type(typer, call) for part, call in zip(self.parts, self._calls(node))]
        if len(node.args) == 4:
            return None
        if not all(T.is_scalar(t) for t in types):
            typer.unsupported(node, "np.divmod of arrays without its two output arrays")
        return T.TupleType(types)

    def emit(self, emitter, node):
        codes = [part.emit(emitter, call) for part, call in zip(self.parts, self._calls(node))]
        return f"({codes[0]}, {codes[1]})" if len(node.args) == 4 else f"kiln_make_tuple({codes[0]}, {codes[1]})"


def constructs():
    found = {value: UFunc(value) for value in vars(np).values() if isinstance(value, np.ufunc)}
    found[np.divmod] = DivMod()
    return found
