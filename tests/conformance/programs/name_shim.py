"""The name-only shim whole programs run through: an import of ``cupy``,
``cupyx``, ``numba`` or ``pycuda`` (or any module under them) is the kiln
module of the same place, and nothing else changes.

    python name_shim.py PROGRAM.py [ARGS...]

runs PROGRAM.py as ``__main__`` with the names mapped, as a user who ported
it by renaming imports would run it."""
import importlib
import importlib.abc
import importlib.util
import os
import runpy
import sys

# Each library's top-level name and the kiln package that speaks its dialect
# (kiln.pycuda is PyCUDA's package, kiln.numba Numba's top level).
ROOTS = {"cupy": "kiln", "cupyx": "kiln", "numba": "kiln.numba", "pycuda": "kiln.pycuda"}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        root, dot, rest = name.partition(".")
        if root not in ROOTS:
            return None
        target_name = ROOTS[root] + dot + rest
        if importlib.util.find_spec(target_name) is None:
            return None
        return importlib.util.spec_from_loader(name, self, origin=target_name)

    def create_module(self, spec):
        return importlib.import_module(spec.origin)

    def exec_module(self, module):
        pass


def install():
    sys.meta_path.insert(0, _Alias())


if __name__ == "__main__":
    install()
    program = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(program)))  # as `python PROGRAM.py` would
    runpy.run_path(program, run_name="__main__")
