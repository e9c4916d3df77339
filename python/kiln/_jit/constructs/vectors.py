"""CUDA's vector types (kiln/cuda/vector_types.py) in kernels:
``cuda.float32x3(v2, 1.0)`` makes a vector from numbers and smaller vectors
whose components add up to its own, each converted to the base type. A
vector is a named tuple of its base type (x, y, z, w), so ``v.x`` reads a
component and vectors pass to device functions as tuples do."""
from ..._numba_cuda import vector_types
from .. import types as T
from ..cxx import cast
from .base import Construct


def _is_vector(t):
    return isinstance(t, T.TupleType) and t.names is not None and t.names == vector_types.ATTRIBUTE_NAMES[:len(t.items)]


class MakeVector(Construct):
    def __init__(self, vector_type):
        self.vector = vector_type
        self.base = T.parse_type(vector_type.base_type)

    def type(self, typer, node):
        count = 0
        for arg in node.args:
            t = typer.expr(arg)
            if _is_vector(t):
                count += len(t.items)
            elif T.is_scalar(t):
                count += 1
            else:
                typer.typing(node, f"cuda.{self.vector.name} is made of numbers and vectors, not a {t}")
        if count != self.vector.num_elements:
            typer.typing(node, f"cuda.{self.vector.name} has {self.vector.num_elements} components; its "
                               f"arguments give {count}")
        return T.TupleType([self.base] * self.vector.num_elements, self.vector.attr_names)

    def emit(self, emitter, node):
        parts = []
        for arg in node.args:
            t, code = emitter.type_of(arg), emitter.expr(arg)
            parts += [f"kiln_get({k}, {code})" for k in range(len(t.items))] if _is_vector(t) else [code]
        return f"kiln_make_tuple({', '.join(cast(self.base, p) for p in parts)})"


def constructs():
    return {vty.user_facing_object: MakeVector(vty) for vty in vector_types.vector_types.values()}
