"""CuPy's ``fuse`` decorator: ``@kiln.fuse()`` runs a function of arrays and
scalars as fused kernels.

The function's elementwise operations are recorded by automatic fusion
(``kiln.fusion``) whatever the array sizes and devices, and each result's
chain runs as one generated kernel, compiled on the first call (as CuPy
compiles a fused function) and cached on disk; a reduction at the end (sum,
prod, min, max, any, all, mean) computes the chain's elements as it reads
them, so the chain's value is never stored. Called with NumPy arrays, the function runs on
NumPy, as CuPy's does.

As in CuPy, a fused function cannot branch on an array's values: ``bool()``,
``int()``, ``float()``, ``complex()`` or ``item()`` of a kiln array inside it
raises TypeError (``kiln.where`` chooses by value)."""
import functools

from .. import _core


class Fusion:
    """A function decorated by ``fuse``."""

    def __init__(self, func, name=None):
        functools.update_wrapper(self, func)
        self.func = func
        self.name = name or getattr(func, "__name__", "fused")

    def __call__(self, *args, **kwargs):
        with _core._FusionSettingsBlock(enabled=True, cpu_min_size=0, wait_for_compile=True, fused_function=True):
            return self.func(*args, **kwargs)

    def __repr__(self):
        return f"<kiln.fuse of {self.name}>"


def fuse(*args, **kwargs):
    """``@fuse``, ``@fuse()`` or ``@fuse(kernel_name=...)`` (CuPy's spellings)."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Fusion(args[0])
    name = kwargs.pop("kernel_name", None)
    if kwargs:
        raise TypeError(f"fuse: unexpected keyword argument {next(iter(kwargs))!r}")
    return lambda func: Fusion(func, name)
