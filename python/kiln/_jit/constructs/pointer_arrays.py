"""Numba's arrays over raw pointers: ``carray(ptr, shape, dtype=None)`` and
``farray`` (C and Fortran order) view the memory a ``CPointer`` argument
points at as an array of the given shape (a number or a tuple, known when
the kernel runs), of the pointer's element type or the given dtype."""
from ..._numba_cuda import kernel_language as K
from .. import types as T
from . import local_arrays
from .base import Construct


class PointerArray(Construct):
    keywords = ("shape", "dtype")

    def __init__(self, fortran):
        self.fortran = fortran

    def _arguments(self, node):
        args = list(node.args) + [None] * (3 - len(node.args))
        for k in node.keywords:
            args[self.keywords.index(k.arg) + 1] = k.value
        return args


    def type(self, typer, node):
        name = "farray" if self.fortran else "carray"
        if not 2 <= len(node.args) + len(node.keywords) <= 3 or any(k.arg not in self.keywords for k in node.keywords):
            typer.typing(node, f"{name}(ptr, shape, dtype=None) takes a pointer, a shape and an optional dtype")
        ptr, shape, dtype = self._arguments(node)
        pointer = typer.expr(ptr)
        if not isinstance(pointer, T.PointerType):
            typer.typing(node, f"{name}: the first argument must be a pointer (CPointer), not {pointer}")
        extents = typer.tuple_items(shape)
        if not extents or not all(T.is_int(t) for t in extents):
            typer.typing(node, f"{name}: the shape is an integer or a tuple of integers")
        return T.ArrayType(pointer.dtype if dtype is None else local_arrays.array_dtype(typer, dtype), len(extents))

    def emit(self, emitter, node):
        ptr, shape, _ = self._arguments(node)
        ty = emitter.type_of(node)
        extents = ", ".join(f"(long long)({code})" for code, _ in emitter.tuple_items(shape))
        order = "true" if self.fortran else "false"
        return f"kiln_contiguous_view<{T.c_name(ty.dtype)}, {order}>({emitter.expr(ptr)}, 0LL, {extents})"


def constructs():
    return {K.carray: PointerArray(False), K.farray: PointerArray(True)}
