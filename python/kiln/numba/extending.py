"""Numba's extension API, as far as kiln.numba has it: ``register_jitable``.
(Numba's ``overload``, ``intrinsic`` and typing extensions work on its IR
and LLVM, which kiln, translating Python source to C++, does not have.)"""


def register_jitable(*args, **options):
    """Numba's ``@register_jitable``: the function stays a Python function
    when Python calls it; compiled code calling it compiles it as an
    ``@njit`` function with these options."""
    def register(pyfunc):
        from .cpu_dispatcher import njit

        pyfunc._kiln_jitable = njit(**options)(pyfunc)
        return pyfunc

    if len(args) == 1 and callable(args[0]) and not options:
        return register(args[0])
    return register
