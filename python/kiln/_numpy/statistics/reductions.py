"""Reductions and scans, with NumPy's and the array API's spellings: NumPy's
positional order (``sum(a, axis, dtype, out, keepdims)``) and its ``out=``,
``initial=`` and ``where=`` around the C++ reductions."""
import functools
import sys

from ... import _core
from ..._core import cumulative_prod, cumulative_sum, ndarray  # noqa: F401

from ..creation import asarray
from ..._ndarray.outputs import into

_NO_VALUE = object()


def _numpy_method(function):
    """CuPy's way with the reductions it writes as the array's method
    (``cupy.sum(a)`` is ``a.sum()``): a NumPy array or scalar runs NumPy's
    method, which returns NumPy's result. Anything else kiln reads as an
    array computes with kiln. (Without NumPy imported, nothing is NumPy's:
    kiln's import does not load it.)"""
    name = function.__name__

    @functools.wraps(function)
    def dispatch(a, *args, **kwargs):
        np = sys.modules.get("numpy")
        if np is not None and isinstance(a, (np.ndarray, np.generic)):
            return getattr(a, name)(*args, **kwargs)
        return function(a, *args, **kwargs)

    return dispatch


def _reduce(reduction, a, axis, keepdims, out, initial, where, combine, identity, **options):
    """``reduction`` with NumPy's extras: elements where ``where`` is false
    count as ``initial`` (or the identity), ``initial`` joins the result
    through ``combine``, and ``out`` receives it."""
    a = a if isinstance(a, ndarray) else asarray(a)
    start = identity if initial is _NO_VALUE else initial
    if where is not True:
        if start is None:
            raise ValueError(f"reduction operation '{reduction.__name__}' does not have an identity, so to use a "
                             "where mask one has to specify 'initial'")
        a = _core._where(where, a, _core._full((), start, a.dtype, a.device))
    if initial is not _NO_VALUE and a.size == 0:  # the reduction of nothing is initial
        axes = tuple(range(a.ndim)) if axis is None else tuple(
            ax % a.ndim for ax in ((axis,) if isinstance(axis, int) else axis))
        shape = tuple(1 if k in axes else n for k, n in enumerate(a.shape) if keepdims or k not in axes)
        dtype = options.get("dtype") or a.dtype
        result = _core._full(shape, initial, dtype, a.device)
    else:
        result = reduction(a, axis=axis, keepdims=keepdims, **options)
        if initial is not _NO_VALUE:
            result = combine(result, _core._full((), initial, result.dtype, result.device))
    return into(result, out)


@_numpy_method
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """The sum over ``axis`` (all axes when None)."""
    return _reduce(_core.sum, a, axis, keepdims, out, initial, where, _core.add, 0, dtype=dtype)


@_numpy_method
def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """The product over ``axis`` (all axes when None)."""
    return _reduce(_core.prod, a, axis, keepdims, out, initial, where, _core.multiply, 1, dtype=dtype)


@_numpy_method
def max(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """The largest element over ``axis`` (NaN if any is NaN)."""
    return _reduce(_core.max, a, axis, keepdims, out, initial, where, _core.maximum, None)


@_numpy_method
def min(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """The smallest element over ``axis`` (NaN if any is NaN)."""
    return _reduce(_core.min, a, axis, keepdims, out, initial, where, _core.minimum, None)


amax, amin = max, min


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether every element over ``axis`` is true."""
    return _reduce(_core.all, a, axis, keepdims, out, _NO_VALUE, where, None, True)


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element over ``axis`` is true."""
    return _reduce(_core.any, a, axis, keepdims, out, _NO_VALUE, where, None, False)


@_numpy_method
def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """The arithmetic mean over ``axis``."""
    a = a if isinstance(a, ndarray) else asarray(a)
    if where is not True:
        weights = _core._where(where, _core._full((), 1, "float64", a.device), _core._full((), 0, "float64",
                                                                                              a.device))
        total = sum(a, axis, dtype, None, keepdims, where=where)
        result = total / sum(weights * _core._full(a.shape, 1, "float64", a.device), axis, None, None, keepdims)
        result = result.astype(total.dtype, copy=False) if total.dtype.kind in "fc" else result
    else:
        result = _core.mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    return into(result, out)


@_numpy_method
def argmax(a, axis=None, out=None, *, keepdims=False):
    return into(_core.argmax(a if isinstance(a, ndarray) else asarray(a), axis=axis, keepdims=keepdims), out)


@_numpy_method
def argmin(a, axis=None, out=None, *, keepdims=False):
    return into(_core.argmin(a if isinstance(a, ndarray) else asarray(a), axis=axis, keepdims=keepdims), out)


def _correction(correction, ddof):
    if ddof is not None:
        if correction not in (None, 0, 0.0):
            raise ValueError("pass either correction or ddof, not both")
        return float(ddof)
    return float(correction or 0.0)


@_numpy_method
def var(x, /, axis=None, dtype=None, out=None, ddof=None, keepdims=False, *, correction=0.0):
    """Variance over ``axis``, divided by N - correction (``ddof`` is NumPy's name)."""
    return into(_core._var(x, axis, _correction(correction, ddof), keepdims, dtype), out)


@_numpy_method
def std(x, /, axis=None, dtype=None, out=None, ddof=None, keepdims=False, *, correction=0.0):
    """Standard deviation over ``axis``, divided by N - correction."""
    return into(_core._std(x, axis, _correction(correction, ddof), keepdims, dtype), out)


def cumsum(a, axis=None, dtype=None, out=None):
    """NumPy's cumsum: the flattened array when ``axis`` is None."""
    a = asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    return into(_core.cumulative_sum(a, axis, dtype), out)


def cumprod(a, axis=None, dtype=None, out=None):
    """NumPy's cumprod: the flattened array when ``axis`` is None."""
    a = asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    return into(_core.cumulative_prod(a, axis, dtype), out)
