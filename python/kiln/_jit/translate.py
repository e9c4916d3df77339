"""Numba's CUDA kernel language, translated from a Python function's AST to
CUDA C++ for one set of argument types.

Types are inferred as Numba does: each local keeps one type (the promotion of
everything assigned to it), literals are int64/float64/bool, arithmetic
promotes as NumPy does, `/` is true division, `//` and `%` round toward
negative infinity. Every statement carries a `#line` of the Python source,
so C++ errors point at the Python line.
"""
import ast
import inspect
import math
import textwrap

import numpy as np

from .._core import CompileError
from . import types as T
from .errors import TypingError, UnsupportedError


_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
# math functions: the result is the float type of the arguments (float64 for integers).
_MATH_FLOAT = {"sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "asin", "acos",
               "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs", "erf", "erfc", "lgamma",
               "atan2", "pow", "hypot", "copysign", "fmod", "cbrt", "exp2"}
_MATH_RENAMED = {"gamma": "tgamma"}
_MATH_TO_INT = {"floor", "ceil", "trunc"}
_MATH_TESTS = {"isnan", "isinf", "isfinite"}
_MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}
_ATOMICS = {"add", "sub", "max", "min", "and_", "or_", "xor", "exch", "inc", "dec", "nanmax", "nanmin"}
_DIM3 = ("threadIdx", "blockIdx", "blockDim", "gridDim")
_SYNC = {"syncthreads": "__syncthreads()", "syncwarp": "__syncwarp()", "threadfence": "__threadfence()",
         "threadfence_block": "__threadfence_block()", "threadfence_system": "__threadfence_system()"}
_SYNC_VALUE = {"syncthreads_count": ("__syncthreads_count", T.INT32), "syncthreads_and": ("__syncthreads_and", T.INT32),
               "syncthreads_or": ("__syncthreads_or", T.INT32)}
_SHUFFLES = {"shfl_sync": "__shfl_sync", "shfl_up_sync": "__shfl_up_sync", "shfl_down_sync": "__shfl_down_sync",
             "shfl_xor_sync": "__shfl_xor_sync"}
_VOTES = {"all_sync": "__all_sync", "any_sync": "__any_sync", "ballot_sync": "__ballot_sync"}


class _Unknown(Exception):
    """A name whose type inference has not reached yet (retried on the next pass)."""


class Function:
    """The parsed source of a Python function, shared by its specialisations."""

    def __init__(self, pyfunc):
        self.pyfunc = pyfunc
        self.name = pyfunc.__name__
        try:
            lines, self.first_line = inspect.getsourcelines(pyfunc)
        except (OSError, TypeError):
            raise UnsupportedError(f"kiln.cuda.jit needs the source of {self.name} (it was not found)") from None
        self.filename = inspect.getsourcefile(pyfunc) or "<unknown>"
        tree = ast.parse(textwrap.dedent("".join(lines)))
        self.node = tree.body[0]
        if not isinstance(self.node, ast.FunctionDef):
            raise UnsupportedError(f"{self.name}: only functions defined with def can be jitted")
        ast.increment_lineno(tree, self.first_line - 1)
        args = self.node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs:
            self.error(UnsupportedError, self.node, "default, keyword-only and variable arguments")
        self.params = [a.arg for a in args.args]
        closure = inspect.getclosurevars(pyfunc)
        self.scope = {**pyfunc.__globals__, **closure.nonlocals}

    def error(self, kind, node, what):
        line = getattr(node, "lineno", self.first_line)
        raise kind(f"{what} (in {self.name}, {self.filename}:{line})")


class Translation:
    """One specialisation: C++ for `function` with parameter types `arg_types`.

    kernel=True gives an extern "C" __global__ function; otherwise a
    __device__ function whose return type is inferred. `module` collects the
    definitions the translation needs (device functions, constant arrays)."""

    def __init__(self, function, arg_types, module, kernel, c_name):
        self.f, self.module, self.kernel, self.c_name = function, module, kernel, c_name
        self.arg_types = list(arg_types)
        if len(self.arg_types) != len(function.params):
            raise TypeError(f"{function.name} takes {len(function.params)} arguments, got {len(self.arg_types)}")
        self.locals = dict(zip(function.params, self.arg_types))
        self.arrays = {}  # locals that are shared/local/constant arrays: name -> ArrayType
        self.direct = {}  # those declared as C arrays: name -> (C name, shape)
        self.return_type = None
        self._infer()
        self.lines = []
        self._emit_function()

    # ---- errors and constants -------------------------------------------------
    def unsupported(self, node, what):
        self.f.error(UnsupportedError, node, what)

    def typing(self, node, what):
        self.f.error(TypingError, node, what)

    def constant(self, node):
        """The value of a compile-time expression: literals, module constants, their tuples."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Tuple):
            return tuple(self.constant(e) for e in node.elts)
        if isinstance(node, ast.Name) and node.id not in self.locals and node.id in self.f.scope:
            return self.f.scope[node.id]
        if isinstance(node, ast.Attribute):
            return getattr(self.constant(node.value), node.attr)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.constant(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv):
            a, b = self.constant(node.left), self.constant(node.right)
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(node.op), a // b if b else 0)
        self.typing(node, "expected a constant (a literal or a module-level value)")

    def global_value(self, node):
        """What a name or attribute chain outside the locals refers to, or None."""
        if isinstance(node, ast.Name):
            if node.id in self.locals or node.id in self.arrays:
                return None
            if node.id not in self.f.scope:
                import builtins

                return getattr(builtins, node.id, None)
            return self.f.scope[node.id]
        if isinstance(node, ast.Attribute):
            base = self.global_value(node.value)
            return None if base is None else getattr(base, node.attr, None)
        return None

    # ---- type inference --------------------------------------------------------
    def _infer(self):
        # Locals that may hold a negative number: array indices built only from
        # the others skip Python's wraparound (a compare and a select an index).
        self.maybe_negative = {p for p, t in zip(self.f.params, self.arg_types) if not (T.is_scalar(t) and t.kind in "ub")}
        for _ in range(8):
            before = dict(self.locals), self.return_type, set(self.maybe_negative)
            self._inferring = True
            self._infer_block(self.f.node.body)
            if (dict(self.locals), self.return_type, self.maybe_negative) == before:
                break
        self._inferring = False

    def _infer_block(self, body):
        for stmt in body:
            try:
                self._infer_statement(stmt)
            except _Unknown:
                pass

    def _infer_statement(self, s):
        if isinstance(s, ast.Assign):
            for target in s.targets:
                self._infer_target(target, s.value)
        elif isinstance(s, ast.AnnAssign) and s.value is not None:
            self._infer_target(s.target, s.value)
        elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
            node = ast.BinOp(left=ast.Name(id=s.target.id, ctx=ast.Load()), op=s.op, right=s.value)
            ast.copy_location(node, s)
            self._bind(s.target.id, self.expr(node)[1], s, node)
        elif isinstance(s, ast.For):
            if isinstance(s.target, ast.Name):
                args = s.iter.args if isinstance(s.iter, ast.Call) else []
                counts_up = len(args) < 3 or (isinstance(args[2], ast.Constant) and args[2].value > 0)
                from_zero = len(args) < 2 or self.non_negative(args[0])
                self._bind(s.target.id, T.INT64, s, ast.Constant(value=0 if counts_up and from_zero else -1))
            self._infer_block(s.body)
        elif isinstance(s, (ast.While, ast.If)):
            self._infer_block(s.body)
            self._infer_block(s.orelse)
        elif isinstance(s, ast.Return) and s.value is not None and not self.kernel:
            self.return_type = T.unify(self.return_type, self.expr(s.value)[1])

    def _infer_target(self, target, value):
        if isinstance(target, ast.Name):
            created = self._array_creation(value)
            if created is not None:
                self.arrays[target.id] = created[0]
                return
            self._bind(target.id, self.expr(value)[1], target, value)
        elif isinstance(target, ast.Tuple):
            items = self.tuple_items(value)
            if len(items) != len(target.elts):
                self.typing(target, f"cannot unpack {len(items)} values into {len(target.elts)} names")
            item_nodes = self._item_nodes(value, len(items))
            for t, (_, ty), item in zip(target.elts, items, item_nodes):
                if isinstance(t, ast.Name):
                    self._bind(t.id, ty, t, item)

    def _bind(self, name, ty, node, value=None):
        if value is None or not self.non_negative(value):
            self.maybe_negative.add(name)
        if name in self.f.params and self.locals[name] != T.unify(self.locals[name], ty):
            self.typing(node, f"cannot assign {ty} to the argument '{name}' of type {self.locals[name]}")
        try:
            self.locals[name] = T.unify(self.locals.get(name), ty)
        except TypeError as e:
            self.typing(node, f"'{name}': {e}")

    def _item_nodes(self, value, count):
        """The AST of each item of a tuple-valued expression, where there is one per item
        (None where the items have no node: they count as maybe negative)."""
        if isinstance(value, ast.Tuple):
            return value.elts
        if isinstance(value, ast.IfExp) and isinstance(value.body, ast.Tuple) and isinstance(value.orelse, ast.Tuple):
            return [ast.IfExp(test=value.test, body=a, orelse=b) for a, b in zip(value.body.elts, value.orelse.elts)]
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
                self.global_value(value.func.value) is _cuda_module() and value.func.attr in ("grid", "gridsize"):
            return [ast.Constant(value=0)] * count  # positions and sizes are never negative
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            return [ast.Constant(value=0)] * count
        return [None] * count

    def non_negative(self, node):
        """Whether `node` can be shown never to be negative (conservatively)."""
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, float)) and node.value >= 0
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return node.id not in self.maybe_negative
            value = self.global_value(node)
            return isinstance(value, (int, float, np.generic)) and not isinstance(value, np.ndarray) and value >= 0
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Attribute) and node.value.attr in _DIM3:
                return True
            return node.attr in ("size", "ndim", "warpsize", "laneid")
        if isinstance(node, ast.Subscript):
            base = node.value
            return (isinstance(base, ast.Attribute) and base.attr == "shape") or isinstance(base, ast.Call)
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, (ast.Add, ast.Mult, ast.FloorDiv, ast.Mod, ast.LShift, ast.RShift, ast.BitAnd,
                                        ast.Pow)) and self.non_negative(node.left) and self.non_negative(node.right)
        if isinstance(node, ast.IfExp):
            return self.non_negative(node.body) and self.non_negative(node.orelse)
        if isinstance(node, ast.Call):
            fn = self.global_value(node.func)
            if fn in (len, abs):
                return True
            if fn in (min, max, int, round):
                return all(self.non_negative(a) for a in node.args)
            return isinstance(node.func, ast.Attribute) and node.func.attr in ("grid", "gridsize") and \
                self.global_value(node.func.value) is _cuda_module()
        return False

    def index_code(self, array, nodes_and_items, ndim):
        """`array.at(...)` with each index wrapped unless it is never negative
        (a shared or local array of constant shape is indexed as a C array)."""
        direct = self.direct.get(array)
        parts = []
        for d, (node, (code, _)) in enumerate(nodes_and_items):
            index = f"(long long)({code})"
            if node is None or not self.non_negative(node):
                index = (f"kiln_wrap({index}, {direct[1][d]}LL)" if direct else f"{array}.wrap({index}, {d})")
            parts.append(index)
        if direct:
            return direct[0] + "".join(f"[{p}]" for p in parts)
        return f"{array}.at({', '.join(parts)})"

    # ---- expressions: (C++ code, type) ------------------------------------------
    def expr(self, node):
        method = getattr(self, "_expr_" + type(node).__name__, None)
        if method is None:
            self.unsupported(node, f"the expression {type(node).__name__}")
        return method(node)

    def _expr_Constant(self, node):
        v = node.value
        if isinstance(v, bool):
            return ("true" if v else "false"), T.BOOL
        if isinstance(v, int):
            return f"{v}LL", T.INT64
        if isinstance(v, float):
            return _float_literal(v), T.FLOAT64
        self.unsupported(node, f"the constant {v!r}")

    def _expr_Name(self, node):
        if node.id in self.locals:
            ty = self.locals[node.id]
            if isinstance(ty, T.TupleType):
                self.typing(node, f"the tuple '{node.id}' can only be indexed or unpacked")
            return node.id, ty
        if node.id in self.arrays:
            return node.id, self.arrays[node.id]
        value = self.global_value(node)
        if isinstance(value, (bool, int, float, np.generic)) and not isinstance(value, np.ndarray):
            ty = T.of_value(value)
            return _literal(value, ty), ty
        if self._inferring and node.id not in self.f.scope:
            raise _Unknown(node.id)
        self.typing(node, f"the name '{node.id}' is not a local, an argument or a module-level number")

    def _expr_BinOp(self, node):
        a, ta = self.expr(node.left)
        b, tb = self.expr(node.right)
        self._scalars(node, ta, tb)
        op = type(node.op)
        if op is ast.Div:
            r = T.FLOAT64 if not (T.is_float(ta) or T.is_float(tb)) else T.promote(ta, tb)
            return f"(({T.c_name(r)})({a}) / ({T.c_name(r)})({b}))", r
        r = T.promote(ta, tb)
        cr = T.c_name(r)
        if op is ast.FloorDiv:
            return (f"kiln_floordiv(({cr})({a}), ({cr})({b}))" if T.is_int(r)
                    else f"{_fn('floor', r)}(({cr})({a}) / ({cr})({b}))"), r
        if op is ast.Mod:
            return (f"kiln_mod(({cr})({a}), ({cr})({b}))" if T.is_int(r)
                    else f"kiln_fmod(({cr})({a}), ({cr})({b}))"), r
        if op is ast.Pow:
            if T.is_int(r):
                return f"kiln_ipow(({cr})({a}), (long long)({b}))", r
            return f"{_fn('pow', r)}(({cr})({a}), ({cr})({b}))", r
        if op in (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift) and not (
                T.is_int(r) or (ta.kind == tb.kind == "b" and op in (ast.BitAnd, ast.BitOr, ast.BitXor))):
            self.typing(node, f"bitwise operators need integers, not {ta} and {tb}")
        if op in (ast.BitAnd, ast.BitOr, ast.BitXor) and ta.kind == tb.kind == "b":
            return f"(({a}) {_BINOPS[op]} ({b}))", T.BOOL
        if op not in _BINOPS:
            self.unsupported(node, f"the operator {op.__name__}")
        return f"(({cr})({a}) {_BINOPS[op]} ({cr})({b}))", r

    def _expr_UnaryOp(self, node):
        a, ta = self.expr(node.operand)
        self._scalars(node, ta)
        if isinstance(node.op, ast.Not):
            return f"(!({a}))", T.BOOL
        r = T.INT64 if ta.kind == "b" else ta
        if isinstance(node.op, ast.USub):
            return f"(-({T.c_name(r)})({a}))", r
        if isinstance(node.op, ast.UAdd):
            return f"(({T.c_name(r)})({a}))", r
        if not T.is_int(r):
            self.typing(node, f"~ needs an integer, not {ta}")
        return f"(~({a}))", r

    def _expr_BoolOp(self, node):
        op = " && " if isinstance(node.op, ast.And) else " || "
        parts = [self.expr(v) for v in node.values]
        self._scalars(node, *(t for _, t in parts))
        return "(" + op.join(f"(bool)({c})" for c, _ in parts) + ")", T.BOOL

    def _expr_Compare(self, node):
        terms, left = [], self.expr(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            if type(op) not in _COMPARE:
                self.unsupported(node, f"the comparison {type(op).__name__}")
            right = self.expr(right_node)
            self._scalars(node, left[1], right[1])
            common = T.c_name(T.promote(left[1], right[1]))
            terms.append(f"(({common})({left[0]}) {_COMPARE[type(op)]} ({common})({right[0]}))")
            left = right
        return "(" + " && ".join(terms) + ")", T.BOOL

    def _expr_IfExp(self, node):
        c, _ = self.expr(node.test)
        a, ta = self.expr(node.body)
        b, tb = self.expr(node.orelse)
        self._scalars(node, ta, tb)
        r = T.unify(ta, tb)
        return f"((bool)({c}) ? ({T.c_name(r)})({a}) : ({T.c_name(r)})({b}))", r

    def _expr_Subscript(self, node):
        base = node.value
        items = None
        if isinstance(base, ast.Attribute) and base.attr == "shape" or (
                isinstance(base, ast.Name) and isinstance(self.locals.get(base.id), T.TupleType)) or (
                isinstance(base, ast.Call)):
            items = self.tuple_items(base)
        if items is not None:
            k = self.constant(node.slice)
            if not isinstance(k, int) or not -len(items) <= k < len(items):
                self.typing(node, "a tuple is indexed by a constant in range")
            return items[k]
        code, ty = self.expr(base)
        if not isinstance(ty, T.ArrayType):
            self.typing(node, f"cannot index a {ty}")
        if any(isinstance(i, ast.Slice) for i in getattr(node.slice, "elts", [node.slice])):
            self.unsupported(node, "array slicing (views) inside a kernel")
        if isinstance(node.slice, ast.Tuple) or (
                isinstance(node.slice, ast.Name) and isinstance(self.locals.get(node.slice.id), T.TupleType)):
            indices = self.tuple_items(node.slice)
            index_nodes = node.slice.elts if isinstance(node.slice, ast.Tuple) else [
                ast.Constant(value=0) if node.slice.id not in self.maybe_negative else None] * len(indices)
        else:
            indices, index_nodes = [self.expr(node.slice)], [node.slice]
        if len(indices) != ty.ndim:
            self.typing(node, f"a {ty.ndim}-dimensional array takes {ty.ndim} indices, got {len(indices)}")
        for c, t in indices:
            if not (T.is_int(t) or (T.is_scalar(t) and t.kind == "b")):
                self.typing(node, f"array indices must be integers, not {t}")
        return self.index_code(code, list(zip(index_nodes, indices)), ty.ndim), ty.dtype

    def _expr_Attribute(self, node):
        value = self.global_value(node)
        cuda = _cuda_module()
        if isinstance(node.value, ast.Attribute) and self.global_value(node.value) is not None and \
                self.global_value(node.value.value) is cuda and node.value.attr in _DIM3:
            if node.attr not in "xyz" or len(node.attr) != 1:
                self.typing(node, f"cuda.{node.value.attr} has x, y and z")
            return f"((int){node.value.attr}.{node.attr})", T.INT32
        if self.global_value(node.value) is cuda:
            if node.attr == "warpsize":
                return "32", T.INT32
            if node.attr == "laneid":
                return ("((int)((threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y)"
                        " & 31))"), T.INT32
        if value is not None and self.global_value(node.value) is math and node.attr in _MATH_CONSTANTS:
            return _float_literal(_MATH_CONSTANTS[node.attr]), T.FLOAT64
        if isinstance(value, (bool, int, float, np.generic)):
            ty = T.of_value(value)
            return _literal(value, ty), ty
        code, ty = self.expr(node.value)
        if isinstance(ty, T.ArrayType):
            if node.attr == "size":
                return f"{code}.size()", T.INT64
            if node.attr == "ndim":
                return f"{ty.ndim}LL", T.INT64
            if node.attr == "shape":
                self.typing(node, "shape is a tuple: index it or unpack it")
        self.unsupported(node, f"the attribute .{node.attr} of a {ty}")

    def _expr_Call(self, node):
        if node.keywords:
            self.unsupported(node, "keyword arguments in calls inside a kernel")
        fn = self.global_value(node.func)
        cuda = _cuda_module()
        owner = self.global_value(node.func.value) if isinstance(node.func, ast.Attribute) else None
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        args = node.args
        if owner is cuda or owner is getattr(cuda, "atomic", None):
            return self._cuda_call(node, name, args, atomic=owner is not cuda)
        if owner is math or (owner is np and name in _MATH_FLOAT | _MATH_TO_INT | _MATH_TESTS | {"absolute"}):
            return self._math_call(node, "fabs" if name == "absolute" else name, args)
        if fn is abs:
            (a, ta), = self._args(node, args, 1)
            if T.is_int(ta) or ta.kind == "b":
                r = T.INT64 if ta.kind == "b" else ta
                return f"(({a}) < 0 ? -({T.c_name(r)})({a}) : ({T.c_name(r)})({a}))", r
            return f"{_fn('fabs', ta)}({a})", ta
        if fn in (min, max):
            parts = self._args(node, args, None)
            r = parts[0][1]
            for _, t in parts[1:]:
                r = T.promote(r, t) if (r.kind == "b") != (t.kind == "b") or r != t else r
            code = f"({T.c_name(r)})({parts[0][0]})"
            for c, _ in parts[1:]:
                cmp = "<" if fn is min else ">"
                other = f"({T.c_name(r)})({c})"
                code = f"({other} {cmp} {code} ? {other} : {code})"
            return code, r
        if fn is round:
            if len(args) != 1:
                self.unsupported(node, "round() with ndigits")
            (a, ta), = self._args(node, args, 1)
            return (f"(long long){_fn('rint', ta)}({a})" if T.is_float(ta) else f"(long long)({a})"), T.INT64
        if fn in (int, float, bool) or (isinstance(fn, type) and issubclass(fn, np.generic)):
            target = {int: T.INT64, float: T.FLOAT64, bool: T.BOOL}.get(fn) or np.dtype(fn)
            (a, ta), = self._args(node, args, 1)
            if target.kind == "b":
                return f"(({a}) != 0)", T.BOOL
            return f"(({T.c_name(target)})({a}))", target
        if fn is len:
            (a, ta), = self._args(node, args, 1)
            if not isinstance(ta, T.ArrayType):
                self.typing(node, f"len() of a {ta}")
            return f"{a}.shape[0]", T.INT64
        if fn is complex:
            self.unsupported(node, "complex numbers in kernels")
        if getattr(fn, "_kiln_device_function", False):
            return self._device_call(node, fn, args)
        self.unsupported(node, f"calling {ast.unparse(node.func)}")

    def _args(self, node, args, count):
        if count is not None and len(args) != count:
            self.typing(node, f"{ast.unparse(node.func)} takes {count} arguments, got {len(args)}")
        parts = [self.expr(a) for a in args]
        self._scalars(node, *(t for _, t in parts))
        return parts

    def _math_call(self, node, name, args):
        parts = self._args(node, args, 2 if name in ("atan2", "pow", "hypot", "copysign", "fmod") else 1)
        r = T.FLOAT64
        if all(T.is_float(t) for _, t in parts):
            r = parts[0][1]
            for _, t in parts[1:]:
                r = T.promote(r, t)
        cr = T.c_name(r)
        call = ", ".join(f"({cr})({c})" for c, _ in parts)
        if name in _MATH_TESTS:
            if not T.is_float(parts[0][1]):
                return "false" if name != "isfinite" else "true", T.BOOL
            return f"kiln_{name}({parts[0][0]})", T.BOOL
        if name in _MATH_TO_INT:
            return f"(long long){_fn(name, r)}({call})", T.INT64
        if name in _MATH_FLOAT or name in _MATH_RENAMED:
            return f"{_fn(_MATH_RENAMED.get(name, name), r)}({call})", r
        self.unsupported(node, f"math.{name}")

    def _cuda_call(self, node, name, args, atomic):
        if atomic:
            return self._atomic(node, name, args)
        if name in ("grid", "gridsize"):
            if self.constant(args[0]) != 1:
                self.typing(node, f"cuda.{name}(n) is a tuple for n > 1: unpack it")
            return self.tuple_items(node)[0]
        if name in _SYNC:
            return _SYNC[name], None
        if name in _SYNC_VALUE:
            (a, _), = self._args(node, args, 1)
            fn, ty = _SYNC_VALUE[name]
            return f"{fn}((int)({a}))", ty
        if name in _SHUFFLES:
            (mask, _), (value, tv), (lane, _) = self._args(node, args, 3)
            return f"{_SHUFFLES[name]}((unsigned)({mask}), {value}, (int)({lane}))", tv
        if name in _VOTES:
            (mask, _), (pred, _) = self._args(node, args, 2)
            return f"{_VOTES[name]}((unsigned)({mask}), (int)({pred}))", T.INT32 if name != "ballot_sync" else \
                np.dtype("uint32")
        if name == "fma":
            (a, ta), (b, tb), (c, tc) = self._args(node, args, 3)
            r = T.promote(T.promote(ta, tb), tc)
            return f"{_fn('fma', r)}(({T.c_name(r)})({a}), ({T.c_name(r)})({b}), ({T.c_name(r)})({c}))", r
        self.unsupported(node, f"cuda.{name}")

    def _atomic(self, node, name, args):
        if name == "compare_and_swap":
            args = [args[0], ast.Constant(value=0), *args[1:]]
            name = "cas"
        if name not in _ATOMICS | {"cas"}:
            self.unsupported(node, f"cuda.atomic.{name}")
        arr, ty = self.expr(args[0])
        if not isinstance(ty, T.ArrayType):
            self.typing(node, f"cuda.atomic.{name} needs an array first, not {ty}")
        if ty.dtype.itemsize not in (4, 8):
            self.typing(node, f"cuda.atomic.{name} works on 32- and 64-bit elements, not {ty.dtype}")
        index_node = args[1]
        indices = (self.tuple_items(index_node) if isinstance(index_node, ast.Tuple) else [self.expr(index_node)])
        nodes = index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]
        if len(indices) != ty.ndim:
            self.typing(node, f"cuda.atomic.{name}: {ty.ndim} indices needed, got {len(indices)}")
        where = "&" + self.index_code(arr, list(zip(nodes, indices)), ty.ndim)
        ce = T.c_name(ty.dtype)
        values = [f"({ce})({self.expr(a)[0]})" for a in args[2:]]
        if len(values) != (2 if name == "cas" else 1):
            self.typing(node, f"cuda.atomic.{name} takes {'4' if name == 'cas' else '3'} arguments")
        fn = {"and_": "and", "or_": "or", "nanmax": "max", "nanmin": "min"}.get(name, name)
        return f"kiln_atomic_{fn}({where}, {', '.join(values)})", ty.dtype

    def _device_call(self, node, dispatcher, args):
        parts = [self.expr(a) for a in args]
        c_name, ret = self.module.device_function(dispatcher, [t for _, t in parts])
        return f"{c_name}({', '.join(c for c, _ in parts)})", ret

    def _scalars(self, node, *tys):
        for t in tys:
            if t is None:
                self.typing(node, "a call that returns nothing used as a value")
            if not T.is_scalar(t):
                self.typing(node, f"expected a number, got {t}")

    def tuple_items(self, node):
        """[(code, type)] of a tuple-valued expression: a literal tuple, cuda.grid(n),
        cuda.gridsize(n), arr.shape or a tuple local."""
        if isinstance(node, ast.Tuple):
            return [self.expr(e) for e in node.elts]
        if isinstance(node, ast.IfExp) and isinstance(node.body, ast.Tuple) and isinstance(node.orelse, ast.Tuple):
            if len(node.body.elts) != len(node.orelse.elts):
                self.typing(node, "both branches must be tuples of the same length")
            return [self.expr(ast.copy_location(ast.IfExp(test=node.test, body=a, orelse=b), node))
                    for a, b in zip(node.body.elts, node.orelse.elts)]
        if isinstance(node, ast.Name) and isinstance(self.locals.get(node.id), T.TupleType):
            return [(f"{node.id}_{k}", t) for k, t in enumerate(self.locals[node.id].items)]
        if isinstance(node, ast.Attribute) and node.attr == "shape":
            code, ty = self.expr(node.value)
            if isinstance(ty, T.ArrayType):
                return [(f"{code}.shape[{d}]", T.INT64) for d in range(ty.ndim)]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                self.global_value(node.func.value) is _cuda_module() and node.func.attr in ("grid", "gridsize"):
            n = self.constant(node.args[0]) if len(node.args) == 1 else None
            if n not in (1, 2, 3):
                self.typing(node, f"cuda.{node.func.attr} takes 1, 2 or 3")
            if node.func.attr == "grid":
                return [(f"((long long)blockIdx.{a} * blockDim.{a} + threadIdx.{a})", T.INT64) for a in "xyz"[:n]]
            return [(f"((long long)blockDim.{a} * gridDim.{a})", T.INT64) for a in "xyz"[:n]]
        code, ty = self.expr(node)
        return [(code, ty)]

    # ---- arrays made inside a kernel -----------------------------------------------
    def _array_creation(self, node):
        """(ArrayType, kind, shape, extra) for cuda.shared.array, cuda.local.array,
        cuda.const.array_like; None for anything else."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            return None
        owner = node.func.value
        cuda = _cuda_module()
        if not (isinstance(owner, ast.Attribute) and self.global_value(owner.value) is cuda):
            return None
        kind = owner.attr
        if kind in ("shared", "local") and node.func.attr == "array":
            shape_node = node.args[0] if node.args else next(k.value for k in node.keywords if k.arg == "shape")
            dtype_node = node.args[1] if len(node.args) > 1 else next(k.value for k in node.keywords if k.arg == "dtype")
            shape = self.constant(shape_node)
            shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
            from .._dtypes import normalize

            dtype = np.dtype(normalize(self.constant(dtype_node)).name)
            if not all(isinstance(s, (int, np.integer)) for s in shape) or not 1 <= len(shape) <= 3:
                self.typing(node, "a shared or local array's shape is 1 to 3 constant ints")
            if kind == "local" and 0 in shape:
                self.typing(node, "a local array needs a nonzero constant shape")
            return T.ArrayType(dtype, len(shape)), kind, tuple(int(s) for s in shape), None
        if kind == "const" and node.func.attr == "array_like":
            values = np.asarray(self.constant(node.args[0]))
            return T.ArrayType(values.dtype, values.ndim), "const", values.shape, values
        return None

    def _emit_array(self, name, node):
        ty, kind, shape, values = self._array_creation(node)
        ce = T.c_name(ty.dtype)
        storage = f"_{kind}_{name}"
        if kind == "shared" and shape[0] == 0:
            self.module.needs_dynamic_shared = True
            data = f"reinterpret_cast<{ce}*>(kiln_dynamic_shared)"
            shape = (1 << 30,) + shape[1:]  # sized at launch; indexing is not bounds-checked
        elif kind == "const":
            data = self.module.constant_array(ty.dtype, values)
        else:
            # A C array of the declared shape: indexing it directly keeps shared
            # memory in the shared address space and folds the constant strides.
            qualifier = "__shared__ " if kind == "shared" else ""
            self.line(f"{qualifier}{ce} {storage}{''.join(f'[{d}]' for d in shape)};")
            self.direct[name] = (storage, shape)
            data = f"reinterpret_cast<{ce}*>({storage})"
        strides, step = [], ty.dtype.itemsize
        for s in reversed(shape):
            strides.insert(0, step)
            step *= s
        self.line(f"const {ty.c_name} {name} = {{{data}, {{{', '.join(f'{s}LL' for s in shape)}}}, "
                  f"{{{', '.join(f'{s}LL' for s in strides)}}}}};")

    # ---- statements ---------------------------------------------------------------
    def line(self, text):
        self.lines.append("  " * self._depth + text)

    def _emit_function(self):
        self._depth = 0
        params = []
        for name, ty in zip(self.f.params, self.arg_types):
            params.append(f"{T.c_name(ty)} {name}")
        head = (f'extern "C" __global__ void {self.c_name}' if self.kernel
                else f"__device__ __forceinline__ {T.c_name(self.return_type)} {self.c_name}")
        self.lines.append(f"{head}({', '.join(params)}) {{")
        self._depth = 1
        for name, ty in self.locals.items():
            if name in self.f.params:
                continue
            if isinstance(ty, T.TupleType):
                for k, t in enumerate(ty.items):
                    self.line(f"{T.c_name(t)} {name}_{k} = 0;")
            else:
                self.line(f"{T.c_name(ty)} {name} = 0;")
        self.block(self.f.node.body)
        self._depth = 0
        self.lines.append("}")

    def block(self, body):
        for s in body:
            self.line(f'#line {s.lineno} "{self.f.filename}"')
            method = getattr(self, "_stmt_" + type(s).__name__, None)
            if method is None:
                self.unsupported(s, f"the statement {type(s).__name__}")
            method(s)

    def _stmt_Expr(self, s):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring
        code, _ = self.expr(s.value)
        self.line(f"{code};")

    def _stmt_Pass(self, s):
        pass

    def _stmt_Assign(self, s):
        if len(s.targets) != 1:
            self.unsupported(s, "chained assignment (a = b = c)")
        self._assign(s.targets[0], s.value, s)

    def _stmt_AnnAssign(self, s):
        if s.value is not None:
            self._assign(s.target, s.value, s)

    def _assign(self, target, value, s):
        if isinstance(target, ast.Name) and target.id in self.arrays:
            self._emit_array(target.id, value)
            return
        if isinstance(target, ast.Tuple):
            items = self.tuple_items(value)
            temps = [f"_t{s.lineno}_{k}" for k in range(len(items))]
            self.line("{")
            for tmp, (code, ty) in zip(temps, items):
                self.line(f"  const {T.c_name(ty)} {tmp} = {code};")
            for t, tmp in zip(target.elts, temps):
                self.line(f"  {self._target(t)} = ({T.c_name(self._target_type(t))})({tmp});")
            self.line("}")
            return
        if isinstance(target, ast.Name) and isinstance(self.locals.get(target.id), T.TupleType):
            for k, (code, _) in enumerate(self.tuple_items(value)):
                self.line(f"{target.id}_{k} = {code};")
            return
        code, ty = self.expr(value)
        self._scalars(s, ty)
        self.line(f"{self._target(target)} = ({T.c_name(self._target_type(target))})({code});")

    def _target(self, t):
        if isinstance(t, ast.Name):
            if t.id not in self.locals:
                self.typing(t, f"cannot assign to '{t.id}'")
            return t.id
        if isinstance(t, ast.Subscript):
            return self.expr(t)[0]
        self.unsupported(t, f"assigning to {type(t).__name__}")

    def _target_type(self, t):
        return self.locals[t.id] if isinstance(t, ast.Name) else self.expr(t)[1]

    def _stmt_AugAssign(self, s):
        load = ast.Subscript(value=s.target.value, slice=s.target.slice, ctx=ast.Load()) \
            if isinstance(s.target, ast.Subscript) else ast.Name(id=getattr(s.target, "id", ""), ctx=ast.Load())
        ast.copy_location(load, s)
        node = ast.copy_location(ast.BinOp(left=load, op=s.op, right=s.value), s)
        code, _ = self.expr(node)
        self.line(f"{self._target(s.target)} = ({T.c_name(self._target_type(s.target))})({code});")

    def _stmt_If(self, s):
        cond, _ = self.expr(s.test)
        self.line(f"if ((bool)({cond})) {{")
        self._nested(s.body)
        if s.orelse:
            self.line("} else {")
            self._nested(s.orelse)
        self.line("}")

    def _nested(self, body):
        self._depth += 1
        self.block(body)
        self._depth -= 1

    def _stmt_While(self, s):
        if s.orelse:
            self.unsupported(s, "while ... else")
        cond, _ = self.expr(s.test)
        self.line(f"while ((bool)({cond})) {{")
        self._nested(s.body)
        self.line("}")

    def _stmt_For(self, s):
        it = s.iter
        if s.orelse:
            self.unsupported(s, "for ... else")
        if not (isinstance(it, ast.Call) and self.global_value(it.func) is range and 1 <= len(it.args) <= 3):
            self.unsupported(s, "for loops other than over range(stop), range(start, stop) or range(start, stop, step)")
        if not isinstance(s.target, ast.Name):
            self.unsupported(s, "a for loop's target must be a name")
        bounds = [f"(long long)({self.expr(a)[0]})" for a in it.args]
        start, stop, step = (["0LL"] + bounds + ["1LL"])[:3] if len(bounds) == 1 else (
            bounds + ["1LL"] if len(bounds) == 2 else bounds)
        counter = f"_i{s.lineno}_{s.col_offset}"
        step_value = None
        if len(it.args) == 3:
            try:
                step_value = self.constant(it.args[2])
            except CompileError:
                pass
        if step_value is not None and step_value == 0:
            self.typing(s, "range() step must not be zero")
        test = (f"{counter} < _stop" if step_value is None or step_value > 0 else f"{counter} > _stop") \
            if len(it.args) < 3 or step_value is not None else f"(_step > 0 ? {counter} < _stop : {counter} > _stop)"
        self.line(f"for (long long {counter} = {start}, _stop = {stop}, _step = {step}; {test}; {counter} += _step) {{")
        self._depth += 1
        self.line(f"{s.target.id} = {counter};")
        self.block(s.body)
        self._depth -= 1
        self.line("}")

    def _stmt_Break(self, s):
        self.line("break;")

    def _stmt_Continue(self, s):
        self.line("continue;")

    def _stmt_Return(self, s):
        if s.value is None:
            self.line("return;" if self.kernel or self.return_type is None else f"return {T.c_name(self.return_type)}();")
            return
        if self.kernel:
            self.typing(s, "a kernel cannot return a value")
        code, _ = self.expr(s.value)
        self.line(f"return ({T.c_name(self.return_type)})({code});")


def _cuda_module():
    from .. import cuda

    return cuda


def _fn(name, ty):
    """The C function for `name` on float type `ty` (sqrtf for float32)."""
    return name + "f" if ty == np.dtype("float32") else name


def _float_literal(v):
    if math.isnan(v):
        return "kiln_double_bits(0x7ff8000000000000ULL)"
    if math.isinf(v):
        return "kiln_double_bits(0x7ff0000000000000ULL)" if v > 0 else "(-kiln_double_bits(0x7ff0000000000000ULL))"
    return repr(float(v))


def _literal(value, ty):
    if ty.kind == "b":
        return "true" if value else "false"
    if ty.kind == "f":
        lit = _float_literal(float(value))
        return lit if ty == T.FLOAT64 else f"((float){lit})"
    return f"(({T.c_name(ty)}){int(value)}LL)" if ty.kind == "i" else f"(({T.c_name(ty)}){int(value)}ULL)"
