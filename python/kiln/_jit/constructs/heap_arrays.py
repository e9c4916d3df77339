"""Arrays an ``@njit`` function makes on the CPU: ``np.empty``, ``np.zeros``,
``np.ones``, ``np.full`` and their ``_like`` forms, ``np.arange``,
``np.linspace``, ``np.array`` of numbers written out, and copies
(``np.copy(a)``, ``a.copy()``), as Numba's nopython mode has them. Their memory comes from the C heap
(include/kiln/device/jit_heap_arrays.cuh), listed in the calling thread's
arena, which the entry that runs the function for Python frees when it
returns, except the array it hands back (python/kiln/numba/cpu_dispatcher.py).
A CUDA kernel and the functions it calls make none, as in Numba: typing
refuses them there."""
import ast

import numpy as np

from .. import types as T
from .base import Construct
from .local_arrays import array_dtype

_HEADER = "kiln/device/jit_heap_arrays.cuh"


def made(typer, node, error=None):
    """Notes that the module makes arrays (its entry frees them) and, for a
    call that can fail (`error`: exception class and message), the code its
    failure records in debug mode."""
    if not typer.module.host_entry:
        typer.typing(node, "arrays are made (np.empty, np.zeros...) only by @njit functions called from Python; "
                           "a CUDA kernel and the functions it calls make none, as in Numba")
    typer.module.includes.add(_HEADER)
    module = typer.module
    if module.heap_failures is None:
        # What any array made may fail with, recorded by kiln_heap_array
        # through the codes the module's kiln_heap_failure gives (Module.source)
        module.heap_failures = [
            module.exception_code(cls, message, typer.f.filename, node.lineno) if module.records else 0
            for cls, message in ((ValueError, "array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                                              "maximum possible size."),
                                 (MemoryError, "Allocation failed (probably too large)."))]
    typer.module.makes_arrays = True
    if error is not None and node not in typer.raised:
        typer.raised[node] = typer.module.exception_code(*error, typer.f.filename, node.lineno) \
            if typer.module.records else 0


def record(emitter, node):
    """The C++ arguments of the error record and the code of `node`'s failure."""
    code = emitter.typed.raised.get(node, 0)
    return ("&kiln_jit_error" if code else "nullptr") + f", {code}"


def _shape_nodes(typer, node):
    """The expressions of a shape argument: an int, a tuple of ints written
    out, or a tuple value (``a.shape``); None for the last."""
    if isinstance(node, ast.Tuple):
        return list(node.elts)
    if T.is_int(typer.expr(node)):
        return [node]
    return None


def shape_ndim(typer, node):
    items = _shape_nodes(typer, node)
    if items is not None:
        for item in items:
            if not T.is_int(typer.expr(item)):
                typer.typing(node, f"an array's shape takes integers, got {typer.expr(item)}")
        return len(items)
    ty = typer.expr(node)
    if not (isinstance(ty, T.TupleType) and all(T.is_int(t) for t in ty.items)):
        typer.typing(node, f"an array's shape is an int or a tuple of ints, got {ty}")
    return len(ty.items)


def shape_codes(emitter, node):
    if isinstance(node, ast.Tuple):
        return [f"(long long)({emitter.expr(e)})" for e in node.elts]
    ty = emitter.type_of(node)
    if not isinstance(ty, T.TupleType):
        return [f"(long long)({emitter.expr(node)})"]
    if isinstance(node, ast.Attribute) and node.attr == "shape" and \
            isinstance(emitter.type_of(node.value), T.ArrayType):  # an array's shape: its extents
        return [f"{emitter.expr(node.value)}.shape[{d}]" for d in range(len(ty.items))]
    return [f"(long long)kiln_get({k}, {emitter.expr(node)})" for k in range(len(ty.items))]


def _filled(emitter, node, kind, ty, shape_codes, record):
    """The C++ of a new array of type `ty` and shape `shape_codes`, filled as
    np.`kind` (empty, zeros, ones, full) fills it."""
    made = f"kiln_heap_array<{T.c_name(ty.dtype)}, {ty.ndim}>({{{', '.join(shape_codes)}}}, {record})"
    if kind == "empty":
        return made
    value = {"zeros": "0", "ones": "1"}.get(kind) or emitter.expr(_argument(node, 1, "fill_value"))
    return f"kiln_filled({made}, ({T.c_name(ty.dtype)})({value}))"


def _argument(node, position, name):
    if len(node.args) > position:
        return node.args[position]
    return next((k.value for k in node.keywords if k.arg == name), None)


class HeapArray(Construct):
    """np.empty/zeros/ones/full(shape, [fill,] dtype=float64)."""

    def __init__(self, name):
        self.name = name
        self.fill = name == "full"

    def type(self, typer, node):
        shape = _argument(node, 0, "shape")
        if shape is None:
            typer.typing(node, f"np.{self.name}() needs a shape")
        ndim = shape_ndim(typer, shape)
        if ndim == 0:
            typer.unsupported(node, f"np.{self.name}(()) (a 0-d array made in a compiled function)")
        fill = typer.expr(_argument(node, 1, "fill_value")) if self.fill else None
        dtype_node = _argument(node, 2 if self.fill else 1, "dtype")
        if dtype_node is not None:
            dtype = array_dtype(typer, dtype_node)
        elif self.fill and T.is_scalar(fill):  # np.full's dtype is its value's, as NumPy's
            dtype = np.dtype(fill.name)
        else:
            dtype = np.dtype("float64")
        made(typer, node, (ValueError, "negative dimensions are not allowed"))
        return T.ArrayType(dtype, ndim)

    def emit(self, emitter, node):
        return _filled(emitter, node, self.name, emitter.type_of(node),
                       shape_codes(emitter, _argument(node, 0, "shape")), record(emitter, node))


class HeapArrayLike(Construct):
    """np.empty_like/zeros_like/ones_like/full_like(a, [fill,] dtype=a's)."""

    def __init__(self, name):
        self.name = name
        self.fill = name == "full_like"

    def type(self, typer, node):
        like = typer.expr(node.args[0]) if node.args else None
        if not isinstance(like, T.ArrayType):
            typer.typing(node, f"np.{self.name}() takes an array, got {like}")
        if like.ndim == 0:
            typer.unsupported(node, f"np.{self.name}() of a 0-d array")
        dtype_node = _argument(node, 2 if self.fill else 1, "dtype")
        dtype = array_dtype(typer, dtype_node) if dtype_node is not None else like.dtype
        if self.fill:
            typer.expr(_argument(node, 1, "fill_value"))
        made(typer, node)
        return T.ArrayType(dtype, like.ndim)

    def emit(self, emitter, node):
        ty = emitter.type_of(node)
        like = emitter.expr(node.args[0])
        return _filled(emitter, node, self.name[:-len("_like")], ty, [f"{like}.shape[{d}]" for d in range(ty.ndim)],
                       "nullptr, 0")


class Arange(Construct):
    """np.arange(stop), (start, stop) or (start, stop, step), dtype=: NumPy's
    length, ceil((stop - start) / step), and its result type."""

    def type(self, typer, node):
        if not 1 <= len(node.args) <= 3:
            typer.typing(node, "np.arange() takes one to three numbers")
        types = [typer.expr(a) for a in node.args]
        if not all(T.is_int(t) or T.is_float(t) for t in types):
            typer.typing(node, f"np.arange() takes integers or floats, got {types}")
        dtype_node = _argument(node, 3, "dtype")
        if dtype_node is not None:
            dtype = array_dtype(typer, dtype_node)
        else:
            dtype = np.result_type(*[np.dtype(t.name) for t in types])
            dtype = np.dtype("int64") if dtype.kind in "iu" else np.dtype("float64")
        made(typer, node, (ZeroDivisionError, "Maximum allowed size exceeded"))
        return T.ArrayType(dtype, 1)

    def emit(self, emitter, node):
        ty = emitter.type_of(node)
        values = [f"(double)({emitter.expr(a)})" for a in node.args]
        start, stop, step = (["0.0"] + values + ["1.0"])[:3] if len(values) == 1 else (values + ["1.0"])[:3]
        return f"kiln_arange<{T.c_name(ty.dtype)}>({start}, {stop}, {step}, {record(emitter, node)})"


class Linspace(Construct):
    """np.linspace(start, stop, num=50, endpoint=True): NumPy's float64
    points, start + i * step, the last exactly stop."""

    def type(self, typer, node):
        start, stop = _argument(node, 0, "start"), _argument(node, 1, "stop")
        num, endpoint = _argument(node, 2, "num"), _argument(node, 3, "endpoint")
        if start is None or stop is None:
            typer.typing(node, "np.linspace() needs a start and a stop")
        for bound in (start, stop):
            if not (T.is_int(typer.expr(bound)) or T.is_float(typer.expr(bound))):
                typer.typing(node, f"np.linspace() takes real numbers, got {typer.expr(bound)}")
        if num is not None and not T.is_int(typer.expr(num)):
            typer.typing(node, f"np.linspace()'s num is an integer, got {typer.expr(num)}")
        if endpoint is not None:
            typer.expr(endpoint)
        made(typer, node, (ValueError, "Number of samples must be non-negative."))
        return T.ArrayType(np.dtype("float64"), 1)

    def emit(self, emitter, node):
        num, endpoint = _argument(node, 2, "num"), _argument(node, 3, "endpoint")
        return (f"kiln_linspace((double)({emitter.expr(_argument(node, 0, 'start'))}), "
                f"(double)({emitter.expr(_argument(node, 1, 'stop'))}), "
                f"(long long)({emitter.expr(num) if num is not None else 50}), "
                f"(bool)({emitter.expr(endpoint) if endpoint is not None else 'true'}), {record(emitter, node)})")


def _nested_values(typer, node):
    """(shape, item nodes in C order) of a list or tuple of numbers written
    out, nested to any depth with rows of one length."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        return (), [node]
    rows = [_nested_values(typer, e) for e in node.elts]
    if not rows:
        typer.unsupported(node, "np.array() of an empty list (its dtype is unknown)")
    if len({shape for shape, _ in rows}) != 1:
        typer.typing(node, "np.array() of rows of different lengths")
    return (len(rows),) + rows[0][0], [item for _, items in rows for item in items]


class ArrayOfValues(Construct):
    """np.array([...]) / np.asarray of numbers written out (a list or a
    tuple, nested for more dimensions), dtype= or NumPy's promotion of them."""

    def type(self, typer, node):
        given = _argument(node, 0, "object")
        if not isinstance(given, (ast.List, ast.Tuple)):
            typer.unsupported(node, "np.array() of anything but a list or tuple of numbers written out")
        shape, items = _nested_values(typer, given)
        types = [typer.expr(item) for item in items]
        typer.scalars(node, *types)
        dtype_node = _argument(node, 1, "dtype")
        dtype = array_dtype(typer, dtype_node) if dtype_node is not None else \
            np.result_type(*[np.dtype(t.name) for t in types])
        node.kiln_values = (shape, items)
        made(typer, node)
        return T.ArrayType(dtype, len(shape))

    def emit(self, emitter, node):
        shape, items = node.kiln_values
        ty = emitter.type_of(node)
        c = T.c_name(ty.dtype)
        values = ", ".join(f"({c})({emitter.expr(item)})" for item in items)
        return f"kiln_heap_values<{c}, {ty.ndim}>({{{', '.join(f'{n}LL' for n in shape)}}}, {values})"


class Copy(Construct):
    """np.copy(a) and a.copy(): a new C-ordered array of a's elements."""

    def __init__(self, method):
        self.method = method

    def _source(self, node):
        return node.func.value if self.method else _argument(node, 0, "a")

    def type(self, typer, node):
        source = self._source(node)
        ty = typer.types[source] if self.method else typer.expr(source) if source is not None else None
        if not isinstance(ty, T.ArrayType) or ty.ndim == 0:
            typer.typing(node, f"copy() of an array of one or more dimensions, not {ty}")
        made(typer, node)
        return T.ArrayType(ty.dtype, ty.ndim)

    def emit(self, emitter, node):
        return f"kiln_heap_copy({emitter.expr(self._source(node))})"


def hand_over(array, info):
    """The entry's hand-over of a result array to Python (cpu_dispatcher.py):
    where its elements are, its shape and strides, written to an int64 array,
    and the block holding them kept from the arena. Not for users' code."""


def release():
    """The entry's last step: the arena's blocks freed. Not for users' code."""


class HandOver(Construct):
    def type(self, typer, node):
        for a in node.args:
            typer.expr(a)
        typer.module.includes.add(_HEADER)
        return None

    def emit(self, emitter, node):
        return f"kiln_heap_hand_over({', '.join(emitter.expr(a) for a in node.args)})"


class Release(Construct):
    def type(self, typer, node):
        typer.module.includes.add(_HEADER)
        return None

    def emit(self, emitter, node):
        return "kiln_heap_release()"


def constructs():
    made = {getattr(np, n): HeapArray(n) for n in ("empty", "zeros", "ones", "full")}
    made.update({getattr(np, n): HeapArrayLike(n) for n in ("empty_like", "zeros_like", "ones_like", "full_like")})
    made[np.arange] = Arange()
    made[np.linspace] = Linspace()
    made[np.array] = made[np.asarray] = ArrayOfValues()
    made[np.copy] = Copy(method=False)
    made[hand_over] = HandOver()
    made[release] = Release()
    return made


METHODS = {(T.ArrayType, "copy"): Copy(method=True)}
