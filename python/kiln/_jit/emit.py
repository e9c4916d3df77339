"""Pass 3, emission: C++ for a typed specialisation (infer.Typed). Types are
read from the typed tree, never inferred here; calls and special names are
emitted by their constructs (constructs/). Every statement carries a
``#line`` of the Python source, so C++ errors point at the Python line.
A kernel is a C++ kernel the dispatcher puts in namespace kiln_jit
(KILN_JIT_NAMED_KERNEL), a device function an inlined helper
(KILN_JIT_DEVICE_FUNCTION); both macros are
include/kiln/device/jit_support.cuh's."""
import ast

from .._core import CompileError
from . import constructs
from .._numba_cuda import kernel_language as K
from . import types as T
from .constructs import array_expressions, captured_arrays, datetimes, enum_members, local_arrays, numba_threads, records
from .cxx import cast, float_literal, fn, literal

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
# float16 operations as one f16 instruction each on the GPU (jit_half.cuh)
_HALF_BINOPS = {ast.Add: "kiln_half_add", ast.Sub: "kiln_half_sub", ast.Mult: "kiln_half_mul"}
_HALF_COMPARE = {ast.Eq: "kiln_half_eq", ast.NotEq: "kiln_half_ne", ast.Lt: "kiln_half_lt",
                 ast.LtE: "kiln_half_le", ast.Gt: "kiln_half_gt", ast.GtE: "kiln_half_ge"}


class Emitter:
    """The C++ lines of `typed`'s function, named `c_name`."""

    def __init__(self, typed, c_name):
        self.typed, self.f, self.module = typed, typed.f, typed.module
        self.direct = {}  # arrays declared as C arrays: name -> (C name, shape)
        self.lines = []
        self._loops = []  # of the loops being emitted, innermost last: the flag its break sets for its else, or None
        self._depth = 0
        self._in_openmp = 0  # the OpenMP loops (parallel prange) enclosing the code being emitted
        self._function(c_name)

    # ---- what the typed tree knows -----------------------------------------------
    def type_of(self, node):
        if isinstance(node, ast.Constant):  # constants type themselves (some are made by constructs)
            return self.typed._Constant(node)
        return self.typed.types[node]

    def global_value(self, node):
        return self.typed.global_value(node)

    def constant(self, node):
        return self.typed.constant(node)

    def line(self, text):
        self.lines.append("  " * self._depth + text)

    # ---- expressions ----------------------------------------------------------------
    def expr(self, node):
        return getattr(self, "_" + type(node).__name__)(node)

    def args(self, node):
        """[(code, type)] of a call's arguments."""
        return [(self.expr(a), self.type_of(a)) for a in node.args]

    def element(self, array, index_nodes):
        """The element of `array` (a node) at `index_nodes`, each index wrapped
        Python's way unless it is never negative; a shared or local array of
        constant shape is indexed as a C array. In debug mode every index is
        checked against its extent."""
        code = self.expr(array)
        direct = self.direct.get(code)
        check = self.bounds_check(array)
        parts = []
        for d, node in enumerate(index_nodes):
            index = f"(long long)({self.expr(node)})"
            if not self.typed.non_negative(node):
                index = f"kiln_wrap({index}, {direct[1][d]}LL)" if direct else f"{code}.wrap({index}, {d})"
            if check and direct:
                index = f"kiln_jit_check(&kiln_jit_error, {check}, {d}, {index}, {direct[1][d]}LL)"
            parts.append(index)
        if direct:
            return direct[0] + "".join(f"[{p}]" for p in parts)
        if check:
            return f"kiln_jit_checked_at({', '.join(['&kiln_jit_error', str(check), code] + parts)})"
        return f"{code}.at({', '.join(parts)})"

    def bounds_check(self, array):
        """In debug mode, the code of the IndexError indexing `array` (a node)
        out of bounds raises (its index, axis and extent are filled in from
        the launch's record); 0 outside debug mode."""
        if not self.module.debug:
            return 0
        name = ast.unparse(array).replace("{", "{{").replace("}", "}}")
        return self.module.exception_code(
            IndexError, f"index {{index}} is out of bounds for axis {{axis}} with size {{extent}} (array '{name}')",
            self.f.filename, array.lineno)

    def tuple_items(self, node):
        """[(code, type)] of a tuple-valued expression (see Typed.tuple_items)."""
        types = self.typed.tuples[node]
        if isinstance(node, ast.Tuple):
            codes = [self.expr(e) for e in node.elts]
        elif isinstance(node, ast.Attribute) and node.attr == "shape":
            codes = [f"{self.expr(node.value)}.shape[{d}]" for d in range(len(types))]
        elif isinstance(node, ast.Call) and hasattr(self.typed.construct(node.func), "tuple_codes"):
            codes = self.typed.construct(node.func).tuple_codes(self, node)
        elif isinstance(self.type_of(node), T.TupleType):
            code = self.expr(node)
            codes = [f"kiln_get({k}, {code})" for k in range(len(types))]
        else:
            codes = [self.expr(node)]
        return list(zip(codes, types))

    def _Tuple(self, node):
        return f"kiln_tuple_of{{{', '.join(self.expr(e) for e in node.elts)}}}.value"  # items in Python's order

    def _Constant(self, node):
        v = node.value
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return f"{v}LL"
        if isinstance(v, complex):
            return f"complex<double>({float_literal(v.real)}, {float_literal(v.imag)})"
        return float_literal(v)

    def _Name(self, node):
        if node.id in self.typed.locals or node.id in self.typed.arrays:
            return node.id
        value = self.global_value(node)
        if self.typed.is_number(value):
            return literal(value, T.of_value(value))
        if enum_members.member_of(self.typed, node) is not None:
            return enum_members.member_code(value)
        if self.typed.is_number_tuple(value):
            return self.tuple_literal(value)
        if captured_arrays.captured(value) is not None:
            return captured_arrays.view_code(self, node, value)
        return constructs.for_value(value).emit(self, node)

    def tuple_literal(self, value):
        return "kiln_make_tuple(" + ", ".join(
            self.tuple_literal(v) if isinstance(v, tuple) else literal(v, T.of_value(v)) for v in value) + ")"

    def array_expression(self, node):
        return array_expressions.emit(self, node)

    def _BinOp(self, node):
        if node in self.typed.elementwise:
            return self.array_expression(node)
        a, b = self.expr(node.left), self.expr(node.right)
        r = self.type_of(node)
        op = type(node.op)
        ta, tb = self.type_of(node.left), self.type_of(node.right)
        if datetimes.involved(ta, tb):
            return datetimes.binop_code(op, ta, tb, r, a, b)
        if op is ast.Div:
            return f"({cast(r, a)} / {cast(r, b)})"
        if op is ast.FloorDiv:
            return f"kiln_floordiv({cast(r, a)}, {cast(r, b)})" if T.is_int(r) else \
                f"{fn('floor', r)}({cast(r, a)} / {cast(r, b)})"
        if op is ast.Mod:
            return f"kiln_mod({cast(r, a)}, {cast(r, b)})" if T.is_int(r) else f"kiln_fmod({cast(r, a)}, {cast(r, b)})"
        if op is ast.Pow:
            return f"kiln_ipow({cast(r, a)}, (long long)({b}))" if T.is_int(r) else \
                f"{fn('pow', r)}({cast(r, a)}, {cast(r, b)})"
        if r.kind == "b":  # &, | and ^ of two bools
            return f"(({a}) {_BINOPS[op]} ({b}))"
        if r == T.FLOAT16 and op in _HALF_BINOPS:
            return f"{_HALF_BINOPS[op]}({cast(r, a)}, {cast(r, b)})"
        return f"({cast(r, a)} {_BINOPS[op]} {cast(r, b)})"

    def _UnaryOp(self, node):
        if node in self.typed.elementwise:
            return self.array_expression(node)
        a, r = self.expr(node.operand), self.type_of(node)
        if isinstance(node.op, ast.Not):
            return f"(!({a}))"
        if isinstance(node.op, ast.USub):
            return f"kiln_half_neg({cast(r, a)})" if r == T.FLOAT16 else f"(-{cast(r, a)})"
        if isinstance(node.op, ast.UAdd):
            return f"({cast(r, a)})"
        return f"(~({a}))"

    def _BoolOp(self, node):
        op = " && " if isinstance(node.op, ast.And) else " || "
        return "(" + op.join(f"(bool)({self.expr(v)})" for v in node.values) + ")"

    def _Compare(self, node):
        if node in self.typed.folded:
            return "true" if self.typed.folded[node] else "false"
        if node in self.typed.elementwise:
            return self.array_expression(node)
        terms, left = [], node.left
        for op, right in zip(node.ops, node.comparators):
            lt, rt = self.type_of(left), self.type_of(right)
            if isinstance(lt, T.EnumMemberType) or isinstance(rt, T.EnumMemberType):
                terms.append(enum_members.compare_code(op, lt, rt, self.expr(left), self.expr(right)))
                left = right
                continue
            if datetimes.involved(lt, rt):
                terms.append(datetimes.compare_code(op, lt, rt, self.expr(left), self.expr(right)))
                left = right
                continue
            common = T.promote(self.type_of(left), self.type_of(right))
            a, b = cast(common, self.expr(left)), cast(common, self.expr(right))
            if common == T.FLOAT16 and type(op) in _HALF_COMPARE:
                terms.append(f"{_HALF_COMPARE[type(op)]}({a}, {b})")
            else:
                terms.append(f"({a} {_COMPARE[type(op)]} {b})")
            left = right
        return "(" + " && ".join(terms) + ")"

    def _IfExp(self, node):
        r = self.type_of(node)
        return f"((bool)({self.expr(node.test)}) ? {cast(r, self.expr(node.body))} : {cast(r, self.expr(node.orelse))})"

    def _Subscript(self, node):
        base = node.value
        if node in self.typed.masked:
            return array_expressions.masked_code(self, node)
        member = enum_members.member_of(self.typed, node)
        if member is not None:  # Color["red"]
            return literal(member, T.INT64) if isinstance(member, int) else enum_members.member_code(member)
        if node in self.typed.dynamic_items:  # an index known when running: of a tuple of one item type
            if (isinstance(base, ast.Attribute) and base.attr == "shape") or self.typed.tuple_call(base):
                codes = ", ".join(code for code, _ in self.tuple_items(base))
            else:
                codes = ", ".join(f"kiln_get({k}, {self.expr(base)})" for k in range(len(self.type_of(base).items)))
            return (f"kiln_pick<{T.c_name(self.type_of(node))}, {self.typed.dynamic_items[node]}>"
                    f"((long long)({self.expr(node.slice)}), {{{codes}}})")
        if (isinstance(base, ast.Attribute) and base.attr == "shape") or self.typed.tuple_call(base):  # a tuple's item
            return self.tuple_items(base)[self.constant(node.slice)][0]
        if isinstance(self.type_of(base), T.TupleType):
            k = self.constant(node.slice) % len(self.type_of(base).items)
            return f"kiln_get({k}, {self.expr(base)})"
        if isinstance(self.type_of(base), T.RecordType):
            return self.field(node, base, self.constant(node.slice))
        if isinstance(self.type_of(base), T.PointerType):
            return f"{self.expr(base)}[(long long)({self.expr(node.slice)})]"
        parts = self.typed.index_parts(node)
        if isinstance(self.type_of(node), T.RecordType):  # a record of an array: its address
            return f"(&{self.element(base, parts)})"
        if not isinstance(self.type_of(node), T.ArrayType):
            return self.element(base, parts)
        return self.view(base, parts)

    def field(self, node, record, key):
        """The field `key` of the record `record` (a node)."""
        ty, offset, fdtype = records.field(self.typed, node, self.type_of(record), key)
        return records.field_code(self, self.expr(record), ty, offset, fdtype)

    def view(self, array, parts):
        """The view `array`[parts] (slices and integers, fewer than its
        dimensions or with a slice): slices first, then the integer-indexed
        dimensions dropped from the last."""
        code = self.expr(array)
        check = self.bounds_check(array) if not all(isinstance(p, ast.Slice) for p in parts) else 0
        for d, part in enumerate(parts):
            if isinstance(part, ast.Slice):
                bounds = [f"(long long)({self.expr(b)})" if b is not None else "0LL"
                          for b in (part.lower, part.upper, part.step)]
                if part.step is None:
                    bounds[2] = "1LL"
                code = (f"{code}.sliced({d}, {', '.join(bounds)}, {str(part.lower is not None).lower()}, "
                        f"{str(part.upper is not None).lower()})")
        for d in reversed(range(len(parts))):
            if not isinstance(parts[d], ast.Slice):
                index = f"(long long)({self.expr(parts[d])})"
                if not self.typed.non_negative(parts[d]):
                    index = f"kiln_wrap({index}, {self.expr(array)}.shape[{d}])"
                code = f"kiln_jit_checked_drop<{d}>(&kiln_jit_error, {check}, {code}, {index})" if check else \
                    f"kiln_drop<{d}>({code}, {index})"
        return code

    def _Attribute(self, node):
        owner = constructs.for_value(self.global_value(node.value))
        if getattr(owner, "has_members", False):
            return owner.emit(self, node)
        value = self.global_value(node)
        special = constructs.for_value(value)
        if getattr(special, "is_value", False):
            return special.emit(self, node)
        if self.typed.is_number(value):
            return literal(value, self.type_of(node))
        if enum_members.member_of(self.typed, node) is not None:
            return enum_members.member_code(value)
        if node.attr == "data" and isinstance(node.value, ast.Attribute) and node.value.attr == "ctypes":
            return f"((unsigned long long)(size_t)({self.expr(node.value.value)}.data))"
        if node.attr in ("real", "imag") and T.is_scalar(self.type_of(node.value)):
            ty, code = self.type_of(node.value), self.expr(node.value)
            if ty.kind == "c":
                return f"({code}).{node.attr}()"  # a member: a local may be called real
            return cast(self.type_of(node), code) if node.attr == "real" else cast(self.type_of(node), "0")
        owner_type = self.type_of(node.value)
        if isinstance(owner_type, T.ArrayType) and node.attr in ("real", "imag"):
            array = self.expr(node.value)
            return f"kiln_complex_part<{int(node.attr == 'imag')}>({array})" if owner_type.dtype.kind == "c" else array
        if isinstance(owner_type, T.TupleType):  # a namedtuple's field
            return f"kiln_get({owner_type.field(node.attr)}, {self.expr(node.value)})"
        if isinstance(owner_type, T.RecordType):
            return self.field(node, node.value, node.attr)
        if node.attr == "size":
            return f"{self.expr(node.value)}.size()"
        if node.attr in ("shape", "strides"):
            array = self.expr(node.value)
            return f"kiln_make_tuple({', '.join(f'{array}.{node.attr}[{d}]' for d in range(self.type_of(node.value).ndim))})"
        return f"{self.type_of(node.value).ndim}LL"  # ndim

    def _Call(self, node):
        return (self.typed.construct(node.func) or self.typed.method(node)).emit(self, node)

    # ---- statements -------------------------------------------------------------------
    def _function(self, c_name):
        typed = self.typed
        params = [f"{T.c_name(ty)} {name}" for name, ty in zip(self.f.params, typed.arg_types)
                  if not isinstance(ty, T.ConstantArg)]
        bounds = self.module.launch_bounds
        launch = f"__launch_bounds__({', '.join(map(str, bounds))}) " if bounds and typed.kernel else ""
        head = f"KILN_JIT_NAMED_KERNEL {launch}{c_name}" if typed.kernel else \
            f"KILN_JIT_DEVICE_FUNCTION {T.c_name(typed.return_type)} {c_name}"
        self.lines.append(f"{head}({', '.join(params)}) {{")
        self._depth = 1
        for name, ty in typed.locals.items():
            if name not in self.f.params:
                self.line(f"{T.c_name(ty)} {name} = {{}};")
        self.block(self.f.node.body)
        self._depth = 0
        self.lines.append("}")

    def block(self, body):
        for s in body:
            self.line(f'#line {s.lineno} "{self.f.filename}"')
            if self.module.debug or self._may_raise():
                self._debug_checks(s)
            getattr(self, "_stmt_" + type(s).__name__)(s)

    def in_openmp_loop(self):
        """Whether the code being emitted is a prange loop's body, run by OpenMP's threads."""
        return self._in_openmp > 0

    def _may_raise(self):
        """Whether a check here may record an error and leave: the module has
        the record, and no OpenMP loop's body (which no statement may leave)
        encloses the code."""
        return self.module.records and not self._in_openmp

    def _debug_checks(self, s):
        """Debug mode, and every function of a kiln.numba entry (Numba's CPU
        compiler has Python's error model by default, its CUDA one NumPy's):
        before a statement, each divisor of a /, // or % in it is checked (a
        zero raises ZeroDivisionError; not with error_model='numpy'), each
        index of a tuple known only when running (out of range raises
        IndexError), and the arguments of calls whose construct has checks
        (a ValueError of set_parallel_chunksize), the thread stopping
        there. Those under a condition (x if c else y, and/or) and in nested
        blocks are left to their own evaluation."""
        if not isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return)) or \
                getattr(s, "value", None) is None:
            return
        checks = []

        python_errors = self.module.debug or self.f.error_model == "python"

        def divide(op, result, divisor):
            """A /, // or % of numbers (of arrays it is NumPy's: inf or nan)."""
            if python_errors and isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)) and divisor in self.typed.types and \
                    T.is_scalar(self.type_of(result)) and T.is_scalar(self.type_of(divisor)) and \
                    self.type_of(divisor).kind in "biuf":
                checks.append((f"({self.expr(divisor)}) == 0", ZeroDivisionError, "division by zero"))

        if isinstance(s, ast.AugAssign):
            divide(s.op, s.target, s.value)

        def visit(node):
            if isinstance(node, (ast.IfExp, ast.BoolOp, ast.Lambda)):
                return
            if isinstance(node, ast.BinOp) and node in self.typed.types:
                divide(node.op, node, node.right)
            construct = (self.typed.construct(node.func) or self.typed.method(node)) \
                if isinstance(node, ast.Call) else None
            if hasattr(construct, "checks"):
                checks.extend(construct.checks(self, node))  # the ValueErrors of its arguments
            if node in self.typed.dynamic_items:
                n, index = self.typed.dynamic_items[node], f"(long long)({self.expr(node.slice)})"
                checks.append((f"{index} < -{n}LL || {index} >= {n}LL", IndexError, "tuple index out of range"))
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(s.value)
        self._raise_where(checks, s)

    def _raise_where(self, checks, s):
        """Statement `s`'s checks: each (C++ condition, exception class,
        message) raises where its condition holds."""
        for test, cls, message in checks:
            code = self.module.exception_code(cls, message, self.f.filename, s.lineno)
            self.line(f"if ({test}) {{ kiln_jit_record(&kiln_jit_error, {code}); {self._leave()} }}")

    def _nested(self, body):
        self._depth += 1
        self.block(body)
        self._depth -= 1

    def _stmt_Expr(self, s):
        if not (isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)):  # not a docstring
            self.line(f"{self.expr(s.value)};")

    def _stmt_Pass(self, s):
        pass

    def _stmt_Break(self, s):
        flag = self._loops[-1] if self._loops else None
        self.line(f"{{ {flag} = true; break; }}" if flag else "break;")

    def _loop(self, s, emit_loop):
        """A loop, and its else: run unless a break of this loop ended it."""
        flag = f"_broke{s.lineno}_{s.col_offset}" if s.orelse else None
        if flag:
            self.line("{")
            self._depth += 1
            self.line(f"bool {flag} = false;")
        self._loops.append(flag)
        emit_loop()
        self._loops.pop()
        if flag:
            self.line(f"if (!{flag}) {{")
            self._nested(s.orelse)
            self.line("}")
            self._depth -= 1
            self.line("}")

    def _stmt_Continue(self, s):
        self.line("continue;")

    def _stmt_Assign(self, s):
        self._assign(s.targets[0], s.value, s)

    def _stmt_AnnAssign(self, s):
        if s.value is not None:
            self._assign(s.target, s.value, s)

    def _assign(self, target, value, s):
        if isinstance(target, ast.Name) and target.id in self.typed.arrays:
            local_arrays.declare(self, target.id, value)
            return
        if isinstance(target, ast.Tuple):
            temps = [f"_t{s.lineno}_{k}" for k in range(len(target.elts))]
            self.line("{")
            items = self.tuple_items(value)
            if isinstance(value, ast.Call) and isinstance(self.typed.types.get(value), T.TupleType):
                self.line(f"  const auto _t{s.lineno} = {self.expr(value)};")  # the call made once
                items = [(f"kiln_get({k}, _t{s.lineno})", ty) for k, (_, ty) in enumerate(items)]
            for tmp, (code, ty) in zip(temps, items):
                self.line(f"  const {T.c_name(ty)} {tmp} = {code};")
            for t, tmp in zip(target.elts, temps):
                self.line(f"  {self._target(t)} = {cast(self._target_type(t), tmp)};")
            self.line("}")
            return
        if target in self.typed.masked:
            self.line(array_expressions.masked_store_code(self, target, value))
            return
        if (isinstance(target, ast.Name) and value in self.typed.in_place) or (
                self.module.host_entry and isinstance(target, (ast.Subscript, ast.Attribute)) and
                isinstance(self.type_of(target), T.ArrayType) and isinstance(self.type_of(value), T.ArrayType)):
            self.line(array_expressions.store_code(self, target, value))
            return
        if isinstance(target, (ast.Subscript, ast.Attribute)) and isinstance(self.type_of(target), T.ArrayType):
            self.line(f"kiln_assign({self._target(target)}, {self.expr(value)});")  # into every element
            return
        if not isinstance(target, ast.Name) and isinstance(self.type_of(target), T.RecordType):
            self.line(f"*{self._target(target)} = *{self.expr(value)};")  # the record's bytes copied
            return
        self.line(f"{self._target(target)} = {cast(self._target_type(target), self.expr(value))};")

    def _target(self, t):
        return t.id if isinstance(t, ast.Name) else self.expr(t)

    def _target_type(self, t):
        return self.typed.locals[t.id] if isinstance(t, ast.Name) else self.type_of(t)

    def _stmt_With(self, s):
        """The context managers' C++ objects (Typed._with), alive for the block."""
        self.line("{")
        self._depth += 1
        for k, item in enumerate(s.items):
            construct = self.typed.construct(item.context_expr.func)
            if self._may_raise():
                self._raise_where(construct.checks(self, item.context_expr), s)
            self.line(construct.enter(self, item.context_expr, f"_with{s.lineno}_{k}"))
        self.block(s.body)
        self._depth -= 1
        self.line("}")

    def _stmt_If(self, s):
        self.line(f"if ((bool)({self.expr(s.test)})) {{")
        self._nested(s.body)
        if s.orelse:
            self.line("} else {")
            self._nested(s.orelse)
        self.line("}")

    def _stmt_While(self, s):
        self._loop(s, lambda: self._while(s))

    def _while(self, s):
        self.line(f"while ((bool)({self.expr(s.test)})) {{")
        self._nested(s.body)
        self.line("}")

    def _stmt_For(self, s):
        self._loop(s, lambda: self._for(s))

    def _for(self, s):
        plan = self.typed.iterations.get(s)
        if plan is not None:
            self._for_sequence(s, plan)
            return
        it = s.iter
        reductions = self._parallel_reductions(s)
        if reductions is not None:
            self._parallel_for(s, reductions)
            return
        start, stop, step = self.range_bounds(it)
        counter = f"_i{s.lineno}_{s.col_offset}"
        step_value = None
        if len(it.args) == 3:
            try:
                step_value = self.constant(it.args[2])
            except CompileError:
                pass
        test = (f"{counter} < _stop" if step_value is None or step_value > 0 else f"{counter} > _stop") \
            if len(it.args) < 3 or step_value is not None else f"(_step > 0 ? {counter} < _stop : {counter} > _stop)"
        if (step_value is None or step_value == 0) and len(it.args) == 3 and self._may_raise():
            # Python's ValueError, not a loop that never ends
            code = self.module.exception_code(ValueError, "range() arg 3 must not be zero", self.f.filename, s.lineno)
            self.line(f"if ((long long)({self.expr(it.args[2])}) == 0) {{ kiln_jit_record(&kiln_jit_error, {code}); "
                      f"{self._leave()} }}")
        self._range_loop(s, f"for (long long {counter} = {start}, _stop = {stop}, _step = {step}; {test}; "
                            f"{counter} += _step)", counter)

    def _range_loop(self, s, head, counter):
        """`head` { the loop's target = `counter`; its body }."""
        self.line(head + " {")
        self._depth += 1
        self.line(f"{s.target.id} = {counter};")
        self.block(s.body)
        self._depth -= 1
        self.line("}")

    # OpenMP's reduction operator of each `acc = acc <op> x` Numba's parfors
    # take for a reduction.
    _REDUCING = {ast.Add: "+", ast.Sub: "+", ast.Mult: "*", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}

    def _parallel_reductions(self, s):
        """{variable: OpenMP operator} of a prange loop of a parallel=True
        function that can run split over the CPU's threads, or None: its
        iterations independent, as prange promises, with no way out of the
        loop but its end (no break, return or raise), a positive step, and
        reductions (``acc += ...``, ``acc = min(acc, ...)``) on real numbers.
        Any other local the body assigns is each iteration's own."""
        it = s.iter
        if not (self.f.parallel and self.module.host_entry and self.typed.global_value(it.func) is K.prange):
            return None
        if len(it.args) == 3 and not (isinstance(it.args[2], ast.Constant) and it.args[2].value > 0):
            return None
        body = [n for b in s.body for n in ast.walk(b)]
        if s.orelse or any(isinstance(n, (ast.Break, ast.Return, ast.Raise, ast.Yield)) for n in body):
            return None
        reductions = {}
        for n in body:  # function.py has made each `acc += x` an `acc = acc + x`
            if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)):
                continue
            name, value = n.targets[0].id, n.value
            if isinstance(value, ast.BinOp) and type(value.op) in self._REDUCING and (
                    _is_name(value.left, name) or (_is_name(value.right, name) and not isinstance(value.op, ast.Sub))):
                reductions.setdefault(name, set()).add(self._REDUCING[type(value.op)])
            elif isinstance(value, ast.Call) and self.typed.global_value(value.func) in (min, max) and \
                    any(_is_name(a, name) for a in value.args):
                reductions.setdefault(name, set()).add(self.typed.global_value(value.func).__name__)
        assigned_before = self._names_assigned_outside(s)
        found = {}
        for name, operators in reductions.items():
            if name not in assigned_before:
                continue  # a fresh local of each iteration: private
            ty = self.typed.locals.get(name)
            if len(operators) != 1 or not (T.is_int(ty) or T.is_float(ty)) or ty.name == "float16":
                return None
            found[name] = operators.pop()
        return found

    def _names_assigned_outside(self, loop):
        """The local names the function assigns outside `loop` (before or
        after it): where the loop's own assignments are reductions."""
        inside = {id(n) for n in ast.walk(loop)}
        return set(self.f.params) | _assigned_names(n for n in ast.walk(self.f.node) if id(n) not in inside)

    def _parallel_for(self, s, reductions):
        """A prange loop split over the CPU's threads by OpenMP (the host
        compiler builds with -fopenmp): every local the body assigns but the
        reductions is each thread's own. Only in kiln.numba's host entries
        (_parallel_reductions): in a kernel, on a GPU or on the CPU, prange
        is range."""
        it = s.iter
        start, stop, step = self.range_bounds(it)
        tag = f"{s.lineno}_{s.col_offset}"
        counter = f"_i{tag}"
        assigned = _assigned_names(n for b in s.body for n in ast.walk(b))
        private = sorted((assigned | {s.target.id}) - set(reductions) - set(self.f.params))
        private = [name for name in private if name in self.typed.locals]
        clauses = "".join(f" reduction({op}:{name})" for name, op in sorted(reductions.items()))
        clauses += f" private({', '.join(private)})" if private else ""
        self.line("{")
        self._depth += 1
        self.line(f"const long long _start{tag} = {start}, _stop{tag} = {stop}, _step{tag} = {step};")
        # The schedule is the thread's (kiln.numba's set_parallel_chunksize)
        self.module.includes.add(numba_threads.HEADER)
        self.line("kiln_numba_schedule();")
        self.lines.append("#pragma omp parallel for schedule(runtime)" + clauses)
        # No statement may leave an OpenMP loop's body, so there a division
        # by zero is not checked (NumPy's error model: inf or nan).
        self._in_openmp += 1
        self._range_loop(s, f"for (long long {counter} = _start{tag}; {counter} < _stop{tag}; {counter} += _step{tag})",
                         counter)
        self._in_openmp -= 1
        self._depth -= 1
        self.line("}")

    def range_bounds(self, call):
        """The C++ start, stop and step of a range() call."""
        bounds = [f"(long long)({self.expr(a)})" for a in call.args]
        return (["0LL"] + bounds + ["1LL"])[:3] if len(bounds) == 1 else (
            bounds + ["1LL"] if len(bounds) == 2 else bounds)

    def _for_sequence(self, s, plan):
        """A loop over arrays and tuples in step (Typed._for_sequence's plan),
        as long as the shortest."""
        tag = f"{s.lineno}_{s.col_offset}"
        counter, lengths, items = f"_k{tag}", [], []
        self.line("{")
        self._depth += 1
        for n, (kind, node, ty, _) in enumerate(plan):
            source = f"_seq{tag}_{n}"
            if kind == "index":
                self.line(f"const long long {source} = (long long)({self.expr(node)});")
                items.append(f"({source} + {counter})")
            elif kind == "range":
                start, stop, step = self.range_bounds(node)
                self.line(f"const long long {source}_start = {start}, {source}_stop = {stop}, {source}_step = {step};")
                lengths.append(f"({source}_step == 0 ? 0LL : {source}_step > 0 ? ({source}_stop > {source}_start ? ({source}_stop - "
                               f"{source}_start + {source}_step - 1) / {source}_step : 0LL) : ({source}_start > "
                               f"{source}_stop ? ({source}_start - {source}_stop - {source}_step - 1) / "
                               f"-{source}_step : 0LL))")
                items.append(f"({source}_start + {counter} * {source}_step)")
            elif kind == "array":
                self.line(f"const auto {source} = {self.expr(node)};")
                lengths.append(f"{source}.shape[0]")
                items.append(f"kiln_drop<0>({source}, {counter})" if isinstance(ty, T.ArrayType)
                             else f"{source}.at({counter})")
            else:
                codes = [cast(ty, code) for code, _ in self.tuple_items(node)]
                self.line(f"const {T.c_name(ty)} {source}[] = {{{', '.join(codes)}}};")
                lengths.append(f"{len(codes)}LL")
                items.append(f"{source}[{counter}]")
        bound = lengths[0]
        for length in lengths[1:]:
            bound = f"({length} < {bound} ? {length} : {bound})"
        self.line(f"for (long long {counter} = 0, _n{tag} = {bound}; {counter} < _n{tag}; ++{counter}) {{")
        self._depth += 1
        for (_, _, _, name), item in zip(plan, items):
            self.line(f"{name.id} = {cast(self.typed.locals[name.id], item)};")
        self.block(s.body)
        self._depth -= 1
        self.line("}")
        self._depth -= 1
        self.line("}")

    def _leave(self):
        r = self.typed.return_type
        return "return;" if self.typed.kernel or r is None else "return {};"

    def _stmt_Raise(self, s):
        """The thread stops (as Numba's kernels do); in debug mode it first
        records the exception for the host to raise."""
        code = self.typed.raised[s]
        if code:
            self.line(f"kiln_jit_record(&kiln_jit_error, {code});")
        self.line(self._leave())

    def _stmt_Assert(self, s):
        """Checked in debug mode only, as Numba's asserts are."""
        code = self.typed.raised[s]
        if code:
            self.line(f"if (!(bool)({self.expr(s.test)})) {{ kiln_jit_record(&kiln_jit_error, {code}); {self._leave()} }}")

    def _stmt_Return(self, s):
        r = self.typed.return_type
        if s.value is None:
            self.line("return;" if self.typed.kernel or r is None else "return {};")
            return
        self.line(f"return {cast(r, self.expr(s.value))};")


def _is_name(node, name):
    return isinstance(node, ast.Name) and node.id == name


def _assigned_names(nodes):
    """The names the statements among `nodes` assign (tuple targets too)."""
    names = set()
    for n in nodes:
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, (ast.AugAssign, ast.For)) \
            else []
        for target in targets:
            names.update(_bound(target))
    return names


def _bound(target):
    """The names an assignment target binds: `a[i] = v` binds none."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(_bound(e) for e in target.elts))
    if isinstance(target, ast.Starred):
        return _bound(target.value)
    return set()
