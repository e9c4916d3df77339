"""Numba's CUDA kernel language, translated from a Python function to CUDA
C++ for one set of argument types, in three passes, each a file:

1. function.py: parsing (the function's AST, its names, sugar removed);
2. infer.py: type inference (a type for every local and expression);
3. emit.py: C++ emission from the typed tree.

Each call or special name of the kernel language is a construct of its own
in constructs/, with its typing rule and its C++ side by side.
"""
from .emit import Emitter
from .function import Function  # noqa: F401  (what the dispatcher parses with)
from .infer import Typed


class Translation:
    """One specialisation: C++ for `function` with parameter types `arg_types`.

    kernel=True gives a kernel; otherwise a device function whose return
    type is inferred. `module` collects the definitions the translation
    needs (device functions, constant arrays)."""

    def __init__(self, function, arg_types, module, kernel, c_name):
        typed = self.typed = Typed(function, arg_types, module, kernel)
        self.return_type = typed.return_type
        self.lines = Emitter(typed, c_name).lines
