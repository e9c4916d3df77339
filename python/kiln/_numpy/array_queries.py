"""Questions about arrays and the module they belong to: ndim, shape, size,
isfortran, iterable (NumPy's), asnumpy and get_array_module (CuPy's)."""
from .._core import ndarray
from .._ndarray import public_namespace
from .creation import asarray


def ndim(a):
    """The number of dimensions of ``a``: of anything, as NumPy's (a string,
    a set or None is a 0-d object to NumPy)."""
    if isinstance(a, ndarray):
        return a.ndim
    try:
        return asarray(a).ndim
    except TypeError:  # not numbers: NumPy's object arrays
        import numpy

        return numpy.ndim(a)


def shape(a):
    return a.shape if isinstance(a, ndarray) else asarray(a).shape


def size(a, axis=None):
    a = a if isinstance(a, ndarray) else asarray(a)
    return a.size if axis is None else a.shape[axis]


def isfortran(a):
    """Whether ``a`` is column-major and not also row-major."""
    return a.flags.f_contiguous and not a.flags.c_contiguous


def iterable(y):
    try:
        iter(y)
    except TypeError:
        return False
    return True


def asnumpy(a, stream=None, out=None):
    """A NumPy copy of ``a`` (a kiln array, or anything NumPy accepts)."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, out=out)
    import numpy as np

    if out is not None:
        out[...] = a
        return out
    return np.asarray(a)


def get_array_module(*args):
    """``kiln`` when any argument is a kiln array, else ``numpy`` (CuPy's helper)."""
    import builtins

    if builtins.any(isinstance(a, ndarray) for a in args):
        return public_namespace.get()
    import numpy

    return numpy
