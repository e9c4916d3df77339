"""Kernels, device functions and CUDA ufuncs pickled by value, as Numba
pickles them (so that they cross to other processes, multiprocessing's
workers among them, even when defined inside a function): the Python
function's code (marshal), the globals it names (modules by name), its
defaults and its closure's values, rebuilt into a function in the loading
process. Its source must be readable there (kiln.cuda.jit translates the
source), as it is for the same files."""
import builtins
import importlib
import marshal
import types


class _Module:
    """A module a function names, pickled by its name."""

    def __init__(self, name):
        self.name = name

    def load(self):
        return importlib.import_module(self.name)


def _names(code):
    """The global names `code` and the code nested in it read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def function_state(fn):
    """What rebuild_function needs to make `fn` again."""
    g = fn.__globals__
    named = {n: _Module(g[n].__name__) if isinstance(g[n], types.ModuleType) else g[n]
             for n in _names(fn.__code__) if n in g}
    closure = tuple(cell.cell_contents for cell in fn.__closure__ or ())
    return marshal.dumps(fn.__code__), fn.__name__, fn.__qualname__, fn.__module__, named, fn.__defaults__, closure


def rebuild_function(code, name, qualname, module, named, defaults, closure):
    g = {"__builtins__": builtins, "__name__": module}
    g.update({n: v.load() if isinstance(v, _Module) else v for n, v in named.items()})
    fn = types.FunctionType(marshal.loads(code), g, name, defaults, tuple(types.CellType(v) for v in closure) or None)
    fn.__qualname__ = qualname
    return fn


def rebuild(factory, state, *args):
    """`factory` (a Dispatcher, a CUDAUFunc) of the function `state` describes."""
    return factory(rebuild_function(*state), *args)
