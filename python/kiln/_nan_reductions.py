"""Reductions that skip NaNs: nansum, nanprod, nanmean, nanmax, nanmin,
nanargmax, nanargmin. Integer and boolean arrays have no NaNs and reduce as
they are."""
import math

from . import _core, _elementwise
from ._creation import asarray


def _has_nan(a):
    return a.dtype.kind in "fc"


def _filled(a, value):
    return _elementwise.where(_core.isnan(a), _core._full((), value, a.dtype, a.device), a) if _has_nan(a) else a


def nansum(a, axis=None, dtype=None, keepdims=False):
    return _core.sum(_filled(asarray(a), 0), axis, dtype, keepdims)


def nanprod(a, axis=None, dtype=None, keepdims=False):
    return _core.prod(_filled(asarray(a), 1), axis, dtype, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """The mean of the non-NaN elements (NaN where a slice has none)."""
    a = asarray(a)
    if not _has_nan(a):
        return _core.mean(a, axis, dtype, keepdims)
    count = _core.sum(_core.logical_not(_core.isnan(a)), axis, "int64", keepdims)
    total = _core.sum(_filled(a, 0), axis, dtype, keepdims)
    return total / count


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
