"""Whole-array expressions in ``@njit`` functions, as Numba's nopython mode
has them (and boolean-mask indexing, ``a[a > 0]``, which reads or writes the
elements a mask selects): an operator (``a + b``, ``-a``, ``a < 2``) or a NumPy ufunc
(``np.sin(a)``) of arrays and numbers makes a new array, with NumPy's
broadcasting. A tree of them is one loop, as Numba's array-expression pass
fuses it: ``np.cos(a) ** 2 + np.sin(a) ** 2`` reads ``a`` once an element and
makes one array, not four. The element function is kiln's one definition of
each ufunc (numpy_ufuncs.py); the loop is jit_array_expressions.cuh's, split
over the CPU's threads in a ``parallel=True`` function.

Types follow Numba's: NumPy's ufunc loop for the operands' dtypes, a
number counting by its own type as an array's dtype does (a float32 array
times 2.0 is float64 in Numba, float32 in NumPy 2, whose Python scalars are
weak).
"""
import ast

import numpy as np

from .. import types as T
from . import heap_arrays
from .numpy_ufuncs import UFunc

HEADER = "kiln/device/jit_array_expressions.cuh"

OPERATORS = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.true_divide,
             ast.FloorDiv: np.floor_divide, ast.Mod: np.remainder, ast.Pow: np.power, ast.LShift: np.left_shift,
             ast.RShift: np.right_shift, ast.BitAnd: np.bitwise_and, ast.BitOr: np.bitwise_or,
             ast.BitXor: np.bitwise_xor, ast.USub: np.negative, ast.UAdd: np.positive, ast.Invert: np.invert,
             ast.Lt: np.less, ast.LtE: np.less_equal, ast.Gt: np.greater, ast.GtE: np.greater_equal,
             ast.Eq: np.equal, ast.NotEq: np.not_equal}

def involved(*types):
    return any(isinstance(t, T.ArrayType) for t in types)


def type_of(typer, node, ufunc, operands, types):
    """The array type of `node`, ufunc of `operands` (their `types`, one at
    least an array), recorded in ``typer.elementwise`` for emission."""
    name = ufunc.__name__
    if not typer.module.host_entry:
        typer.typing(node, f"np.{name} of arrays needs an output array in a kernel (kernels cannot make arrays): "
                           f"np.{name}(..., out)")
    for t in types:
        if not (T.is_scalar(t) or isinstance(t, T.ArrayType)):
            typer.typing(node, f"np.{name} of a {t}")
    try:
        loop = ufunc.resolve_dtypes(tuple(t.dtype if isinstance(t, T.ArrayType) else np.dtype(t.name) for t in types) +
                                    (None,))
    except (TypeError, np.exceptions.DTypePromotionError) as e:
        typer.typing(node, f"np.{name} of {', '.join(map(str, types))}: {e}")
    ndim = max(t.ndim for t in types if isinstance(t, T.ArrayType))
    if ndim == 0:
        typer.unsupported(node, f"np.{name} of 0-d arrays")
    typer.module.includes.add(HEADER)
    heap_arrays.made(typer, node, (ValueError, "operands could not be broadcast together"))
    typer.elementwise[node] = (ufunc, loop, list(operands))
    return T.ArrayType(loop[-1], ndim)


def emit(emitter, node):
    """The C++ of the fused tree rooted at `node`: a functor of its leaves
    (the operands that are not themselves elementwise) run over the
    broadcast shape into a new array."""
    elementwise = emitter.typed.elementwise
    leaves = []

    def element(n):
        if n in elementwise:
            ufunc, loop, operands = elementwise[n]
            return UFunc(ufunc).compute([element(o) for o in operands], loop)
        if isinstance(n, ast.Constant):  # written into the loop, where the compiler folds it (a ** 2 is a * a)
            return emitter.expr(n)
        leaves.append(n)
        return f"x{len(leaves) - 1}"

    body = element(node)
    ty = emitter.type_of(node)
    params = ", ".join(f"{T.c_name(_element_type(emitter.type_of(leaf)))} x{i}" for i, leaf in enumerate(leaves))
    functor = f"kiln_array_expression_{len(emitter.module.definitions)}"
    emitter.module.definitions.append(
        f"struct {functor} {{ {T.c_name(ty.dtype)} operator()({params}) const {{ return {body}; }} }};")
    parallel = "true" if emitter.f.parallel else "false"
    codes = ", ".join(emitter.expr(leaf) for leaf in leaves)
    return (f"kiln_elementwise<{T.c_name(ty.dtype)}, {ty.ndim}, {parallel}>({heap_arrays.record(emitter, node)}, "
            f"{functor}(), {codes})")


def _element_type(ty):
    return ty.dtype if isinstance(ty, T.ArrayType) else ty


def stores(typer, target):
    """Notes that an array is stored into `target`'s elements, broadcast,
    and the code of NumPy's ValueError where the shapes do not fit."""
    typer.module.includes.add(HEADER)
    heap_arrays.made(typer, target, (ValueError, "could not broadcast the input array into the target's shape"))


def store_code(emitter, target, value):
    """``target[...] = array`` and ``a += array``: the value broadcast into
    the target's elements."""
    target_code = target.id if isinstance(target, ast.Name) else emitter.expr(target)
    return f"kiln_broadcast_assign({heap_arrays.record(emitter, target)}, {target_code}, {emitter.expr(value)});"


def masked(typer, node, ty, mask):
    """a[mask], a boolean array of a's shape: a new 1-d array of the
    elements it selects, in C order (or, stored into, those elements)."""
    if mask.ndim != ty.ndim:
        typer.typing(node, f"a boolean index of {mask.ndim} dimensions for a {ty.ndim}-dimensional array")
    typer.module.includes.add(HEADER)
    heap_arrays.made(typer, node, (IndexError, "boolean index did not match indexed array"))
    typer.masked.add(node)
    return T.ArrayType(ty.dtype, 1)


def masked_code(emitter, node):
    return (f"kiln_masked_read({emitter.expr(node.value)}, {emitter.expr(node.slice)}, "
            f"{heap_arrays.record(emitter, node)})")


def masked_store_code(emitter, target, value):
    """a[mask] = value: a number into every selected element, or a 1-d
    array's elements in turn (as many as the mask selects)."""
    return (f"kiln_masked_store({emitter.expr(target.value)}, {emitter.expr(target.slice)}, "
            f"{emitter.expr(value)}, {heap_arrays.record(emitter, target)});")
