"""Reductions and scans, with NumPy's and the array API's spellings."""
from . import _core
from ._core import all, any, argmax, argmin, cumulative_prod, cumulative_sum, max, mean, min, prod, sum  # noqa: F401

from ._creation import asarray

amin, amax = min, max


def _correction(correction, ddof):
    if ddof is not None:
        if correction not in (None, 0, 0.0):
            raise ValueError("pass either correction or ddof, not both")
        return float(ddof)
    return float(correction or 0.0)


def var(x, /, *, axis=None, correction=0.0, keepdims=False, ddof=None, dtype=None):
    """Variance over ``axis``, divided by N - correction (``ddof`` is NumPy's name)."""
    return _core._var(x, axis, _correction(correction, ddof), keepdims, dtype)


def std(x, /, *, axis=None, correction=0.0, keepdims=False, ddof=None, dtype=None):
    """Standard deviation over ``axis``, divided by N - correction."""
    return _core._std(x, axis, _correction(correction, ddof), keepdims, dtype)


def cumsum(a, axis=None, dtype=None):
    """NumPy's cumsum: the flattened array when ``axis`` is None."""
    a = asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    return _core.cumulative_sum(a, axis, dtype)


def cumprod(a, axis=None, dtype=None):
    """NumPy's cumprod: the flattened array when ``axis`` is None."""
    a = asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    return _core.cumulative_prod(a, axis, dtype)
