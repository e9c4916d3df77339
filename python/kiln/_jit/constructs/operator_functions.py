"""Python's ``operator`` module in kernels (``operator.add(a, b)``, or an
``op`` a kernel closes over): each function is its operator, typed and
emitted as the expression ``a + b`` would be."""
import ast
import operator

from .. import types as T
from .base import Construct

_BINARY = {operator.add: ast.Add, operator.sub: ast.Sub, operator.mul: ast.Mult, operator.truediv: ast.Div,
           operator.floordiv: ast.FloorDiv, operator.mod: ast.Mod, operator.pow: ast.Pow,
           operator.and_: ast.BitAnd, operator.or_: ast.BitOr, operator.xor: ast.BitXor,
           operator.lshift: ast.LShift, operator.rshift: ast.RShift}
_COMPARE = {operator.lt: ast.Lt, operator.le: ast.LtE, operator.eq: ast.Eq, operator.ne: ast.NotEq,
            operator.gt: ast.Gt, operator.ge: ast.GtE}
# The in-place forms (``operator.iadd``): of numbers, which are immutable, the
# operator's result, as Python gives it.
_IN_PLACE = {operator.iadd: ast.Add, operator.isub: ast.Sub, operator.imul: ast.Mult, operator.itruediv: ast.Div,
             operator.ifloordiv: ast.FloorDiv, operator.imod: ast.Mod, operator.ipow: ast.Pow,
             operator.iand: ast.BitAnd, operator.ior: ast.BitOr, operator.ixor: ast.BitXor,
             operator.ilshift: ast.LShift, operator.irshift: ast.RShift}
_UNARY = {operator.neg: ast.USub, operator.pos: ast.UAdd, operator.invert: ast.Invert, operator.not_: ast.Not}


class OperatorFunction(Construct):
    def __init__(self, function):
        self.function = function
        self._expressions = {}  # call node -> the operator expression standing for it

    def _expression(self, typer, node):
        found = self._expressions.get(node)
        if found is None:
            count = 1 if self.function in _UNARY else 2
            if len(node.args) != count:
                typer.typing(node, f"operator.{self.function.__name__} takes {count} arguments")
            if self.function in _BINARY:
                found = ast.BinOp(left=node.args[0], op=_BINARY[self.function](), right=node.args[1])
            elif self.function in _IN_PLACE:
                if not T.is_scalar(typer.expr(node.args[0])):
                    typer.unsupported(node, f"operator.{self.function.__name__} of an array (of numbers it is "
                                            "supported; write the augmented assignment for arrays)")
                found = ast.BinOp(left=node.args[0], op=_IN_PLACE[self.function](), right=node.args[1])
            elif self.function in _COMPARE:
                found = ast.Compare(left=node.args[0], ops=[_COMPARE[self.function]()], comparators=[node.args[1]])
            else:
                found = ast.UnaryOp(op=_UNARY[self.function](), operand=node.args[0])
            found = self._expressions[node] = ast.copy_location(found, node)
        return found

    def type(self, typer, node):
        return typer.expr(self._expression(typer, node))

    def emit(self, emitter, node):
        return emitter.expr(self._expressions[node])


def constructs():
    return {f: OperatorFunction(f) for f in (*_BINARY, *_IN_PLACE, *_COMPARE, *_UNARY)}
