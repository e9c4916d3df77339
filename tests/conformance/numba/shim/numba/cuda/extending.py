"""Numba's extension API (typing and lowering of new types through Numba's
LLVM code generator) has no counterpart in kiln, whose kernels are
translated to CUDA C++. These names accept a module's registrations and
ignore them, so that a test file which registers an extension type at import
(extensions_usecases.py) still imports; the tests that use such types fail
on kiln, and out_of_scope.txt lists them."""


class _Registry:
    def register(self, *args, **kwargs):
        return lambda f: f

    def __call__(self, *args, **kwargs):
        return lambda f: f


typeof_impl = type_callable = register_model = overload = overload_method = overload_attribute = _Registry()
lower_builtin = register_jitable = intrinsic = _Registry()


def make_attribute_wrapper(*args, **kwargs):
    pass


class _Intrinsic:
    pass


class core_models:  # noqa: N801  (Numba's module name)
    class StructModel:
        def __init__(self, *args, **kwargs):
            pass
