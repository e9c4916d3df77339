"""The house rules docs/design.md states, checked: no import circles in the
Python package (lazy imports inside functions count), the core includes no
backend, and device code lives in include/kiln/device, not in Python strings."""
import ast
import pathlib
import re

import pytest

import kiln

PACKAGE = pathlib.Path(kiln.__file__).parent
REPO = pathlib.Path(__file__).resolve().parents[2]
# Python strings that name CUDA's kernel qualifiers without being device code.
QUALIFIER_ALLOWED = {
    "_cupy_kernels/raw.py": "the patterns that find kernels in users' source to read their parameters and that make "
                      "them device functions",
}


def _modules():
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        found[name] = (path, is_package)
    for path in PACKAGE.glob("_core*.so"):
        found["kiln._core"] = (None, False)
    return found


def _import_graph():
    """module -> the kiln modules it imports anywhere in its text, with the
    packages each import runs first. `from X import name` is an edge to
    X.name where that is a module, else to X."""
    modules = _modules()
    graph = {}
    for name, (path, is_package) in modules.items():
        edges = set()
        if path is not None:
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    edges.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    if node.level:
                        base = name.split(".") if is_package else name.split(".")[:-1]
                        base = base[:len(base) - (node.level - 1)]
                        target = ".".join(base + ([node.module] if node.module else []))
                    else:
                        target = node.module or ""
                    for alias in node.names:
                        edges.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target)
        edges = {e for e in edges if e in modules}
        graph[name] = {a for e in edges for a in _packages_run_first(name, e, modules)} - {name}
    return graph


def _packages_run_first(importer, target, modules):
    """``target`` and the packages Python runs before it: importing ``a.b.c``
    runs ``a/__init__`` and ``a/b/__init__`` first. Those already running
    for ``importer`` (its own enclosing packages) add no edge."""
    parts = target.split(".")
    enclosing = {".".join(importer.split(".")[:k]) for k in range(1, importer.count(".") + 2)}
    chain = {".".join(parts[:k]) for k in range(1, len(parts))} - enclosing
    return {target} | {p for p in chain if p in modules}


def _cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_python_package_has_no_import_circles():
    graph = _import_graph()
    assert "kiln.cuda" in graph and "kiln._jit.dispatcher" in graph  # the walk saw the package
    cycles = _cycles(graph)
    described = ["; ".join(f"{m} -> {sorted(w for w in graph[m] if w in c)}" for m in c) for c in cycles]
    assert not cycles, "import circles: " + " | ".join(described)


def test_the_cycle_finder_finds_circles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_core_includes_no_backend():
    core = REPO / "src" / "core"
    if not core.is_dir():
        pytest.skip("the C++ sources are not beside this test (an installed kiln)")
    upward = [f"{p.name}: {line.strip()}" for p in core.iterdir() if p.suffix in (".cpp", ".hpp")
              for line in p.read_text().splitlines()
              if line.lstrip().startswith("#include") and re.search(r"cuda/|cpu/", line)]
    assert not upward, upward


def _docstrings(tree):
    nodes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef,
                                                                   ast.AsyncFunctionDef))]
    return {id(n.body[0].value) for n in nodes
            if n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def test_no_device_code_in_python_strings():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).as_posix() in QUALIFIER_ALLOWED:
            continue
        tree = ast.parse(path.read_text())
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if re.search(r"__(device|global)__", node.value):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not offenders, offenders
