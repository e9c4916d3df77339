"""NumPy's whole-array reductions inside kernels: ``np.sum(a)``, ``np.mean``,
``np.var``, ``np.std``, ``np.min``/``np.max``, their ``nan`` forms,
``np.prod``, ``np.all``/``np.any``, ``np.count_nonzero``, ``np.argmax``/
``np.argmin`` (the flat index; of an empty array, ValueError where the
function may raise). One thread walks
the array (include/kiln/device/jit_array_reductions.cuh) with NumPy's result
types and NaN rules, as Numba's kernels compute them."""
import functools

import numpy as np

from .. import types as T
from .base import Construct

_HEADER = "kiln/device/jit_array_reductions.cuh"


@functools.cache
def _result_type(name, dtype):
    """What NumPy's reduction gives for an array of `dtype`: NumPy decides,
    as it does for the ufuncs kernels call (numpy_ufuncs.py)."""
    return np.dtype(type(getattr(np, name)(np.ones(1, dtype=dtype))) if name in ("count_nonzero", "argmax",
                                                                                  "argmin") else
                    getattr(np, name)(np.ones(1, dtype=dtype)).dtype)


class ArrayReduction(Construct):
    def __init__(self, name):
        self.name = name

    def type(self, typer, node):
        if len(node.args) != 1 or node.keywords:
            typer.unsupported(node, f"np.{self.name}() with other than one array (no axis, dtype or out)")
        ty = typer.expr(node.args[0])
        if not isinstance(ty, T.ArrayType):
            typer.typing(node, f"np.{self.name}() in a kernel takes an array, got {ty}")
        typer.module.includes.add(_HEADER)
        return _result_type(self.name, ty.dtype)

    def checks(self, emitter, node):
        if self.name not in ("argmax", "argmin"):
            return []
        return [(f"({emitter.expr(node.args[0])}).size() == 0", ValueError,
                 f"attempt to get {self.name} of an empty sequence")]

    def emit(self, emitter, node):
        array = emitter.expr(node.args[0])
        if self.name in ("argmax", "argmin"):
            return f"kiln_array_arg_extreme({array}, {'true' if self.name == 'argmax' else 'false'})"
        d = emitter.type_of(node.args[0]).dtype
        r = T.c_name(emitter.type_of(node))
        skip = "true" if self.name.startswith("nan") else "false"
        name = self.name[3:] if self.name.startswith("nan") else self.name
        if name in ("sum", "prod"):
            return f"kiln_array_{name}<{r}>({array}, {skip})"
        if name == "mean":
            return f"kiln_array_mean<{r}>({array}, {skip})"
        if name in ("var", "std"):
            var = "kiln_array_complex_var" if d.kind == "c" else "kiln_array_var"
            variance = f"{var}<{T.c_name(_result_type('mean', d))}>({array}, {skip})"
            return f"({r})sqrt((double)({variance}))" if name == "std" else f"({r})({variance})"
        if name in ("all", "any", "count_nonzero"):
            return f"kiln_array_{name}({array})"
        return f"kiln_array_extreme({array}, {'true' if name in ('max', 'amax') else 'false'}, {skip})"


def constructs():
    names = ["sum", "prod", "mean", "var", "std", "min", "max", "amin", "amax", "all", "any", "count_nonzero",
             "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax", "argmax", "argmin"]
    return {getattr(np, n): ArrayReduction(n) for n in names if hasattr(np, n)}
