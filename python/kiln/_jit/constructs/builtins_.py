"""Python's builtins a kernel may call (``abs``, ``min``, ``max``, ``round``, ``pow``,
``len``, ``int``/``float``/``bool`` and NumPy's scalar types as casts) and
calls of device functions (``@cuda.jit(device=True)``)."""
import ast
import builtins
import warnings

import numpy as np

from ..._ndarray.dtypes import dtype
from ..._numba_cuda import bf16
from ..._numba_cuda import kernel_language as K
from .. import types as T
from ..cxx import cast, float_literal, fn
from ..errors import TypingError
from . import bfloat16
from .base import Construct, NeverNegative


class Abs(NeverNegative):
    def type(self, typer, node):
        ta, = typer.args(node, 1)
        return T.INT64 if ta.kind == "b" else T.real_part(ta)

    def emit(self, emitter, node):
        (a, ta), = emitter.args(node)
        if ta.kind == "c":
            return f"abs({a})"
        if T.is_int(ta) or ta.kind == "b":
            r = emitter.type_of(node)
            return f"(({a}) < 0 ? -{cast(r, a)} : {cast(r, a)})"
        if ta == T.FLOAT16:
            return f"kiln_half_abs({a})"
        return f"{fn('fabs', ta)}({a})"


class MinMax(Construct):
    """``min``/``max``: of two float32/float64 values CUDA's fmin/fmax (a NaN
    loses, as Numba lowers them), of anything else the first extreme by
    comparison, as Python's."""

    def __init__(self, smaller):
        self.compare = "<" if smaller else ">"
        self.libm = "fmin" if smaller else "fmax"

    def type(self, typer, node):
        arg_types = typer.args(node, None)
        r = arg_types[0]
        for t in arg_types[1:]:
            r = T.promote(r, t) if (r.kind == "b") != (t.kind == "b") or r != t else r
        return r

    def emit(self, emitter, node):
        r = emitter.type_of(node)
        args = emitter.args(node)
        if len(args) == 2 and all(t in (T.FLOAT32, T.FLOAT64) for _, t in args):
            suffix = "f" if r == T.FLOAT32 else ""
            return f"{self.libm}{suffix}({cast(r, args[0][0])}, {cast(r, args[1][0])})"
        code = cast(r, args[0][0])
        for c, _ in args[1:]:
            code = f"({cast(r, c)} {self.compare} {code} ? {cast(r, c)} : {code})"
        return code

    def non_negative(self, typer, node):
        return all(typer.non_negative(a) for a in node.args)


class Round(Construct):
    """``round(x)``: the nearest integer, ties to even (an int64); ``round(x, n)``:
    x rounded to n decimal places (x's type, a float64 for integers)."""

    def type(self, typer, node):
        if len(node.args) == 2:
            tx, tn = typer.args(node, 2)
            if not T.is_int(tn):
                typer.typing(node, f"round()'s ndigits must be an integer, not {tn}")
            return tx if T.is_float(tx) else T.FLOAT64
        typer.args(node, 1)
        return T.INT64

    def emit(self, emitter, node):
        if len(node.args) == 2:
            (a, _), (n, _) = emitter.args(node)
            r = emitter.type_of(node)
            return f"kiln_round_digits({cast(r, a)}, (long long)({n}))"
        (a, ta), = emitter.args(node)
        return f"(long long){fn('rint', ta)}({a})" if T.is_float(ta) else f"(long long)({a})"

    def non_negative(self, typer, node):
        return all(typer.non_negative(a) for a in node.args)


class Cast(Construct):
    """``int(x)``, ``float(x)``, ``bool(x)``, ``np.float32(x)``..."""

    _TARGETS = {int: T.INT64, float: T.FLOAT64, bool: T.BOOL}

    def _target(self, typer, node):
        value = typer.global_value(node.func)
        if value is bf16.bfloat16:
            return bfloat16.bfloat16_type(typer, node)
        if isinstance(getattr(value, "dtype", None), dtype):  # Numba's float32
            return np.dtype(value.dtype.name)
        return self._TARGETS.get(value) or np.dtype(value)

    @staticmethod
    def _named_float(typer, node):
        """float("nan"), float("inf"), float("-inf"): the value, or None."""
        if typer.global_value(node.func) is float and len(node.args) == 1 and \
                isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            try:
                return float(node.args[0].value)
            except ValueError:
                typer.typing(node, f"float() of the string {node.args[0].value!r}")
        return None

    def type(self, typer, node):
        if self._named_float(typer, node) is not None:
            return T.FLOAT64
        arg, = typer.args(node, 1)
        value = typer.global_value(node.func)
        # Numba's rule: float() of a float and int() of an integer keep its type.
        if (value is float and T.is_float(arg)) or (value is int and T.is_int(arg)):
            return arg
        return self._target(typer, node)

    def emit(self, emitter, node):
        named = self._named_float(emitter.typed, node)
        if named is not None:
            return float_literal(named)
        (a, source), = emitter.args(node)
        target = emitter.type_of(node)
        if target.kind == "b":
            return f"(({a}) != 0)"
        # float16 <-> float64 and integers -> float16 in one conversion (jit_half.cuh)
        if source == T.FLOAT16 and target == T.FLOAT64:
            return f"kiln_half_to_double({a})"
        if target == T.FLOAT16 and T.is_int(source):
            return f"kiln_int_to_half({cast(source, a)})"
        return f"({cast(target, a)})"

    def non_negative(self, typer, node):
        return typer.global_value(node.func) is int and all(typer.non_negative(a) for a in node.args)


class MakeComplex(Construct):
    """``complex(re)``, ``complex(re, im)``: a complex128."""

    def type(self, typer, node):
        types = typer.args(node, None)
        if not 1 <= len(types) <= 2:
            typer.typing(node, "complex() takes a real and an optional imaginary part")
        return T.COMPLEX128

    def emit(self, emitter, node):
        parts = [f"(double)({c})" if t.kind != "c" else c for c, t in emitter.args(node)]
        if len(parts) == 1:
            return f"complex<double>({parts[0]})"
        return f"kiln_python_complex({parts[0]}, {parts[1]})"


class Conjugate(Construct):
    """``z.conjugate()``: a real number is its own conjugate."""

    def type(self, typer, node):
        ty = typer.expr(node.func.value)
        typer.scalars(node, ty)
        return ty

    def emit(self, emitter, node):
        code = emitter.expr(node.func.value)
        return f"conj({code})" if emitter.type_of(node).kind == "c" else code


class Len(NeverNegative):
    def type(self, typer, node):
        if len(node.args) != 1:
            typer.typing(node, f"len() takes 1 argument, got {len(node.args)}")
        ta = typer.expr(node.args[0])
        if not isinstance(ta, (T.ArrayType, T.TupleType)):
            typer.typing(node, f"len() of a {ta}")
        return T.INT64

    def emit(self, emitter, node):
        ta = emitter.type_of(node.args[0])
        if isinstance(ta, T.TupleType):
            return f"{len(ta.items)}LL"
        return f"{emitter.expr(node.args[0])}.shape[0]"


def _dispatcher(value):
    """The dispatcher a call in compiled code calls: the value, or the one
    kiln.numba's register_jitable gave a Python function."""
    return getattr(value, "_kiln_jitable", value)


class DeviceCall(Construct):
    """A call of a ``@cuda.jit(device=True)`` function: translated for the
    argument types, once per translation unit. Keywords and defaults take
    their places by Python's rules (the call's arguments become positional)."""

    keywords = True

    def type(self, typer, node):
        dispatcher = _dispatcher(typer.global_value(node.func))
        function = dispatcher.function
        if node.keywords or len(node.args) != len(function.params):
            try:
                node.args, node.keywords = function.bind_nodes(node), []
            except TypeError as e:  # Python's words: missing a required argument, too many...
                typer.typing(node, f"{dispatcher.__name__}(): {e}")
        if dispatcher._declared_signatures:  # the declared signature the arguments convert to, as Numba resolves it
            given = [typer.expr(a) for a in node.args]
            arg_types = dispatcher.resolve_types(given, ambiguous_ok=True)
            if arg_types is None:
                typer.typing(node, f"Invalid use of type {dispatcher!r} with parameters "
                                   f"({', '.join(map(str, given))}); it was declared for {dispatcher._declared()}")
            arg_types = list(arg_types)
        else:
            arg_types = [typer.argument_type(a) for a in node.args]
        typer.call_types[node] = arg_types
        try:
            return typer.module.device_function(dispatcher, arg_types)[1]
        except TypingError as e:  # where in the caller, as Numba reports it
            raise TypingError(f"resolving callee type: type(CUDADispatcher({dispatcher.py_func!r})): {e}") from None

    def emit(self, emitter, node):
        arg_types = emitter.typed.call_types[node]
        codes = [cast(t, emitter.expr(a)) if T.is_scalar(t) else emitter.expr(a)
                 for a, t in zip(node.args, arg_types) if not isinstance(t, T.ConstantArg)]
        dispatcher = _dispatcher(emitter.global_value(node.func))
        c_name, _ = emitter.module.device_function(dispatcher, arg_types)
        return f"{c_name}({', '.join(codes)})"


class Power(Construct):
    """``pow(x, y)``: ``x ** y``, typed and emitted as that operator (the
    three-argument modular form is refused)."""

    def type(self, typer, node):
        if len(node.args) != 2 or node.keywords:
            typer.unsupported(node, "pow() with other than two arguments (use x ** y)")
        power = ast.copy_location(ast.BinOp(left=node.args[0], op=ast.Pow(), right=node.args[1]), node)
        typer.pow_operators[node] = power
        return typer.expr(power)

    def emit(self, emitter, node):
        return emitter.expr(emitter.typed.pow_operators[node])


class TupleOf(Construct):
    """``tuple(t)`` of a tuple: the same tuple."""

    def _argument(self, typer, node):
        if len(node.args) != 1:
            typer.typing(node, "tuple() takes one tuple in a kernel")
        return node.args[0]

    def tuple_types(self, typer, node):
        argument = self._argument(typer, node)
        items = typer.tuple_items(argument)
        # tuple_items types the argument itself only when it is not a literal, a shape or cuda.grid(n)
        if argument in typer.types and not isinstance(typer.types[argument], T.TupleType):
            typer.typing(node, "tuple() takes a tuple in a kernel")
        return items

    def tuple_codes(self, emitter, node):
        return [code for code, _ in emitter.tuple_items(node.args[0])]

    def type(self, typer, node):
        return T.TupleType(self.tuple_types(typer, node))

    def emit(self, emitter, node):
        return f"kiln_make_tuple({', '.join(self.tuple_codes(emitter, node))})"


CAST = Cast()
DEVICE_CALL = DeviceCall()


def constructs():
    return {builtins.abs: Abs(), builtins.min: MinMax(True), builtins.max: MinMax(False), builtins.round: Round(),
            builtins.int: CAST, builtins.float: CAST, builtins.bool: CAST, builtins.len: Len(),
            builtins.complex: MakeComplex(), builtins.print: Print(), builtins.pow: Power(), builtins.tuple: TupleOf(),
            K.literally: Literally()}


class Literally(Construct):
    """``literally(x)`` (kernel_language.literally): the value."""

    def type(self, typer, node):
        if len(node.args) != 1:
            typer.typing(node, "literally() takes one value")
        return typer.expr(node.args[0])

    def emit(self, emitter, node):
        return emitter.expr(node.args[0])


NEWLINE = "\\n"  # as C source spells it
_PRINTF_ARGUMENTS = 32  # vprintf's limit on the GPU (kept on the CPU too: one program, one output)


class Print(Construct):
    """``print(...)`` in a kernel: one printf per call (so a thread's line is
    not interleaved with another's), formatted as Numba's: integers in full,
    floats with %f, bools as True/False, string constants as they are, tuples
    and ``cuda.threadIdx`` and friends in parentheses."""

    def type(self, typer, node):
        for a in node.args:
            self._type_item(typer, a)
        return None

    def _type_item(self, typer, a):
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            return
        if isinstance(typer.global_value(a), K.Dim3):
            return  # cuda.threadIdx
        if isinstance(a, ast.Tuple):
            for e in a.elts:
                self._type_item(typer, e)
            return
        ty = typer.expr(a)
        if not (T.is_scalar(ty) or isinstance(ty, T.TupleType)):
            typer.typing(a, f"print() of a {ty}")

    def _format(self, emitter, a, out):
        """Appends (format, [arguments]) pieces of `a` to `out`."""
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            out.append((a.value.replace("%", "%%"), []))
            return
        owner = emitter.global_value(a)
        if isinstance(owner, K.Dim3):
            name = owner._name
            out.append(("(%u, %u, %u)", [f"(unsigned){name}.{axis}" for axis in "xyz"]))
            return
        if isinstance(a, ast.Tuple):
            parts = []
            for e in a.elts:
                self._format(emitter, e, parts)
            text = ", ".join(p[0] for p in parts) + ("," if len(parts) == 1 else "")
            out.append((f"({text})", [x for p in parts for x in p[1]]))
            return
        self._format_value(emitter.type_of(a), emitter.expr(a), out)

    def _format_value(self, ty, code, out):
        if isinstance(ty, T.TupleType):
            parts = []
            for k, item in enumerate(ty.items):
                self._format_value(item, f"kiln_get({k}, {code})", parts)
            text = ", ".join(p[0] for p in parts) + ("," if len(parts) == 1 else "")
            out.append((f"({text})", [x for p in parts for x in p[1]]))
        elif ty.kind == "b":
            out.append(("%s", [f'(({code}) ? "True" : "False")']))
        elif ty.kind == "f" or ty.name == "bfloat16":
            out.append(("%f", [f"(double)(float)({code})"]))
        elif ty.kind == "u":
            out.append(("%llu", [f"(unsigned long long)({code})"]))
        else:
            out.append(("%lld", [f"(long long)({code})"]))

    def emit(self, emitter, node):
        parts = []
        for a in node.args:
            self._format(emitter, a, parts)
        text = " ".join(p[0] for p in parts).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        arguments = [x for p in parts for x in p[1]]
        if len(arguments) > _PRINTF_ARGUMENTS:  # CUDA's printf takes 32: the format itself, as Numba prints it
            warnings.warn(f"CUDA print() cannot print more than {_PRINTF_ARGUMENTS} items. The raw format string "
                          "will be emitted by the kernel instead.", stacklevel=2)
            return f'printf({emitter.module.format_string("%s" + NEWLINE)}, "{text}")'
        return f'printf({emitter.module.format_string(text + NEWLINE)}{"".join(f", {x}" for x in arguments)})'

