"""A module that can also be called: how one name serves both dialects where
CuPy has a module and Numba a function of the same name (``cuda.stream`` is
CuPy's module ``cupy.cuda.stream`` and Numba's ``numba.cuda.stream()``; so is
``cuda.event``). The module keeps every attribute CuPy code reads, and
calling it runs the function Numba code calls."""
import sys
import types


class CallableModule(types.ModuleType):
    """A module whose call is its ``__numba_call__`` function."""

    def __call__(self, *args, **kwargs):
        return self.__numba_call__(*args, **kwargs)


def make_callable(module_name, function):
    """Makes the module `module_name` callable as `function`."""
    module = sys.modules[module_name]
    module.__numba_call__ = function
    module.__class__ = CallableModule
