"""Calls of ``cuda.declare_device`` functions (kiln/cuda/linking.py): CUDA
C++ in the linked sources, called through an inline wrapper that passes
Numba's result pointer and returns the result."""
from .. import types as T
from ..cxx import cast
from .base import Construct


class ExternCall(Construct):
    def type(self, typer, node):
        function = typer.global_value(node.func)
        result, params = T.parse_signature(function.sig)
        if node.keywords or len(node.args) != len(params):
            typer.typing(node, f"{function.name} takes {len(params)} positional arguments ({function.sig})")
        for a, p in zip(node.args, params):
            if isinstance(p, T.ArrayType) or not T.is_scalar(typer.expr(a)):
                typer.unsupported(node, f"arrays as arguments of the declared device function {function.name} "
                                        "(scalars are passed)")
        typer.module.extern_function(function)
        return result

    def emit(self, emitter, node):
        function = emitter.global_value(node.func)
        _, params = T.parse_signature(function.sig)
        wrapper = emitter.module.extern_function(function)
        return f"{wrapper}({', '.join(cast(p, emitter.expr(a)) for a, p in zip(node.args, params))})"


EXTERN_CALL = ExternCall()
