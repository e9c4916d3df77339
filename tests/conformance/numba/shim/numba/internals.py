"""Numba's compiler internals that Numba's CPU test files import at their
top (its IR, passes, typing templates, registries, runtime helpers): kiln
translates from the Python AST and has none of them; and the APIs of Numba
kiln.numba does not have yet (typed containers, jitclass). Each module below is
made on import, and each name in it is a class of that name; using one
(calling it, subclassing and making one) raises NotImplementedError naming
it, so that a file's other tests run while those that use Numba's internals
fail (and are listed in out_of_scope.txt with the reason)."""
import importlib.abc
import importlib.machinery
import sys
import types

MODULES = {
    "numba.core.inline_closurecall", "numba.core.types.functions",
    "numba.core.typing.arraydecl", "numba.core.registry",
    "numba.core.base", "numba.core.compiler", "numba.core.ir", "numba.core.cpu", "numba.core.cgutils",
    "numba.core.rewrites", "numba.core.annotations", "numba.core.ir_utils", "numba.core.compiler_machinery",
    "numba.core.typed_passes", "numba.core.untyped_passes", "numba.parfors", "numba.parfors.parfor",
    "numba.parfors.parfor_lowering", "numba.parfors.array_analysis", "numba.np.unsafe", "numba.np.unsafe.ndarray",
    "numba.np.ufunc_db", "numba.np.linalg", "numba.misc", "numba.misc.quicksort", "numba.misc.mergesort",
    "numba.misc.timsort", "numba._helperlib", "numba.core.runtime", "numba.core.datamodel", "numba.core.imputils",
    "numba.core.typeconv", "numba.core.dispatcher", "numba.core.serialize", "numba.np.ufunc",
    "numba.np.ufunc.parallel", "numba.np.ufunc.dufunc", "numba.np.ufunc.ufuncbuilder", "numba.np.ufunc.sigparse",
    "numba.np.ufunc.array_exprs", "numba.core.caching", "numba.core.callconv", "numba.core.event",
    # and Numba's APIs kiln.numba does not have (typed containers, jitclass, structref)
    "numba.typed", "numba.typed.typedlist", "numba.typed.typeddict", "numba.experimental",
    "numba.experimental.jitclass", "numba.experimental.structref", "numba.np.extensions",
}


class _Internal:
    _qualified = "a Numba internal"

    def __new__(cls, *args, **kwargs):
        raise NotImplementedError(f"{cls._qualified} is Numba's, and kiln.numba has no such thing")

    @classmethod
    def __class_getitem__(cls, item):
        return cls


def names_only(module_name):
    """A module's ``__getattr__`` making each name it lacks an internal's
    (a module of MODULES where one is meant)."""
    made = {}

    def name_of(name):
        if name.startswith("__"):
            raise AttributeError(name)
        qualified = f"{module_name}.{name}"
        if qualified in MODULES:
            return importlib.import_module(qualified)
        if name not in made:
            made[name] = type(name, (_Internal,), {"_qualified": qualified, "__module__": module_name})
        return made[name]

    return name_of


class _Module(types.ModuleType):
    def __getattr__(self, name):
        found = names_only(self.__name__)(name)
        setattr(self, name, found)
        return found


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname in MODULES:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = _Module(spec.name, f"{spec.name}: Numba's compiler internal (names only)")
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
    sys.meta_path.append(_Finder())
