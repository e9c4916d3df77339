"""The ``kiln-names`` directive: every public name of a kiln module, grouped
by the module that implements it, each documented from its docstring.
kiln's public modules re-export names from private rooms (``kiln.sum`` lives
in kiln/_numpy/statistics/reductions.py), which ``automodule`` alone would
skip; the room's docstring titles the group. An object met a second time
(an alias such as ``kiln.around``, or a class two modules show) points to
where it is documented."""
import importlib
import inspect
import re
import sys

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from sphinx.util.nodes import nested_parse_with_titles

CONSTANTS = "constants"


def _key(obj):
    return f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', id(obj)))}"


def _is_ufunc(obj):
    return type(obj).__name__ == "ufunc" and type(obj).__module__.startswith("kiln.")


def _home(module_name, obj):
    """The module an object belongs to (this one, a submodule or a private
    room), or None for one the module only uses (a dict, or a name another
    public module documents)."""
    if inspect.isroutine(obj) or inspect.isclass(obj):
        home = getattr(obj, "__module__", None) or ""
        if (home == module_name or home.startswith(module_name + ".")
                or any(part.startswith("_") for part in home.split("."))):
            return home
        return None
    if type(obj).__module__.startswith("kiln"):
        return type(obj).__module__
    if module_name == "kiln" and isinstance(obj, (int, float, type(None))):
        return CONSTANTS
    return None


def _title(home):
    if home == CONSTANTS:
        return "Constants"
    doc = inspect.getdoc(sys.modules.get(home)) if home in sys.modules else None
    if not doc:
        return home
    first = doc.split("\n\n")[0].replace("\n", " ")
    return first.split(": ")[0].split(". ")[0].rstrip(".").replace("``", "").replace("`", "")


def _entry(module_name, attr, obj, documented):
    target = f"{module_name}.{attr}"
    key = _key(obj)
    if not _is_ufunc(obj) and home_is_object(obj) and key in documented:
        role = "class" if inspect.isclass(obj) else "func"
        return [f".. py:data:: {target}", "   :no-index:", "", f"   The same object as :py:{role}:`{documented[key]}`.", ""]
    if home_is_object(obj):
        documented[key] = target
    if _is_ufunc(obj):
        args = ", ".join(f"x{i + 1}" for i in range(obj.nin)) if obj.nin > 1 else "x"
        lines = [f".. py:function:: {target}({args}, /, out=None, **kwargs)", "",
                 f"   A ufunc (``kiln.ufunc``, {obj.nin} in, {obj.nout} out), elementwise on every device, with the "
                 "methods ``reduce``, ``accumulate``, ``outer``, ``at`` and ``reduceat``.", ""]
        doc = inspect.cleandoc(obj.__doc__ or "")
        if re.match(r"\w+\(.*\) -> ", doc):
            lines += [f"   The C++ function it calls: ``{doc.splitlines()[0]}``.", ""]
        elif doc:
            lines += ["   " + line for line in doc.splitlines()] + [""]
        return lines
    if inspect.isclass(obj):
        return [f".. autoclass:: {target}", ""]
    if callable(obj):
        return [f".. autofunction:: {target}", ""]
    if not type(obj).__module__.startswith("kiln"):
        return [f".. py:data:: {target}", f"   :value: {obj!r}", ""]
    return [f".. autodata:: {target}", "   :annotation:", ""]


def home_is_object(obj):
    return inspect.isroutine(obj) or inspect.isclass(obj) or _is_ufunc(obj)


class KilnNames(Directive):
    required_arguments = 1

    def run(self):
        module_name = self.arguments[0]
        module = importlib.import_module(module_name)
        env = self.state.document.settings.env
        if not hasattr(env, "kiln_documented"):
            env.kiln_documented = {}
        groups = {}
        for attr in sorted(vars(module)):
            obj = getattr(module, attr)
            if attr.startswith("_") or inspect.ismodule(obj):
                continue
            home = _home(module_name, obj)
            if home is not None:
                groups.setdefault(home, []).append((attr, obj))
        lines = []
        for home in sorted(groups, key=lambda h: (_title(h).lower(), h)):
            title = f"{module_name}: {_title(home)}"
            lines += [title, "~" * len(title), ""]
            for attr, obj in groups[home]:
                lines += _entry(module_name, attr, obj, env.kiln_documented)
        holder = nodes.section()
        holder.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source=module_name), holder)
        return holder.children


def setup(app):
    app.add_directive("kiln-names", KilnNames)
    return {"parallel_read_safe": False}
