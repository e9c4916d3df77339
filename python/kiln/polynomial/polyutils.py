"""numpy.polynomial.polyutils' series helpers, as NumPy defines them: a
series is a 1-D array of coefficients, lowest degree first."""
import builtins
import operator

from .._core import ndarray
from .._numpy.creation import asarray
from .._ndarray.dtypes import common_type
from .._numpy.indexing.nonzero import nonzero
from .. import _core


def trimseq(seq):
    """``seq`` without its trailing zeros, keeping at least the first
    coefficient (a view of it)."""
    if len(seq) == 0 or seq[-1] != 0:
        return seq
    for i in builtins.range(len(seq) - 1, -1, -1):
        if seq[i] != 0:
            break
    return seq[:i + 1]


def as_series(alist, trim=True):
    """Each entry of ``alist`` (a sequence, or an array's rows) as a 1-D
    copy of the entries' common inexact type, trailing zeros trimmed."""
    arrays = [_at_least_1d(a) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    try:
        dtype = common_type(*arrays)
    except TypeError:
        raise ValueError("Coefficient arrays have no common type") from None
    return [a.astype(dtype) for a in arrays]


def trimcoef(c, tol=0):
    """The series ``c`` without the trailing coefficients of magnitude at
    most ``tol`` (one zero coefficient when none is left)."""
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = as_series([c])
    [kept] = nonzero(_core.greater(_core.abs(c), tol))
    if len(kept) == 0:
        return c[:1] * 0
    return c[:int(kept[-1]) + 1].copy()


def _at_least_1d(a):
    a = a if isinstance(a, ndarray) else asarray(a)
    return a.reshape(1) if a.ndim == 0 else a


def as_int(value, name):
    """``value`` as an int, refusing floats (even integral ones), as NumPy 2 does."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None
