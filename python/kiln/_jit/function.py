"""Pass 1, parsing: a Python function's source as an AST with the file's line
numbers, its parameters and the names it can see, with the sugar the later
passes need not know removed (``x += v`` is ``x = x + v``; a conditional
between two tuples is a tuple of conditionals)."""
import ast
import copy
import inspect
import re
import textwrap

from .errors import UnsupportedError


class Function:
    """The parsed source of a Python function, shared by its specialisations."""

    def __init__(self, pyfunc, numba_integers=True, parallel=False, error_model="python"):
        self.pyfunc = pyfunc
        self.numba_integers = numba_integers  # see infer.Typed
        self.parallel = parallel  # Numba's parallel=True: its prange loops split over the CPU's threads (emit.py)
        # Numba's error_model: "python" (a division by zero raises, a host
        # function's default) or "numpy" (it gives inf or nan, as in a kernel)
        self.error_model = error_model
        self.name = pyfunc.__name__
        try:
            lines, self.first_line = inspect.getsourcelines(pyfunc)
            self.filename = inspect.getsourcefile(pyfunc) or "<unknown>"
            text = "".join(lines)
        except (OSError, TypeError):  # made by exec, python -c or at the prompt: no source file
            text, self.first_line, self.filename = _decompiled(pyfunc), 1, f"<{self.name}, decompiled>"
        tree = ast.parse(_statement_text(text))
        self.node = _as_function(tree, pyfunc)
        if not isinstance(self.node, ast.FunctionDef):
            raise UnsupportedError(f"{self.name}: only functions defined with def can be jitted")
        ast.increment_lineno(tree, self.first_line - 1)
        args = self.node.args
        if args.vararg or args.kwarg:
            self.error(UnsupportedError, self.node, "variable arguments (*args, **kwargs)")
        self.signature = inspect.signature(pyfunc)  # Python's rules for defaults and keywords (bind)
        self.scope = {**pyfunc.__globals__, **_nonlocals(pyfunc)}
        _Desugar().visit(self.node)
        _inline_built_lists(self.node)
        _Unroll(self).visit(self.node)
        _separate_loop_targets(self.node)
        _rename_cxx_keywords(self.node)
        self.params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        self.assigned_once = _assigned_once(self.node, self.params)

    def bind(self, args, kwargs):
        """A call's arguments in parameter order, the defaults of those not
        given filled in, by Python's rules (and its TypeError)."""
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return [bound.arguments[p] for p in self.params]

    def bind_nodes(self, call):
        """The argument expressions of `call` (of this function, in compiled
        code) in parameter order: its keywords placed, each default not
        given a constant, as Numba types an omitted argument."""
        if any(k.arg is None for k in call.keywords):
            self.error(UnsupportedError, call, "a call with **kwargs")
        bound = self.bind(call.args, {k.arg: k.value for k in call.keywords})
        nodes = []
        for param, value in zip(self.params, bound):
            if not isinstance(value, ast.AST):
                if not isinstance(value, (bool, int, float, complex)):
                    self.error(UnsupportedError, call, f"the default {value!r} of {param} in a call from compiled "
                                                       "code (a number's default is supported)")
                value = ast.copy_location(ast.Constant(value=value), call)
            nodes.append(value)
        return nodes

    @property
    def c_name(self):
        return re.sub(r"\W", "_", self.name)  # "<lambda>" is "_lambda_" in C++

    def error(self, kind, node, what):
        line = getattr(node, "lineno", self.first_line)
        raise kind(f"{what} (in {self.name}, {self.filename}:{line})")


def _assigned_once(function, params):
    """The locals stored exactly once, each by a plain ``name = value``: name -> value."""
    stores, values = {}, {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
    return {name: value for name, value in values.items() if stores.get(name) == 1 and name not in params}


def _nonlocals(pyfunc):
    """The values of the function's free variables, by name; a cell not yet
    filled (a function naming itself while it is being decorated) left out."""
    values = {}
    for name, cell in zip(pyfunc.__code__.co_freevars, pyfunc.__closure__ or ()):
        try:
            values[name] = cell.cell_contents
        except ValueError:  # empty
            pass
    return values


def _statement_text(text):
    """Source lines as a parsable statement: dedented, and a lambda's line
    that continues an expression (``f(lambda a: a,``) closed off."""
    text = textwrap.dedent(text)
    try:
        ast.parse(text)
        return text
    except SyntaxError:
        return "(" + text.strip().rstrip(",") + ")" if "lambda" in text else text


def _as_function(tree, pyfunc):
    """The def of `pyfunc` in the parsed source: its first statement, or for
    a lambda, the lambda with its parameters on those lines as a def."""
    if pyfunc.__name__ != "<lambda>":
        return tree.body[0]
    params = list(pyfunc.__code__.co_varnames[:pyfunc.__code__.co_argcount])
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and [a.arg for a in n.args.args] == params]
    if len(found) != 1:
        raise UnsupportedError(f"cannot tell which lambda on its line is the one jitted ({len(found)} match)")
    lam = found[0]
    body = [ast.copy_location(ast.Return(value=lam.body), lam.body)]
    return ast.copy_location(ast.FunctionDef(name="_lambda_", args=lam.args, body=body, decorator_list=[],
                                             returns=None, type_comment=None), lam)


def _decompiled(pyfunc):
    """Python source for a function without a source file, rebuilt from its
    bytecode by depyf (what Numba reads directly; kiln translates source)."""
    name = pyfunc.__name__
    try:
        import depyf
    except ImportError:
        raise UnsupportedError(f"kiln.cuda.jit needs the source of {name}: it has no source file (made by exec, "
                               "python -c or at the interactive prompt); install depyf to translate such "
                               "functions from their bytecode") from None
    try:
        return depyf.decompile(pyfunc.__code__)
    except Exception as e:  # depyf's own errors, of many kinds
        raise UnsupportedError(f"kiln.cuda.jit could not rebuild the source of {name} from its bytecode "
                               f"(it has no source file): {e}") from None


# C++'s keywords and the names its headers reserve that a Python local may
# be called (``xor = 16``, a parameter ``int``).
_CXX_WORDS = frozenset(
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t class compl const "
    "const_cast constexpr continue decltype default delete do double dynamic_cast else enum explicit export extern "
    "false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or "
    "or_eq private protected public register reinterpret_cast return short signed sizeof static static_assert "
    "static_cast struct switch template this thread_local throw true try typedef typeid typename union unsigned "
    "using virtual void volatile wchar_t while xor xor_eq threadIdx blockIdx blockDim gridDim warpSize".split())


def _rename_cxx_keywords(function):
    """Locals and parameters named like a C++ keyword get a name C++ accepts
    (a local is local throughout its function, so every use is renamed)."""
    local = {a.arg for a in function.args.args} | {n.id for n in ast.walk(function)
                                                   if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    clashing = local & _CXX_WORDS
    if not clashing:
        return
    for n in ast.walk(function):
        if isinstance(n, ast.Name) and n.id in clashing:
            n.id = f"kiln_local_{n.id}"
        elif isinstance(n, ast.arg) and n.arg in clashing:
            n.arg = f"kiln_local_{n.arg}"


class _Unroll(ast.NodeTransformer):
    """``for x in literal_unroll(t)``: the body once for each item of `t` (a
    tuple in the function's scope, or written out), `x` standing for that
    item, so each copy is typed for its own item. A tuple only known at run
    time is looped over as it is."""

    def __init__(self, function):
        self.f = function

    def visit_For(self, s):
        self.generic_visit(s)
        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, (ast.Name, ast.Attribute)) and len(it.args) == 1
                and _resolve(self.f.scope, it.func) is _literal_unroll()):
            return s
        source = it.args[0]
        value = _resolve(self.f.scope, source) if isinstance(source, (ast.Name, ast.Attribute)) else None
        if isinstance(source, ast.Tuple):
            items = source.elts
        elif isinstance(value, tuple):
            items = []
            for k, item in enumerate(value):
                name = f"kiln_unrolled_{s.lineno}_{s.col_offset}_{k}"
                self.f.scope[name] = item
                items.append(ast.Name(id=name, ctx=ast.Load()))
        else:
            s.iter = source
            return s
        body = without_last_continue(s.body)
        if not isinstance(s.target, ast.Name) or s.orelse or _stores(body, s.target.id) or leaves_loop(body):
            self.f.error(UnsupportedError, s, "literal_unroll() with a target that is not one name, an else, "
                                              "a break or continue, or an assignment to the target")
        unrolled = []
        for item in items:
            for statement in copy.deepcopy(body):
                unrolled.append(_Substitute(s.target.id, item).visit(statement))
        return [ast.fix_missing_locations(u) for u in unrolled] or [ast.copy_location(ast.Pass(), s)]


def _inline_built_lists(node):
    """``t = [a]; t.append(b); t.extend((c, d)); f(*tuple(t))``, how depyf
    decompiles a call of many or spread arguments, as ``f(a, b, c, d)``: a
    list built by appends and extends right before the one call that
    spreads it."""
    for field in ("body", "orelse"):
        body = getattr(node, field, None)
        if not isinstance(body, list):
            continue
        for statement in body:
            _inline_built_lists(statement)
        k = 0
        while k < len(body):
            s = body[k]
            if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                    and isinstance(s.value, ast.List)):
                k += 1
                continue
            name, items, end = s.targets[0].id, list(s.value.elts), k + 1
            while end < len(body) and isinstance(body[end], ast.Expr) and isinstance(body[end].value, ast.Call):
                call = body[end].value
                if not (isinstance(call.func, ast.Attribute) and call.func.attr in ("append", "extend") and
                        isinstance(call.func.value, ast.Name) and call.func.value.id == name and len(call.args) == 1):
                    break
                added = call.args[0]
                if call.func.attr == "append":
                    items.append(added)
                elif isinstance(added, (ast.Tuple, ast.List)):
                    items.extend(added.elts)
                else:  # spread where the call is typed (infer.Typed._spread)
                    items.append(ast.copy_location(ast.Starred(value=added, ctx=ast.Load()), added))
                end += 1
            spread = [c for c in ast.walk(body[end]) if isinstance(c, ast.Call) for a in c.args
                      if isinstance(a, ast.Starred) and _names_list(a.value, name)] if end < len(body) else []
            if len(spread) != 1:
                k += 1
                continue
            call = spread[0]
            call.args = [a2 for a in call.args
                         for a2 in (items if isinstance(a, ast.Starred) and _names_list(a.value, name) else [a])]
            del body[k:end]


def _names_list(node, name):
    """Whether `node` is `name` or `tuple(name)`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tuple" and len(node.args) == 1:
        node = node.args[0]
    return isinstance(node, ast.Name) and node.id == name


def _separate_loop_targets(function):
    """A name bound only by for loops and read only inside their bodies is a
    new local in each loop (name__loop1, ...), so that loops may walk values
    of different types (``for v in (a2, b2): ...`` then ``for v in (a3,)``),
    as Numba's SSA form lets them. Any other use keeps one local."""
    bound_by, loads, other_stores = {}, {}, set()
    for node in ast.walk(function):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            bound_by.setdefault(node.target.id, []).append(node)
    for node in ast.walk(function):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loads.setdefault(node.id, []).append(node)
            elif not any(node is loop.target for loop in bound_by.get(node.id, ())):
                other_stores.add(node.id)
    params = {a.arg for a in function.args.args}
    for name, loops in bound_by.items():
        if len(loops) < 2 or name in other_stores or name in params:
            continue
        inside = {id(n) for loop in loops for statement in loop.body for n in ast.walk(statement)}
        if not all(id(n) in inside for n in loads.get(name, ())):
            continue
        # innermost first (ast.walk is breadth-first): a loop nested in another of
        # the same name renames its own reads before the outer one renames the rest
        for k, loop in reversed(list(enumerate(loops))):
            fresh = f"{name}__loop{k + 1}"
            for statement in loop.body:
                for n in ast.walk(statement):
                    if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
                        n.id = fresh
            loop.target.id = fresh


def _literal_unroll():
    from .._numba_cuda.kernel_language import literal_unroll
    return literal_unroll


def _resolve(scope, node):
    if isinstance(node, ast.Name):
        return scope.get(node.id)
    base = _resolve(scope, node.value) if isinstance(node, ast.Attribute) else None
    return getattr(base, node.attr, None) if base is not None else None


def _stores(body, name):
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
               for s in body for n in ast.walk(s))


def without_last_continue(body):
    """A loop's body less a last ``continue`` (as decompiled loops end), which
    leaves nothing out."""
    return body[:-1] if body and isinstance(body[-1], ast.Continue) else body


def leaves_loop(body):
    """A break or continue of the loop whose body this is (not of an inner loop)."""
    for s in body:
        if isinstance(s, (ast.Break, ast.Continue)):
            return True
        if isinstance(s, ast.If) and (leaves_loop(s.body) or leaves_loop(s.orelse)):
            return True
    return False


class _Substitute(ast.NodeTransformer):
    def __init__(self, name, item):
        self.name, self.item = name, item

    def visit_Name(self, node):
        return ast.copy_location(copy.deepcopy(self.item), node) if node.id == self.name else node


class _Desugar(ast.NodeTransformer):
    def visit_For(self, s):
        self.generic_visit(s)
        it = s.iter  # for x in iter(E), as decompiled loops read: for x in E
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "iter" and \
                len(it.args) == 1 and not it.keywords:
            s.iter = it.args[0]
        return s

    def visit_Call(self, node):
        """f(*[a, b]) and f(*(a, b)) are f(a, b) (how decompiled calls of many arguments read)."""
        self.generic_visit(node)
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred) and isinstance(a.value, (ast.List, ast.Tuple)):
                args.extend(a.value.elts)
            else:
                args.append(a)
        node.args = args
        return node

    def visit_Return(self, s):
        if isinstance(s.value, ast.Constant) and s.value.value is None:
            s.value = None  # return None is return
        return s

    def visit_AugAssign(self, s):
        self.generic_visit(s)
        if isinstance(s.target, ast.Subscript):
            load = ast.Subscript(value=s.target.value, slice=s.target.slice, ctx=ast.Load())
        elif isinstance(s.target, ast.Name):
            load = ast.Name(id=s.target.id, ctx=ast.Load())
        elif isinstance(s.target, ast.Attribute):  # a record's field: r.x += 1
            load = ast.Attribute(value=s.target.value, attr=s.target.attr, ctx=ast.Load())
        else:
            return s  # left for the passes to refuse
        value = ast.copy_location(ast.BinOp(left=ast.copy_location(load, s), op=s.op, right=s.value), s)
        value.augmented = True  # of an array, in place (the passes know the types)
        return ast.copy_location(ast.Assign(targets=[s.target], value=value), s)

    def visit_IfExp(self, node):
        self.generic_visit(node)
        body, orelse = node.body, node.orelse
        if isinstance(body, ast.Tuple) and isinstance(orelse, ast.Tuple) and len(body.elts) == len(orelse.elts):
            items = [ast.copy_location(ast.IfExp(test=node.test, body=a, orelse=b), node)
                     for a, b in zip(body.elts, orelse.elts)]
            return ast.copy_location(ast.Tuple(elts=items, ctx=ast.Load()), node)
        return node
