"""The name-only shim PyCUDA's tests run through: ``pycuda`` is kiln and
``pycuda.X`` is ``kiln.X``. Nothing else is changed; a module kiln lacks
fails to import, as it would for a user."""
import importlib
import importlib.abc
import importlib.util
import sys

import kiln


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds pycuda and pycuda.X as kiln and kiln.X."""

    def find_spec(self, name, path=None, target=None):
        if name == "pycuda" or name.startswith("pycuda."):
            target_name = "kiln" + name[len("pycuda"):]
            if importlib.util.find_spec(target_name) is None:
                return None
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("kiln" + spec.name[len("pycuda"):])

    def exec_module(self, module):
        pass


def install():
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Alias())
    assert kiln  # imported first, so kiln's own imports are kiln's
