"""Pass 2, type inference: the type of every local and of every expression of
one specialisation, as Numba infers them. Each local keeps one type (the
promotion of everything assigned to it), literals are int64/float64/bool,
arithmetic promotes as NumPy does except that integer arithmetic is 64-bit
as Numba types it (NumPy's rule for CuPy's jit face), ``/`` is true division. The result, a
``Typed`` function (the parsed tree with a type per node), is what emit.py
turns into C++; calls and special names are typed by their constructs
(constructs/)."""
import ast
import builtins

import numpy as np

from .._numba_cuda import kernel_language as K
from . import constructs
from . import types as T
from .constructs import array_expressions, captured_arrays, datetimes, enum_members, local_arrays, records
from .errors import TypingError, UnsupportedError

_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd, ast.BitOr, ast.BitXor,
               ast.LShift, ast.RShift)
_BITWISE = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)
_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


class _Unknown(Exception):
    """A name whose type inference has not reached yet (retried on the next round)."""


class Typed:
    """One specialisation of `function` for `arg_types`, typed: ``types`` maps
    each expression node to its type (``tuples`` each tuple-valued one to its
    items' types), ``locals`` each local to its type, ``arrays`` the arrays
    the kernel makes, ``return_type`` a device function's result; locals not
    in ``maybe_negative`` are never negative. `module` collects the device
    functions and constants the specialisation needs."""

    def __init__(self, function, arg_types, module, kernel):
        self.f, self.module, self.kernel = function, module, kernel
        # Numba's integer typing (kiln.cuda.jit) or NumPy's (CuPy's jit face):
        # whether int32 + int32 is int64 or int32.
        self.numba_integers = function.numba_integers
        self._folding = set()  # locals whose constant value constant() is finding
        self.arg_types = list(arg_types)
        if len(self.arg_types) != len(function.params):
            raise TypeError(f"{function.name} takes {len(function.params)} arguments, got {len(self.arg_types)}")
        # arguments known at compile time are constants in here, not locals
        self.bound = {p: t.value for p, t in zip(function.params, self.arg_types) if isinstance(t, T.ConstantArg)}
        self.locals = {p: t for p, t in zip(function.params, self.arg_types) if not isinstance(t, T.ConstantArg)}
        self.arrays = {}
        self.return_type = None
        self.types, self.tuples = {}, {}
        self.iterations = {}  # for statement -> what it walks (see _for_sequence)
        self.synthetic = {}  # a tuple value used as an index -> its items as subscripts of it
        self.call_types = {}  # device function call -> its arguments' types (ConstantArg: known)
        self.pow_operators = {}  # pow(x, y) call -> the x ** y it is (constructs/builtins_.py)
        self.raised = {}  # raise or assert statement -> its exception's code in debug mode (0: not in debug mode)
        self.dynamic_items = {}  # tuple[i] with i known only when running -> the tuple's length
        self.folded = {}  # comparison decided when compiling (of constant strings) -> its value
        self.elementwise = {}  # whole-array operation -> (ufunc, its loop's dtypes, operands) (array_expressions.py)
        self.in_place = set()  # the value of ``a op= b`` of an array local, stored into a (as NumPy's in-place op)
        self.masked = set()  # a[mask] with a boolean array mask (array_expressions.py)
        # Locals that may hold a negative number: array indices built only
        # from the others skip Python's wraparound (a compare and a select).
        self.maybe_negative = {p for p, t in zip(function.params, self.arg_types)
                               if not (T.is_scalar(t) and t.kind in "ub")}
        self._infer()

    # ---- errors, constants and names ------------------------------------------
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
        if isinstance(node, ast.Name) and node.id in self.bound:
            return self.bound[node.id]
        if isinstance(node, ast.Name) and node.id not in self.locals and node.id in self.f.scope:
            return self.f.scope[node.id]
        if isinstance(node, ast.Name) and node.id in self.f.assigned_once and node.id not in self._folding:
            # A local assigned once, from a constant (``N = 100`` before
            # ``cuda.shared.array(N, int32)``), is that constant, as in Numba.
            self._folding.add(node.id)
            try:
                return self.constant(self.f.assigned_once[node.id])
            finally:
                self._folding.discard(node.id)
        if isinstance(node, ast.Attribute) and node.attr == "dtype" and isinstance(node.value, ast.Name):
            array = self.locals.get(node.value.id) or self.arrays.get(node.value.id)
            if isinstance(array, T.ArrayType):  # an array's dtype is known when the kernel compiles
                return array.dtype
        if isinstance(node, ast.Attribute):
            base = self.constant(node.value)
            try:
                return getattr(base, node.attr)
            except Exception:  # cuda.gridDim.x and the like have values only in a kernel
                self.typing(node, "expected a constant (a literal or a module-level value; Numba: RequireLiteralValue)")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.constant(node.operand)
        if isinstance(node, ast.Call) and self.global_value(node.func) is np.dtype and not node.keywords:
            args = [self.constant(a) for a in node.args]
            try:
                return np.dtype(*args)  # np.dtype("int16"), made when compiling
            except TypeError:
                self.typing(node, f"Invalid NumPy dtype specified: {args[0]!r}" if args else "np.dtype() needs a type")
        if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv):
            a, b = self.constant(node.left), self.constant(node.right)
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(node.op), a // b if b else 0)
        self.typing(node, "expected a constant (a literal or a module-level value; Numba: RequireLiteralValue)")

    def global_value(self, node):
        """What a name or attribute chain outside the locals refers to, or None."""
        if isinstance(node, ast.Name):
            if node.id in self.bound:
                return self.bound[node.id]
            if node.id in self.locals or node.id in self.arrays:
                return None
            if node.id not in self.f.scope:
                return getattr(builtins, node.id, None)
            return self.f.scope[node.id]
        if isinstance(node, ast.Attribute):
            base = self.global_value(node.value)
            return None if base is None else getattr(base, node.attr, None)
        return None

    def construct(self, node):
        """The construct a call's function or a name stands for, or None."""
        return constructs.for_value(self.global_value(node))

    @staticmethod
    def is_number(value):
        return isinstance(value, (bool, int, float, np.generic)) and not isinstance(value, np.ndarray)

    @classmethod
    def is_number_tuple(cls, value):
        return isinstance(value, tuple) and bool(value) and all(
            cls.is_number(v) or cls.is_number_tuple(v) for v in value)

    def argument_type(self, node):
        """The type of a device function's argument: a ConstantArg for a
        literal or a module-level object, else the expression's type."""
        if isinstance(node, ast.Constant) and (self.is_number(node.value) or isinstance(node.value, str)):
            return T.ConstantArg(node.value)  # a string only as a constant (value == "1" folds)
        if isinstance(node, ast.Tuple):
            try:
                value = self.constant(node)
                if self.is_number_tuple(value):
                    return T.ConstantArg(value)
            except TypingError:
                pass
        if isinstance(node, (ast.Name, ast.Attribute)):
            value = self.global_value(node)  # None for locals
            if value is not None and not isinstance(value, np.ndarray) and not hasattr(value, "__cuda_array_interface__"):
                return T.ConstantArg(value)
        return self.expr(node)

    def non_negative(self, node):
        """Whether `node` can be shown never to be negative (conservatively)."""
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, float)) and node.value >= 0
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return node.id not in self.maybe_negative
            value = self.global_value(node)
            return self.is_number(value) and value >= 0
        if isinstance(node, ast.Attribute):
            owner = constructs.for_value(self.global_value(node.value))
            if getattr(owner, "has_members", False):
                return owner.non_negative(self, node)
            special = self.construct(node)
            if getattr(special, "is_value", False):
                return special.non_negative(self, node)
            return node.attr in ("size", "ndim")
        if isinstance(node, ast.Subscript):
            base = node.value
            return (isinstance(base, ast.Attribute) and base.attr == "shape") or isinstance(base, ast.Call)
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, (ast.Add, ast.Mult, ast.FloorDiv, ast.Mod, ast.LShift, ast.RShift, ast.BitAnd,
                                        ast.Pow)) and self.non_negative(node.left) and self.non_negative(node.right)
        if isinstance(node, ast.IfExp):
            return self.non_negative(node.body) and self.non_negative(node.orelse)
        if isinstance(node, ast.Call):
            construct = self.construct(node.func)
            return construct is not None and construct.non_negative(self, node)
        return False

    # ---- statements: the locals' types, to a fixed point -------------------------
    def _infer(self):
        for _ in range(8):
            before = dict(self.locals), self.return_type, set(self.maybe_negative)
            self._inferring = True
            self._block(self.f.node.body)
            if (dict(self.locals), self.return_type, self.maybe_negative) == before:
                break
        self._inferring = False
        self._block(self.f.node.body)  # every node's type from the final locals

    def _block(self, body):
        for stmt in body:
            try:
                self._statement(stmt)
            except _Unknown:
                pass

    def _statement(self, s):
        if isinstance(s, ast.Assign):
            if len(s.targets) != 1:
                self.unsupported(s, "chained assignment (a = b = c)")
            self._assign(s.targets[0], s.value)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self._assign(s.target, s.value)
        elif isinstance(s, ast.For):
            self._for(s)
        elif isinstance(s, (ast.While, ast.If)):
            self.expr(s.test)
            self._block(s.body)
            self._block(s.orelse)
        elif isinstance(s, ast.Return):
            if s.value is not None:
                ty = self.expr(s.value)  # first: an untyped call in it is the error Numba reports
                if self.kernel:
                    self.typing(s, "a kernel cannot return a value")
                self.return_type = T.unify(self.return_type, ty)
        elif isinstance(s, ast.Expr):
            if not (isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)):  # a docstring
                self.expr(s.value)
        elif isinstance(s, ast.Raise):
            self._exception(s, s.exc)
        elif isinstance(s, ast.Assert):
            self.expr(s.test)
            message = self.constant(s.msg) if s.msg is not None else ""
            self._code(AssertionError, str(message), s)
        elif isinstance(s, ast.With):
            self._with(s)
        elif not isinstance(s, (ast.Pass, ast.Break, ast.Continue)):
            self.unsupported(s, f"the statement {type(s).__name__}")

    def _with(self, s):
        """``with cm(...):`` of a context manager compiled code knows (a
        construct with ``enter``: kiln.numba's parallel_chunksize)."""
        for item in s.items:
            call = item.context_expr
            construct = self.construct(call.func) if isinstance(call, ast.Call) else None
            # ``as name`` only where nothing reads the name (as decompiled source has it)
            bound = item.optional_vars
            unread = bound is None or (isinstance(bound, ast.Name) and not any(
                isinstance(n, ast.Name) and n.id == bound.id for b in s.body for n in ast.walk(b)))
            if not hasattr(construct, "enter") or not unread:
                self.unsupported(s, f"the context manager {ast.unparse(item)}")
            self.expr(call)
        self._block(s.body)

    def _exception(self, s, exc):
        """The code of ``raise E`` or ``raise E("constant message")`` (the
        exception's class and message are known when the kernel compiles)."""
        if exc is None:
            self.unsupported(s, "a bare raise")
        call = exc if isinstance(exc, ast.Call) else None
        cls = self.global_value(call.func if call else exc)
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            self.unsupported(s, "raising something other than an exception class, or one with constant arguments")
        message = ", ".join(str(self.constant(a)) for a in call.args) if call else ""
        self._code(cls, message, s)

    def _code(self, cls, message, s):
        """Records the statement's code in ``raised``, once, whatever the inference rounds."""
        if s not in self.raised:
            self.raised[s] = self.module.exception_code(cls, message, self.f.filename, s.lineno) \
                if self.module.records else 0

    def _for(self, s):
        it = s.iter
        if isinstance(it, ast.Call) and self.global_value(it.func) in (range, K.prange):
            self._for_range(s)
        else:
            self._for_sequence(s)
        self._block(s.body)
        self._block(s.orelse)

    def _for_range(self, s):
        it = s.iter
        if not 1 <= len(it.args) <= 3:
            self.typing(s, "range() takes 1 to 3 arguments")
        if not isinstance(s.target, ast.Name):
            self.unsupported(s, "a for loop over range() needs a name as its target")
        for a in it.args:
            self.expr(a)
        args = it.args
        if len(args) == 3 and isinstance(args[2], ast.Constant) and args[2].value == 0:
            self.typing(s, "range() step must not be zero")
        counts_up = len(args) < 3 or (isinstance(args[2], ast.Constant) and args[2].value > 0)
        from_zero = len(args) < 2 or self.non_negative(args[0])
        self._bind(s.target.id, T.INT64, s, ast.Constant(value=0 if counts_up and from_zero else -1))

    def _for_sequence(self, s):
        """``for x in a`` (an array: its elements, or its rows as views), over a
        tuple (literal, constant, shape), and ``enumerate``/``zip`` of those,
        nested too (``for i, (x, y) in enumerate(zip(a, b))``):
        ``iterations[s]`` is the list of (kind, node, item type, target name)
        the loop walks in step, kind "index" (enumerate's counter, from node),
        "range" (a range() call), "array" or "tuple"."""
        plan = self._streams(s, s.iter, s.target, top=True)
        for kind, node, ty, name in plan:
            self._bind(name.id, ty, s, node if kind == "index" else None)
        self.iterations[s] = plan

    def _streams(self, s, it, target, top=False):
        """The streams `it` walks in step, each with the name of `target` it binds."""
        function = self.global_value(it.func) if isinstance(it, ast.Call) else None
        if function is enumerate:
            if not 1 <= len(it.args) <= 2:
                self.typing(s, "enumerate() takes an iterable and an optional start")
            start = it.args[1] if len(it.args) == 2 else ast.copy_location(ast.Constant(value=0), it)
            self.scalars(s, self.expr(start))
            parts = [("index", start), it.args[0]]
        elif function is zip:
            if not it.args:
                self.typing(s, "zip() of nothing")
            parts = list(it.args)
        else:
            if not isinstance(target, ast.Name):
                self.unsupported(s, "the for loop's target must be a name for each value it walks")
            return [self._sequence(it) + (target,)]
        if not isinstance(target, ast.Tuple) or len(target.elts) != len(parts):
            self.unsupported(s, f"the for loop's target must be {len(parts)} name(s)"
                             + ("" if top else " for each enumerate() or zip() inside"))
        streams = []
        for part, t in zip(parts, target.elts):
            if isinstance(part, tuple):  # enumerate's counter
                if not isinstance(t, ast.Name):
                    self.unsupported(s, "the for loop's target must be a name for enumerate's counter")
                streams.append(("index", part[1], T.INT64, t))
            else:
                streams += self._streams(s, part, t)
        return streams

    def _sequence(self, node):
        if isinstance(node, ast.Call) and self.global_value(node.func) in (range, K.prange):  # in enumerate/zip
            if not 1 <= len(node.args) <= 3:
                self.typing(node, "range() takes 1 to 3 arguments")
            self.scalars(node, *(self.expr(a) for a in node.args))
            return "range", node, T.INT64
        if not (isinstance(node, ast.Tuple) or (isinstance(node, ast.Attribute) and node.attr == "shape") or (
                isinstance(node, ast.Call) and hasattr(self.construct(node.func), "tuple_types"))):
            ty = self.expr(node)
            if isinstance(ty, T.ArrayType):
                return "array", node, ty.dtype if ty.ndim == 1 else T.ArrayType(ty.dtype, ty.ndim - 1)
            if not isinstance(ty, T.TupleType):
                self.unsupported(node, "a for loop over something other than range(), an array, a tuple, "
                                       "enumerate() or zip()")
        items = self.tuple_items(node)  # a literal, a shape, cuda.grid(n), a tuple value (module-level too)
        if items and isinstance(items[0], T.TupleType) and all(t == items[0] for t in items):
            return "tuple", node, items[0]  # of tuples of one type (vectors: for v in (v1, v2))
        self.scalars(node, *items)
        common = items[0]
        for t in items[1:]:
            common = T.unify(common, t)
        return "tuple", node, common

    def _assign(self, target, value):
        if isinstance(target, ast.Name):
            created = local_arrays.describe(self, value, target.id)
            if created is not None:
                self.arrays[target.id] = created[0]
                return
            ty = self.expr(value)
            if getattr(value, "augmented", False) and isinstance(self.locals.get(target.id), T.ArrayType):
                self._broadcasts_into(target, self.locals[target.id], ty, in_place=True)
                self.in_place.add(value)  # a += b of an array: into a's elements, as NumPy's in-place ufunc
                return
            self._bind(target.id, ty, target, value)
            # a local may hold a view, a tuple, a record, the grid group
            if not isinstance(ty, (T.ArrayType, T.TupleType, T.RecordType, T.GridGroupType)):
                self.scalars(value, ty)
        elif isinstance(target, ast.Tuple):
            items = self.tuple_items(value)
            if len(items) != len(target.elts):
                self.typing(target, f"cannot unpack {len(items)} values into {len(target.elts)} names")
            for t, ty, item in zip(target.elts, items, self._item_nodes(value, len(items))):
                if isinstance(t, ast.Name):
                    self._bind(t.id, ty, t, item)
                else:
                    self._target(t)
        else:
            ty, target_type = self.expr(value), self._target(target)
            if isinstance(target_type, T.ArrayType):
                if isinstance(ty, T.ArrayType) and self.module.host_entry:
                    self._broadcasts_into(target, target_type, ty, in_place=getattr(value, "augmented", False))
                elif isinstance(ty, T.ArrayType) and ty.ndim != target_type.ndim:
                    self.typing(target, f"cannot assign a {ty} to a {target_type}")
                if not isinstance(ty, T.ArrayType):
                    self.scalars(value, ty)
            elif isinstance(target_type, T.RecordType):  # a record copied into another of its dtype
                if ty != target_type:
                    self.typing(target, f"cannot assign a {ty} to a {target_type}")
            else:
                self.scalars(value, ty)

    def _broadcasts_into(self, target, target_type, ty, in_place=False):
        """Typing of an array stored into an array's elements, broadcast (an
        @njit function's ``a[...] = b``, ``a += b``): NumPy's shape error,
        when the extents clash, is found when running; an in-place operator
        casts by NumPy's same_kind rule, a store by any."""
        if isinstance(ty, T.ArrayType) and ty.ndim > target_type.ndim:
            self.typing(target, f"cannot broadcast a {ty} into a {target_type}")
        if not isinstance(ty, T.ArrayType):
            self.scalars(target, ty)
        given = ty.dtype if isinstance(ty, T.ArrayType) else np.dtype(ty.name)
        if in_place and not np.can_cast(given, target_type.dtype, "same_kind"):
            self.typing(target, f"cannot store {given} values in a {target_type} (NumPy's same_kind rule)")
        array_expressions.stores(self, target)

    def _target(self, t):
        if isinstance(t, ast.Subscript) or (isinstance(t, ast.Attribute) and
                                            isinstance(self.expr(t.value), T.RecordType)):
            return self.expr(t)
        if isinstance(t, ast.Name):
            return self.locals[t.id]
        self.unsupported(t, f"assigning to {type(t).__name__}")

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
        """The node of each item of a tuple-valued expression where there is one
        (None where not: such items count as maybe negative)."""
        if isinstance(value, ast.Tuple):
            return value.elts
        if (isinstance(value, ast.Call) and hasattr(self.construct(value.func), "tuple_types")) or \
                (isinstance(value, ast.Attribute) and value.attr == "shape"):
            return [ast.Constant(value=0)] * count  # positions, sizes and shapes are never negative
        return [None] * count

    # ---- expressions ------------------------------------------------------------
    def expr(self, node):
        """The type of `node` (recorded in ``types``)."""
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            self.unsupported(node, f"the expression {type(node).__name__}")
        ty = method(node)
        self.types[node] = ty
        return ty

    def scalars(self, node, *tys):
        for t in tys:
            if t is None:
                self.typing(node, "a call that returns nothing used as a value")
            if not T.is_scalar(t):
                self.typing(node, f"expected a number, got {t}")

    def args(self, node, count):
        """The types of a call's arguments, which must be `count` (None: any) numbers."""
        if count is not None and len(node.args) != count:
            self.typing(node, f"{ast.unparse(node.func)} takes {count} arguments, got {len(node.args)}")
        types = [self.expr(a) for a in node.args]
        self.scalars(node, *types)
        return types

    def _Constant(self, node):
        v = node.value
        if isinstance(v, bool):
            return T.BOOL
        if isinstance(v, int):
            return T.INT64
        if isinstance(v, float):
            return T.FLOAT64
        if isinstance(v, complex):
            return T.COMPLEX128
        self.unsupported(node, f"the constant {v!r}")

    def _Name(self, node):
        if node.id in self.locals:
            return self.locals[node.id]
        if node.id in self.arrays:
            return self.arrays[node.id]
        value = self.global_value(node)
        if self.is_number(value) or self.is_number_tuple(value):
            return T.of_value(value)
        member = enum_members.member_of(self, node)
        if member is not None:
            return enum_members.member_type(member)
        special = constructs.for_value(value)
        if getattr(special, "is_value", False):
            return special.type(self, node)  # cuda.laneid imported by name
        found = captured_arrays.captured(value)
        if found is not None:
            return found[0]  # an array from the enclosing scope
        if self._inferring and node.id not in self.f.scope:
            raise _Unknown(node.id)
        self.typing(node, f"the name '{node.id}' is not a local, an argument, a module-level number or an array")

    def _Tuple(self, node):
        items = [self.expr(e) for e in node.elts]
        for e, t in zip(node.elts, items):
            # an @njit function's tuples may hold arrays (as its results do)
            if not (T.is_scalar(t) or isinstance(t, T.TupleType) or
                    (isinstance(t, T.ArrayType) and self.module.host_entry)):
                self.typing(e, f"a tuple in a kernel holds numbers (or tuples of them), not a {t}")
        self.tuples[node] = items
        return T.TupleType(items)

    def array_expression(self, node, ufunc, operands, types):
        return array_expressions.type_of(self, node, ufunc, operands, types)

    def _BinOp(self, node):
        ta, tb = self.expr(node.left), self.expr(node.right)
        op = type(node.op)
        if array_expressions.involved(ta, tb) and op in array_expressions.OPERATORS:
            return self.array_expression(node, array_expressions.OPERATORS[op], [node.left, node.right], [ta, tb])
        self.scalars(node, ta, tb)
        if op not in _ARITHMETIC:
            self.unsupported(node, f"the operator {op.__name__}")
        if datetimes.involved(ta, tb):
            return datetimes.binop_type(self, node, op, ta, tb)
        if op is ast.Div:
            return T.FLOAT64 if ta.kind in "biu" and tb.kind in "biu" else T.promote(ta, tb)
        r = T.promote(ta, tb)
        # Numba's integer typing, int64 against uint64 too (NumPy's float64 there)
        if self.numba_integers and ta.kind in "biu" and tb.kind in "biu":
            r = T.numba_integer(ta, tb)
        if r.kind == "c" and op in (ast.FloorDiv, ast.Mod) + _BITWISE:
            self.typing(node, f"the operator {op.__name__} is not defined for complex numbers")
        if op in _BITWISE and not (T.is_int(r) or (ta.kind == tb.kind == "b" and op in _BITWISE[:3])):
            self.typing(node, f"bitwise operators need integers, not {ta} and {tb}")
        if op in _BITWISE[:3] and ta.kind == tb.kind == "b":
            return T.BOOL
        return r

    def _UnaryOp(self, node):
        ta = self.expr(node.operand)
        if array_expressions.involved(ta) and type(node.op) in array_expressions.OPERATORS:
            return self.array_expression(node, array_expressions.OPERATORS[type(node.op)], [node.operand], [ta])
        self.scalars(node, ta)
        if isinstance(node.op, ast.Not):
            return T.BOOL
        r = T.INT64 if ta.kind == "b" else ta
        if self.numba_integers and r.kind in "iu":
            r = T.numba_integer(r)
        if isinstance(node.op, ast.Invert) and not T.is_int(r):
            self.typing(node, f"~ needs an integer, not {ta}")
        return r

    def _BoolOp(self, node):
        self.scalars(node, *(self.expr(v) for v in node.values))
        return T.BOOL

    def _folded_compare(self, node):
        """A comparison with a string among constant operands (a device
        function's literal argument: ``value == "1"``), decided when the
        kernel compiles: its value, or None."""
        import operator

        try:
            values = [self.constant(node.left)] + [self.constant(c) for c in node.comparators]
        except TypingError:
            return None
        if not any(isinstance(v, str) for v in values):
            return None
        ops = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.eq, ast.IsNot: operator.ne}
        if not all(type(op) in ops for op in node.ops):
            self.typing(node, "strings are compared with == and != only")
        return all(ops[type(op)](a, b) for op, a, b in zip(node.ops, values, values[1:]))

    def _Compare(self, node):
        folded = self._folded_compare(node)
        if folded is not None:
            self.folded[node] = folded
            return T.BOOL
        left = self.expr(node.left)
        if len(node.ops) == 1 and type(node.ops[0]) in array_expressions.OPERATORS:
            right = self.expr(node.comparators[0])
            if array_expressions.involved(left, right):
                return self.array_expression(node, array_expressions.OPERATORS[type(node.ops[0])],
                                             [node.left, node.comparators[0]], [left, right])
        for op, right_node in zip(node.ops, node.comparators):
            right = self.expr(right_node)
            if enum_members.compares(self, node, op, left, right):
                left = right
                continue
            if not isinstance(op, _COMPARISONS):
                self.unsupported(node, f"the comparison {type(op).__name__}")
            self.scalars(node, left, right)
            if datetimes.involved(left, right):
                datetimes.compare_type(self, node, left, right)
            if "c" in (left.kind, right.kind) and not isinstance(op, (ast.Eq, ast.NotEq)):
                self.typing(node, "complex numbers are not ordered")
            left = right
        return T.BOOL

    def _IfExp(self, node):
        if isinstance(node.body, ast.Tuple) and isinstance(node.orelse, ast.Tuple):
            self.typing(node, "both branches must be tuples of the same length")
        self.expr(node.test)
        ta, tb = self.expr(node.body), self.expr(node.orelse)
        self.scalars(node, ta, tb)
        return T.unify(ta, tb)

    def tuple_items(self, node):
        """The item types of a tuple-valued expression: a literal tuple,
        cuda.grid(n), cuda.gridsize(n) or arr.shape (recorded in ``tuples``);
        any other expression is one item."""
        if isinstance(node, ast.Tuple):
            items = [self.expr(e) for e in node.elts]
        elif isinstance(node, ast.Attribute) and node.attr == "shape" and \
                isinstance(self.expr(node.value), T.ArrayType):
            items = [T.INT64] * self.types[node.value].ndim
        elif isinstance(node, ast.Call) and hasattr(self.construct(node.func), "tuple_types"):
            items = self.construct(node.func).tuple_types(self, node)
        else:
            ty = self.expr(node)
            items = list(ty.items) if isinstance(ty, T.TupleType) else [ty]  # a tuple local or result
        self.tuples[node] = items
        return items

    def _Subscript(self, node):
        base = node.value
        member = enum_members.member_of(self, node)  # Color["red"]
        if member is not None:
            return enum_members.member_type(member)
        if (isinstance(base, ast.Attribute) and base.attr == "shape") or self.tuple_call(base):
            return self._tuple_item(node, self.tuple_items(base))
        ty = self.expr(base)
        if isinstance(ty, T.TupleType):
            return self._tuple_item(node, ty.items)
        if isinstance(ty, T.RecordType):  # r["a"], r[0]: a field by a constant key
            return records.field(self, node, ty, self.constant(node.slice))[0]
        if isinstance(ty, T.PointerType):  # p[i]: unchecked, as in Numba
            if not T.is_int(self.expr(node.slice)):
                self.typing(node, "a pointer is indexed by one integer")
            return T.element_type(ty.dtype)
        if not isinstance(ty, T.ArrayType):
            self.typing(node, f"cannot index a {ty}")
        if not isinstance(node.slice, (ast.Tuple, ast.Slice)) and self.module.host_entry:
            index = self.expr(node.slice)
            if isinstance(index, T.ArrayType) and index.dtype.kind == "b":  # a[mask]: the elements it selects
                return array_expressions.masked(self, node, ty, index)
        parts = self.index_parts(node)
        if len(parts) > ty.ndim:
            self.typing(node, f"a {ty.ndim}-dimensional array takes at most {ty.ndim} indices, got {len(parts)}")
        for part in parts:
            for bound in ([part.lower, part.upper, part.step] if isinstance(part, ast.Slice) else [part]):
                t = self.expr(bound) if bound is not None else T.INT64
                if not (T.is_int(t) or (T.is_scalar(t) and t.kind == "b")):
                    self.typing(node, f"array indices must be integers, not {t}")
        if isinstance(node.slice, ast.Tuple):
            self.tuples[node.slice] = [T.INT64] * len(parts)
        kept = ty.ndim - sum(not isinstance(p, ast.Slice) for p in parts)
        return T.element_type(ty.dtype) if kept == 0 else T.ArrayType(ty.dtype, kept)  # fewer indices or slices: a view

    def tuple_call(self, node):
        """Whether `node` is a call whose value is indexed as a tuple
        (``cuda.grid(2)[0]``), not as an array (``a.view(np.int32)[0]``)."""
        return isinstance(node, ast.Call) and \
            not isinstance(self.types[node] if node in self.types else self.expr(node), T.ArrayType)

    def _tuple_item(self, node, items):
        """The type of tuple[k]: a constant k in range picks its item; any
        other integer index a tuple whose items are all of one type (a shape:
        ``a.shape[-x]``), recorded in ``dynamic_items``, as Numba allows."""
        try:
            k = self.constant(node.slice)
        except TypingError:
            k = None
        if k is not None:
            if not isinstance(k, int) or not -len(items) <= k < len(items):
                self.typing(node, "a tuple is indexed by a constant in range")
            return items[k]
        index = self.expr(node.slice)
        if not T.is_int(index) or not items or any(t != items[0] for t in items):
            self.typing(node, "a tuple is indexed by a constant, or by an integer where its items are of one type")
        self.dynamic_items[node] = len(items)
        return items[0]

    def index_parts(self, node):
        """The index expressions of a subscript, one per dimension it names
        (an ast.Slice for a slice)."""
        return self.index_items(node.slice)

    def index_items(self, index):
        """The items of an index: a literal tuple's, a tuple value's (ary[gid],
        gid = cuda.grid(2): subscripts of it, made once), else the index itself."""
        if isinstance(index, ast.Tuple):
            return list(index.elts)
        if index in self.synthetic:
            return self.synthetic[index]
        if not isinstance(index, ast.Slice) and isinstance(self.expr(index), T.TupleType):
            self.synthetic[index] = [ast.copy_location(ast.Subscript(value=index, slice=ast.Constant(value=k),
                                                                     ctx=ast.Load()), index)
                                     for k in range(len(self.types[index].items))]
            return self.synthetic[index]
        return [index]

    def _Attribute(self, node):
        owner = constructs.for_value(self.global_value(node.value))
        if getattr(owner, "has_members", False):
            return owner.type(self, node)  # cuda.threadIdx.x
        value = self.global_value(node)
        special = constructs.for_value(value)
        if getattr(special, "is_value", False):
            return special.type(self, node)  # cuda.laneid
        if self.is_number(value):
            return T.of_value(value)
        member = enum_members.member_of(self, node)
        if member is not None:
            return enum_members.member_type(member)
        if node.attr == "data" and isinstance(node.value, ast.Attribute) and node.value.attr == "ctypes" and \
                isinstance(self.expr(node.value.value), T.ArrayType):
            return np.dtype("uint64")  # an array's address: a.ctypes.data
        ty = self.expr(node.value)
        if T.is_scalar(ty) and node.attr in ("real", "imag"):
            return T.real_part(ty) if ty.kind != "b" else T.INT64
        if isinstance(ty, T.ArrayType):
            if node.attr in ("size", "ndim"):
                return T.INT64
            if node.attr == "real" or (node.attr == "imag" and ty.dtype.kind == "c"):
                return T.ArrayType(T.real_part(ty.dtype), ty.ndim)  # a view of the parts
            if node.attr in ("shape", "strides"):
                return T.TupleType([T.INT64] * ty.ndim)
        if isinstance(ty, T.TupleType) and ty.field(node.attr) is not None:
            return ty.items[ty.field(node.attr)]  # a namedtuple's field
        if isinstance(ty, T.RecordType):
            return records.field(self, node, ty, node.attr)[0]
        self.unsupported(node, f"the attribute .{node.attr} of a {ty}")

    def _spread(self, node):
        """f(*t) of a tuple-valued t (complex(*cmath.polar(z))): its items as
        the arguments, each a subscript of t (t is evaluated for each)."""
        args = []
        for a in node.args:
            if not isinstance(a, ast.Starred):
                args.append(a)
                continue
            items = self.tuple_items(a.value)
            args += [ast.copy_location(ast.Subscript(value=a.value, slice=ast.Constant(value=k), ctx=ast.Load()), a)
                     for k in range(len(items))]
        node.args = args

    def method(self, node):
        """The construct of a method call on a number (``x.bit_count()``) or
        on a value of one of kiln's kernel types (a grid group's ``g.sync()``),
        or None."""
        from .constructs.bit_operations import SCALAR_METHODS

        func = node.func
        if not isinstance(func, ast.Attribute) or self.global_value(func) is not None:
            return None
        if func.attr in SCALAR_METHODS:
            return SCALAR_METHODS[func.attr]
        owner = self.types[func.value] if func.value in self.types else self.expr(func.value)
        return constructs.for_method(owner, func.attr)

    def _Call(self, node):
        if any(isinstance(a, ast.Starred) for a in node.args):
            self._spread(node)
        construct = self.construct(node.func) or self.method(node)
        if node.keywords and not getattr(construct, "keywords", ()):
            self.unsupported(node, "keyword arguments in calls inside a kernel")
        if construct is None:
            func = node.func
            if isinstance(func, ast.Name) and func.id not in self.locals and func.id not in self.f.scope and \
                    not hasattr(builtins, func.id):
                self.typing(node, f"NameError: name '{func.id}' is not defined")
            if isinstance(func, ast.Name) and func.id not in self.locals and func.id in self.f.scope:
                # Numba's words for a module-level object kernels cannot call (a plain function, a ufunc)
                self.typing(node, f"Untyped global name '{func.id}': a {type(self.f.scope[func.id]).__name__} cannot "
                                  "be called in a kernel (device functions are @cuda.jit(device=True))")
            self.unsupported(node, f"calling {ast.unparse(node.func)}")
        return construct.type(self, node)
