"""``cuda.atomic.*(array, index, value...)``: the old value; every 32- and
64-bit element type (include/kiln/device/jit_support.cuh has the loops
where CUDA has no instruction)."""
import ast

from ..._numba_cuda import kernel_language as K
from .. import types as T
from ..cxx import cast
from .base import Construct

_NAMES = {"add", "sub", "max", "min", "and_", "or_", "xor", "exch", "inc", "dec", "nanmax", "nanmin", "cas",
          "compare_and_swap"}
_C_NAMES = {"and_": "and", "or_": "or", "compare_and_swap": "cas"}


class Atomic(Construct):
    def __init__(self, name):
        self.name = name
        self.c_name = _C_NAMES.get(name, name)

    def _parts(self, typed, node):
        """(array node, index nodes, value nodes): compare_and_swap(a, old, new) is cas at index 0."""
        args = node.args
        if self.name == "compare_and_swap":
            args = [args[0], ast.copy_location(ast.Constant(value=0), node), *args[1:]]
        if len(args) < 2:
            return args[0] if args else None, [], []
        return args[0], typed.index_items(args[1]), args[2:]

    def type(self, typer, node):
        array, indices, values = self._parts(typer, node)
        ty = typer.expr(array) if array is not None else None
        if not isinstance(ty, T.ArrayType):
            typer.typing(node, f"cuda.atomic.{self.name} needs an array first, not {ty}")
        if ty.dtype.itemsize not in (4, 8):
            typer.typing(node, f"cuda.atomic.{self.name} works on 32- and 64-bit elements, not {ty.dtype}")
        for index in indices:
            typer.expr(index)
        if len(indices) != ty.ndim:
            typer.typing(node, f"cuda.atomic.{self.name}: {ty.ndim} indices needed, got {len(indices)}")
        for value in values:
            typer.expr(value)
        if len(values) != (2 if self.c_name == "cas" else 1):
            typer.typing(node, f"cuda.atomic.{self.name} takes {'4' if self.c_name == 'cas' else '3'} arguments")
        return ty.dtype

    def emit(self, emitter, node):
        array, indices, values = self._parts(emitter.typed, node)
        element = emitter.type_of(array).dtype
        where = "&" + emitter.element(array, indices)
        return f"kiln_atomic_{self.c_name}({where}, {', '.join(cast(element, emitter.expr(v)) for v in values)})"


def constructs():
    return {getattr(K.atomic, name): Atomic(name) for name in _NAMES if hasattr(K.atomic, name)}
