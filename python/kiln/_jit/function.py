"""Pass 1, parsing: a Python function's source as an AST with the file's line
numbers, its parameters and the names it can see, with the sugar the later
passes need not know removed (``x += v`` is ``x = x + v``; a conditional
between two tuples is a tuple of conditionals)."""
import ast
import inspect
import textwrap

from .errors import UnsupportedError


class Function:
    """The parsed source of a Python function, shared by its specialisations."""

    def __init__(self, pyfunc):
        self.pyfunc = pyfunc
        self.name = pyfunc.__name__
        try:
            lines, self.first_line = inspect.getsourcelines(pyfunc)
            self.filename = inspect.getsourcefile(pyfunc) or "<unknown>"
            text = "".join(lines)
        except (OSError, TypeError):  # made by exec, python -c or at the prompt: no source file
            text, self.first_line, self.filename = _decompiled(pyfunc), 1, f"<{self.name}, decompiled>"
        tree = ast.parse(textwrap.dedent(text))
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
        _Desugar().visit(self.node)

    def error(self, kind, node, what):
        line = getattr(node, "lineno", self.first_line)
        raise kind(f"{what} (in {self.name}, {self.filename}:{line})")


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


class _Desugar(ast.NodeTransformer):
    def visit_For(self, s):
        self.generic_visit(s)
        it = s.iter  # for x in iter(E), as decompiled loops read: for x in E
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "iter" and \
                len(it.args) == 1 and not it.keywords:
            s.iter = it.args[0]
        return s

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
        else:
            return s  # left for the passes to refuse
        value = ast.copy_location(ast.BinOp(left=ast.copy_location(load, s), op=s.op, right=s.value), s)
        return ast.copy_location(ast.Assign(targets=[s.target], value=value), s)

    def visit_IfExp(self, node):
        self.generic_visit(node)
        body, orelse = node.body, node.orelse
        if isinstance(body, ast.Tuple) and isinstance(orelse, ast.Tuple) and len(body.elts) == len(orelse.elts):
            items = [ast.copy_location(ast.IfExp(test=node.test, body=a, orelse=b), node)
                     for a, b in zip(body.elts, orelse.elts)]
            return ast.copy_location(ast.Tuple(elts=items, ctx=ast.Load()), node)
        return node
