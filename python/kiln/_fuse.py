"""CuPy's ``fuse`` decorator: ``@kiln.fuse()`` marks a function of arrays
and scalars as one fused operation.

Today kiln runs the decorated function's operations one by one (each is one
of kiln's kernels), so a fused function gives the same results as CuPy's
and a program written with ``@cupy.fuse`` runs unchanged on every device;
it is not yet faster than the plain function. Compiling the whole function
into one kernel is the fusion issue's work; this is the entry point it will
fill."""
import functools


class Fusion:
    """A function decorated by ``fuse``: calling it calls the function."""

    def __init__(self, func, name=None):
        functools.update_wrapper(self, func)
        self.func = func
        self.name = name or getattr(func, "__name__", "fused")

    def __call__(self, *args, **kwargs):
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
