"""Where a thread is: ``cuda.threadIdx.x`` and the other dim3 values,
``cuda.grid(n)``, ``cuda.gridsize(n)``, ``cuda.laneid``, ``cuda.warpsize``.
None of them is ever negative, which spares array indices built from them
Python's wraparound."""
from ..._numba_cuda import kernel_language as K
from .. import types as T
from .base import NeverNegative


class Dim3Member(NeverNegative):
    """``cuda.threadIdx.x`` (the construct of ``cuda.threadIdx``; the node is the member access)."""

    has_members = True

    def __init__(self, name):
        self.name = name

    def type(self, typer, node):
        if node.attr not in ("x", "y", "z"):
            typer.typing(node, f"cuda.{self.name} has x, y and z")
        return T.INT32

    def emit(self, emitter, node):
        return f"((int){self.name}.{node.attr})"


class GridPosition(NeverNegative):
    """``cuda.grid(n)`` (the thread's absolute position) and ``cuda.gridsize(n)``
    (the grid's size in threads): an int64 for n = 1, else a tuple to unpack."""

    def __init__(self, name):
        self.name = name

    def _count(self, typer, node):
        n = typer.constant(node.args[0]) if len(node.args) == 1 else None
        if n not in (1, 2, 3):
            typer.typing(node, f"cuda.{self.name} takes 1, 2 or 3")
        return n

    def tuple_types(self, typer, node):
        return [T.INT64] * self._count(typer, node)

    def tuple_codes(self, emitter, node):
        axes = "xyz"[:emitter.constant(node.args[0])]
        if self.name == "grid":
            return [f"((long long)blockIdx.{a} * blockDim.{a} + threadIdx.{a})" for a in axes]
        return [f"((long long)blockDim.{a} * gridDim.{a})" for a in axes]

    def type(self, typer, node):
        n = self._count(typer, node)
        return T.INT64 if n == 1 else T.TupleType([T.INT64] * n)

    def emit(self, emitter, node):
        codes = self.tuple_codes(emitter, node)
        return codes[0] if len(codes) == 1 else f"kiln_make_tuple({', '.join(codes)})"


class LaneId(NeverNegative):
    is_value = True
    def type(self, typer, node):
        return T.INT32

    def emit(self, emitter, node):
        return "((int)((threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) & 31))"


class WarpSize(NeverNegative):
    is_value = True
    def type(self, typer, node):
        return T.INT32

    def emit(self, emitter, node):
        return "32"


def constructs():
    table = {getattr(K, name): Dim3Member(name) for name in ("threadIdx", "blockIdx", "blockDim", "gridDim")}
    table[K.grid] = GridPosition("grid")
    table[K.gridsize] = GridPosition("gridsize")
    table[K.laneid] = LaneId()
    table[K.warpsize] = WarpSize()
    return table
