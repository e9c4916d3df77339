"""Python's builtins a kernel may call (``abs``, ``min``, ``max``, ``round``,
``len``, ``int``/``float``/``bool`` and NumPy's scalar types as casts) and
calls of device functions (``@cuda.jit(device=True)``)."""
import builtins

import numpy as np

from ..._dtypes import dtype
from .. import types as T
from ..cxx import cast, fn
from .base import Construct, NeverNegative


class Abs(NeverNegative):
    def type(self, typer, node):
        ta, = typer.args(node, 1)
        return T.INT64 if ta.kind == "b" else ta

    def emit(self, emitter, node):
        (a, ta), = emitter.args(node)
        if T.is_int(ta) or ta.kind == "b":
            r = emitter.type_of(node)
            return f"(({a}) < 0 ? -{cast(r, a)} : {cast(r, a)})"
        return f"{fn('fabs', ta)}({a})"


class MinMax(Construct):
    def __init__(self, smaller):
        self.compare = "<" if smaller else ">"

    def type(self, typer, node):
        arg_types = typer.args(node, None)
        r = arg_types[0]
        for t in arg_types[1:]:
            r = T.promote(r, t) if (r.kind == "b") != (t.kind == "b") or r != t else r
        return r

    def emit(self, emitter, node):
        r = emitter.type_of(node)
        args = emitter.args(node)
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
        if isinstance(getattr(value, "dtype", None), dtype):  # Numba's float32
            return np.dtype(value.dtype.name)
        return self._TARGETS.get(value) or np.dtype(value)

    def type(self, typer, node):
        typer.args(node, 1)
        return self._target(typer, node)

    def emit(self, emitter, node):
        (a, _), = emitter.args(node)
        target = emitter.type_of(node)
        return f"(({a}) != 0)" if target.kind == "b" else f"({cast(target, a)})"

    def non_negative(self, typer, node):
        return typer.global_value(node.func) is int and all(typer.non_negative(a) for a in node.args)


class Len(NeverNegative):
    def type(self, typer, node):
        if len(node.args) != 1:
            typer.typing(node, f"len() takes 1 argument, got {len(node.args)}")
        ta = typer.expr(node.args[0])
        if not isinstance(ta, T.ArrayType):
            typer.typing(node, f"len() of a {ta}")
        return T.INT64

    def emit(self, emitter, node):
        return f"{emitter.expr(node.args[0])}.shape[0]"


class Refused(Construct):
    def __init__(self, what):
        self.what = what

    def type(self, typer, node):
        typer.unsupported(node, self.what)


class DeviceCall(Construct):
    """A call of a ``@cuda.jit(device=True)`` function: translated for the
    argument types, once per translation unit."""

    def type(self, typer, node):
        arg_types = [typer.expr(a) for a in node.args]
        return typer.module.device_function(typer.global_value(node.func), arg_types)[1]

    def emit(self, emitter, node):
        codes = [emitter.expr(a) for a in node.args]
        dispatcher = emitter.global_value(node.func)
        c_name, _ = emitter.module.device_function(dispatcher, [emitter.type_of(a) for a in node.args])
        return f"{c_name}({', '.join(codes)})"


CAST = Cast()
DEVICE_CALL = DeviceCall()


def constructs():
    return {builtins.abs: Abs(), builtins.min: MinMax(True), builtins.max: MinMax(False), builtins.round: Round(),
            builtins.int: CAST, builtins.float: CAST, builtins.bool: CAST, builtins.len: Len(),
            builtins.complex: Refused("complex numbers in kernels")}
