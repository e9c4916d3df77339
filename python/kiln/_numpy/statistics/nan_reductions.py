"""Reductions that skip NaNs: nansum, nanprod, nanmean, nanvar, nanstd,
nanmax, nanmin, nanargmax, nanargmin, nancumsum, nancumprod. Integer and
boolean arrays have no NaNs and reduce as they are."""
import math

from ... import _core
from ..math import elementwise as _elementwise
from ..creation import asarray
from ..manipulation.shape import squeeze
from ..._ndarray.outputs import into
from ..manipulation.rearranging import _axes
from .reductions import cumprod, cumsum


def _has_nan(a):
    return a.dtype.kind in "fc"


def _filled(a, value):
    return _elementwise.where(_core.isnan(a), _core._full((), value, a.dtype, a.device), a) if _has_nan(a) else a


def nansum(a, axis=None, dtype=None, keepdims=False):
    return _core.sum(_filled(asarray(a), 0), axis, dtype, keepdims)


def nanprod(a, axis=None, dtype=None, keepdims=False):
    return _core.prod(_filled(asarray(a), 1), axis, dtype, keepdims)


def _count(a, axis, keepdims):
    """How many non-NaN elements each slice has, in a's real floating type
    (so that dividing by it keeps float32 data float32, as in NumPy)."""
    real_type = {"complex64": "float32", "complex128": "float64"}.get(a.dtype.name, a.dtype)
    return _core.sum(_core.logical_not(_core.isnan(a)), axis, "int64", keepdims).astype(real_type)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    """The mean of the non-NaN elements (NaN where a slice has none)."""
    a = asarray(a)
    if not _has_nan(a):
        return into(_core.mean(a, axis, dtype, keepdims), out)
    return into(_core.sum(_filled(a, 0), axis, dtype, keepdims) / _count(a, axis, keepdims), out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, mean=None, correction=None):
    """The variance of the non-NaN elements, divided by their count - ddof
    (NaN where that is not positive); ``mean`` is the slices' mean when
    already known (with keepdims' shape), as NumPy takes it."""
    if correction is not None:
        ddof = correction
    a = asarray(a)
    if mean is None and not _has_nan(a):
        return into(_core._var(a, axis, float(ddof), keepdims, dtype), out)
    count = _count(a, axis, True)
    if mean is None:
        mean = _core.sum(_filled(a, 0), axis, dtype, True) / count
    centred = _filled(a - asarray(mean, device=a.device), 0)
    squares = _elementwise.real(centred * _core.conj(centred)) if a.dtype.kind == "c" else centred * centred
    divisor = count - ddof
    variance = _core.sum(squares, axis, None, True) / _elementwise.where(divisor > 0, divisor, 0)
    return into(variance if keepdims else squeeze(variance, tuple(_axes(axis, a.ndim, "nanvar"))), out)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, mean=None, correction=None):
    return into(_core.sqrt(nanvar(a, axis, dtype, None, ddof, keepdims, mean=mean, correction=correction)), out)


def nancumsum(a, axis=None, dtype=None):
    """cumsum with NaNs counted as zero."""
    return cumsum(_filled(asarray(a), 0), axis, dtype)


def nancumprod(a, axis=None, dtype=None):
    """cumprod with NaNs counted as one."""
    return cumprod(_filled(asarray(a), 1), axis, dtype)


def _nan_extreme(a, axis, keepdims, reduce, fill):
    a = asarray(a)
    if not _has_nan(a):
        return reduce(a, axis, keepdims)
    all_nan = _core.all(_core.isnan(a), axis, keepdims)
    return _elementwise.where(all_nan, _core._full((), math.nan, a.dtype, a.device), reduce(_filled(a, fill), axis, keepdims))


def nanmax(a, axis=None, keepdims=False):
    """The largest non-NaN element (NaN where a slice is all NaN)."""
    return _nan_extreme(a, axis, keepdims, _core.max, -math.inf)


def nanmin(a, axis=None, keepdims=False):
    """The smallest non-NaN element (NaN where a slice is all NaN)."""
    return _nan_extreme(a, axis, keepdims, _core.min, math.inf)


def _nan_arg(a, axis, keepdims, reduce, fill, name):
    a = asarray(a)
    if not _has_nan(a):
        return reduce(a, axis, keepdims)
    if bool(_core.any(_core.all(_core.isnan(a), axis))):
        raise ValueError(f"{name}: All-NaN slice encountered")
    return reduce(_filled(a, fill), axis, keepdims)


def nanargmax(a, axis=None, keepdims=False):
    return _nan_arg(a, axis, keepdims, _core.argmax, -math.inf, "nanargmax")


def nanargmin(a, axis=None, keepdims=False):
    return _nan_arg(a, axis, keepdims, _core.argmin, math.inf, "nanargmin")
