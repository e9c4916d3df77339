"""Arrays a kernel makes: ``cuda.shared.array(shape, dtype)`` (a shape of 0
is the dynamic shared memory sized at launch) and CuPy's
``jit.shared_memory(dtype, size)``, ``cuda.local.array(shape, dtype)`` and
``cuda.const.array_like(values)``, and a captured NumPy array's
``copy()`` (a local array holding its values). They are statements
(``name = cuda.shared.array(...)``), typed by infer.py and declared by
emit.py through this file."""
import ast

import numpy as np

from ..._numba_cuda import kernel_language as K
from ..._ndarray.dtypes import normalize
from .. import types as T
from ..errors import TypingError


def array_dtype(typer, node, target=None):
    """The NumPy dtype a shared/local array (or carray's dtype=) names: a
    type, a dtype or its name, a structured dtype or Numba's Record.
    `target`: the name the array is given, for Numba's message."""
    value = typer.constant(node)
    structured = getattr(value, "dtype", value)  # a Record (from_dtype of a structured dtype) or the dtype
    if isinstance(structured, np.dtype) and T.is_record(structured):
        return structured
    if isinstance(value, np.dtype) and value.kind == "O":  # a valid dtype that kernels have no type for
        typer.typing(node, f"Cannot infer the type of variable '{target or '?'}': arrays of Python objects are "
                           "not supported in kernels")
    try:
        return np.dtype(normalize(value).name)
    except TypeError:
        typer.typing(node, f"Invalid NumPy dtype specified: {value!r}")


def describe(typer, node, target=None):
    """(ArrayType, kind, shape, constant values) of an array-making call
    (assigned to the name `target`), or None."""
    if isinstance(node, ast.Call) and typer.global_value(node.func) is K.shared_memory:
        if len(node.args) < 2:
            typer.typing(node, "shared_memory takes (dtype, size)")
        size = typer.constant(node.args[1])
        dtype = array_dtype(typer, node.args[0])
        if not isinstance(size, (int, np.integer, type(None))):
            typer.typing(node, "a shared_memory size is a constant int (None or 0: sized at launch)")
        return T.ArrayType(dtype, 1), "shared", (int(size or 0),), None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    owner = typer.global_value(node.func.value)
    if node.func.attr == "copy" and isinstance(owner, np.ndarray) and not node.args and not node.keywords:
        # A captured NumPy array's copy: a local array of its shape holding its
        # values (the shape is known when compiling; other arrays' copies need
        # memory allocated in the kernel, which kiln does not have).
        if owner.dtype.kind not in "biufc" or not 1 <= owner.ndim <= 3 or not owner.size or owner.nbytes > 16384:
            typer.unsupported(node, "copy() of a captured array other than one of 1 to 3 dimensions of numbers "
                                    "and at most 16 KiB")
        return T.ArrayType(owner.dtype, owner.ndim), "local", owner.shape, np.ascontiguousarray(owner)
    kind = {id(K.shared): "shared", id(K.local): "local", id(K.const): "const"}.get(id(owner))
    if kind in ("shared", "local") and node.func.attr == "array":
        shape_node = node.args[0] if node.args else next(k.value for k in node.keywords if k.arg == "shape")
        dtype_node = node.args[1] if len(node.args) > 1 else next(k.value for k in node.keywords if k.arg == "dtype")
        try:
            shape = typer.constant(shape_node)
        except TypingError:
            shape = None
        if not isinstance(shape, (tuple, int, np.integer)):
            _no_implementation(typer, node, kind, shape_node, dtype_node)
        shape = shape if isinstance(shape, tuple) else (shape,)
        dtype = array_dtype(typer, dtype_node, target)
        if not all(isinstance(s, (int, np.integer)) for s in shape) or not 1 <= len(shape) <= 3:
            typer.typing(node, "a shared or local array's shape is 1 to 3 constant ints")
        if kind == "local" and 0 in shape:
            typer.typing(node, "a local array needs a nonzero constant shape")
        alignment(typer, node)
        return T.ArrayType(dtype, len(shape)), kind, tuple(int(s) for s in shape), None
    if kind == "const" and node.func.attr == "array_like":
        values = np.asarray(typer.constant(node.args[0]))
        return T.ArrayType(values.dtype, values.ndim), "const", values.shape, values
    return None


def _no_implementation(typer, node, kind, shape_node, dtype_node):
    """Numba's TypingError for a shape that is not a constant int or tuple
    of them (a list, a number known only when running), with the signature
    it could not match in Numba's names of types."""
    try:
        dtype = typer.constant(dtype_node)
        dtype = f"Literal[str]({dtype})" if isinstance(dtype, str) else f"class({np.dtype(normalize(dtype).name)})"
    except (TypingError, TypeError):
        dtype = "?"
    typer.typing(node, f"No implementation of function Function(<function {kind}.array>) found for signature:\n \n "
                       f">>> array(shape={_numba_type_name(typer, shape_node)}, dtype={dtype})\n \n"
                       "(a shared or local array's shape is a constant int or a tuple of 1 to 3 of them)")


def _numba_type_name(typer, node):
    """How Numba names the type of the expression `node`: Literal[int](5),
    list(int64)<iv=[5, 6]>, float32, array(float32, 1d, A), Tuple(...)."""
    try:
        value = [typer.constant(e) for e in node.elts] if isinstance(node, ast.List) else typer.constant(node)
    except TypingError:
        value = None
    if isinstance(value, list):  # its items' type, not literal: Python ints are int64, floats float64
        item = "undefined" if not value else T.of_value(value[0]).name
        return f"list({item})<iv={value!r}>"
    if isinstance(value, bool):
        return f"Literal[bool]({value})"
    if isinstance(value, (int, np.integer)):
        return f"Literal[int]({value})"
    if isinstance(node, ast.Tuple):
        return f"Tuple({', '.join(_numba_type_name(typer, e) for e in node.elts)})"
    ty = typer.expr(node)
    if isinstance(ty, T.ArrayType):
        return f"array({ty.dtype.name}, {ty.ndim}d, A)"  # the layout as Numba names any
    if isinstance(ty, T.TupleType):
        return f"Tuple({', '.join(str(t) for t in ty.items)})"
    return str(ty)


def alignment(typer, node):
    """A shared or local array's ``alignment=`` in bytes, or None: Numba's
    rules (a constant int, positive, a power of two, a multiple of a
    pointer's size) and its errors."""
    given = next((k.value for k in node.keywords if k.arg == "alignment"), None)
    value = None if given is None else typer.constant(given)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        typer.typing(node, f"RequireLiteralValue: alignment must be a constant integer, not {value!r}")
    if value <= 0:
        raise ValueError(f"Alignment must be positive, not {value}")
    if value & (value - 1):
        raise ValueError(f"Alignment must be a power of 2, not {value}")
    if value % 8:
        raise ValueError(f"Alignment must be a multiple of 8 (a pointer's size), not {value}")
    return int(value)


def declare(emitter, name, node):
    """The C++ lines that make the array `name`: a C array of the declared
    shape where it has one (indexing it directly keeps shared memory in the
    shared address space and folds the constant strides), and a view of it."""
    ty, kind, shape, values = describe(emitter.typed, node, name)
    ce = T.c_name(ty.dtype)
    storage = f"_{kind}_{name}"
    if kind == "shared" and shape[0] == 0:
        emitter.module.needs_dynamic_shared = True
        data = f"reinterpret_cast<{ce}*>(kiln_dynamic_shared)"
        rest = int(np.prod(shape[1:], dtype=np.int64))
        shape = (f"(kiln_dynamic_shared_bytes() / {ty.dtype.itemsize * rest})",) + shape[1:]  # sized at launch
    elif kind == "const":
        data = emitter.module.constant_array(ty.dtype, values)
    else:
        qualifier = "__shared__ " if kind == "shared" else ""
        aligned = alignment(emitter.typed, node)
        qualifier += f"__align__({aligned}) " if aligned else ""
        emitter.line(f"{qualifier}{ce} {storage}{''.join(f'[{d}]' for d in shape)};")
        emitter.direct[name] = (storage, shape)
        data = f"reinterpret_cast<{ce}*>({storage})"
        if values is not None:  # a captured array's copy: its values, from constant data
            source = emitter.module.constant_array(ty.dtype, values)
            emitter.line(f"for (long long kiln_k = 0; kiln_k < {values.size}LL; ++kiln_k) "
                         f"{data}[kiln_k] = ({source})[kiln_k];")
    emitter.line(view_line(ty, name, data, shape))


def view_line(ty, name, data, shape):
    """The C++ declaring `name` as a C-ordered view of `data` of `shape` (the
    first extent may be a C++ expression: a launch's)."""
    strides, step = [], ty.dtype.itemsize
    for s in reversed(shape):
        strides.insert(0, step)
        step *= s if isinstance(s, int) else 1  # the first extent (a launch's) scales no stride
    extents = ", ".join(f"{s}LL" if isinstance(s, int) else s for s in shape)
    return f"const {ty.c_name} {name} = {{{data}, {{{extents}}}, {{{', '.join(f'{s}LL' for s in strides)}}}}};"
