"""Methods of arrays inside kernels: ``a.reshape(shape)`` and
``a.view(dtype)``, views of the same memory as Numba makes them for
contiguous arrays (include/kiln/device/jit_support.cuh), and NumPy's
whole-array reductions as methods (``a.sum()``, ``a.mean()``...: the
functions of array_reductions.py)."""
import ast

from .. import types as T
from .array_reductions import ArrayReduction
from .base import Construct
from .local_arrays import array_dtype


def _array(typer, node, method):
    """The type of the array whose `method` a call calls (typed by typer.method)."""
    ty = typer.types[node.func.value]
    if node.keywords:
        typer.unsupported(node, f"keyword arguments to an array's {method}()")
    return ty


class Reshape(Construct):
    """``a.reshape(shape)``, ``a.reshape(n, m)``: the extents are numbers
    known when running; how many there are, when compiling."""

    def type(self, typer, node):
        array = _array(typer, node, "reshape")
        items = typer.tuple_items(node.args[0]) if len(node.args) == 1 else [typer.expr(a) for a in node.args]
        if not items or not all(T.is_int(t) for t in items):
            typer.typing(node, "reshape() takes a shape of 1 or more integers (a tuple or the extents)")
        return T.ArrayType(array.dtype, len(items))

    def emit(self, emitter, node):
        codes = [c for c, _ in emitter.tuple_items(node.args[0])] if len(node.args) == 1 else \
            [emitter.expr(a) for a in node.args]
        shape = ", ".join(f"(long long)({c})" for c in codes)
        return f"kiln_reshape<{len(codes)}>({emitter.expr(node.func.value)}, {{{shape}}})"


class View(Construct):
    """``a.view(dtype)``: the same bytes as another type of element."""

    def type(self, typer, node):
        array = _array(typer, node, "view")
        if len(node.args) != 1:
            typer.typing(node, "view() takes one dtype")
        if array.ndim == 0:
            typer.unsupported(node, "view() of a 0-d array")
        dtype = array_dtype(typer, node.args[0])
        if T.is_record(dtype) or T.is_record(array.dtype):
            typer.unsupported(node, "view() to or from a structured dtype")
        return T.ArrayType(dtype, array.ndim)

    def emit(self, emitter, node):
        dtype = emitter.type_of(node).dtype
        return f"kiln_view_as<{T.c_name(dtype)}>({emitter.expr(node.func.value)})"


class ReductionMethod(Construct):
    """``a.sum()`` and the other reductions NumPy has as methods: the
    function's construct on ``np.sum(a)``, made once per call."""

    def __init__(self, name):
        self.reduction = ArrayReduction(name)

    def _function_form(self, node):
        call = getattr(node, "kiln_function_form", None)
        if call is None:
            call = node.kiln_function_form = ast.copy_location(
                ast.Call(func=node.func, args=[node.func.value], keywords=[]), node)
        return call

    def type(self, typer, node):
        _array(typer, node, self.reduction.name)
        if node.args:
            typer.unsupported(node, f"an array's {self.reduction.name}() with arguments (axis, dtype or out)")
        call = self._function_form(node)
        typer.types[call] = self.reduction.type(typer, call)
        return typer.types[call]

    def checks(self, emitter, node):
        return self.reduction.checks(emitter, self._function_form(node))

    def emit(self, emitter, node):
        return self.reduction.emit(emitter, self._function_form(node))


# By (the class of the owner's type, the method's name): found by constructs.for_method.
METHODS = {(T.ArrayType, "reshape"): Reshape(), (T.ArrayType, "view"): View(),
           **{(T.ArrayType, name): ReductionMethod(name)
              for name in ("sum", "prod", "mean", "var", "std", "min", "max", "all", "any", "argmax", "argmin")}}
