"""Numba's ``numba.cuda.bf16`` functions in kernels (kiln/cuda/bf16.py names
them and their argument and result types): each a call of the C++ function
of the same name in include/kiln/device/jit_bfloat16.cuh, its arguments
converted to the types it takes, as Numba converts them. ``bfloat16(x)``
itself is a cast (builtins_.CAST)."""
import re

import numpy as np

from ..._numba_cuda import bf16
from .. import types as T
from ..cxx import cast
from .base import Construct

_ROUNDED = re.compile(r"^(bfloat16_to_(u?int\d+)|(u?int\d+)_to_bfloat16|float32_to_bfloat16)_(rn|rz|rd|ru)$")


def bfloat16_type(typer, node):
    """The bfloat16 NumPy dtype (ml_dtypes'), or a TypingError saying what is missing."""
    try:
        return bf16._dtype()
    except ImportError as e:
        typer.typing(node, str(e))


class Bfloat16Function(Construct):
    def __init__(self, name):
        self.name = name
        self.params, self.result = bf16.FUNCTIONS[name]

    def _type(self, typer, node, kind):
        return bfloat16_type(typer, node) if kind == "b" else np.dtype(kind)

    def type(self, typer, node):
        typer.args(node, len(self.params))  # numbers, converted to the parameters' types
        return self._type(typer, node, self.result)

    def emit(self, emitter, node):
        params = [self._type(emitter.typed, node, k) for k in self.params]
        args = [cast(p, code) for p, (code, _) in zip(params, emitter.args(node))]
        m = _ROUNDED.match(self.name)
        if m is None:
            return f"kiln_bf16_{self.name}({', '.join(args)})"
        mode = f"kiln_{m.group(4)}"
        if m.group(2):  # bfloat16 to an integer type, saturated to its range
            target = np.dtype(m.group(2))
            info = np.iinfo(target)
            lo, hi = (cast(target, _integer_literal(int(v))) for v in (info.min, info.max))
            return f"kiln_bf16_to_int<{T.c_name(target)}>({args[0]}, {mode}, {lo}, {hi})"
        if m.group(3):  # an integer type to bfloat16
            return f"kiln_int_to_bf16({args[0]}, {mode})"
        return f"kiln_bf16_round({args[0]}, {mode})"  # float32 in a mode


def _integer_literal(v):
    if v == -2**63:
        return "(-9223372036854775807LL - 1)"  # no literal of it: 9223372036854775808 overflows first
    return f"{v}ULL" if v >= 2**63 else f"{v}LL"


def constructs():
    return {getattr(bf16, name): Bfloat16Function(name) for name in bf16.FUNCTIONS}
