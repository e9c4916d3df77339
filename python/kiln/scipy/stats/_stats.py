"""Sample statistics: trimmed means, standard scores, moments and ranks
(scipy.stats' trim_mean, zmap, zscore, moment, skew, kurtosis, variation,
sem, rankdata)."""
import math

import numpy as np

import kiln

from ._common import along, check_nan_policy, floating


def trim_mean(a, proportiontocut, axis=0):
    """Mean of `a` along `axis` after cutting `proportiontocut` of the
    values from each end (the count cut rounds down)."""
    a = kiln.asarray(a)
    if a.size == 0:
        return kiln.asarray(math.nan, device=a.device)
    a, axis = along(a, axis)
    n = a.shape[axis]
    low = int(proportiontocut * n)
    high = n - low
    if low > high:
        raise ValueError("Proportion too big.")
    kept = kiln.moveaxis(kiln.sort(a, axis=axis), axis, 0)[low:high]
    return kiln.mean(kept, axis=0)


def _mean_and_var(a, axis, ddof, omit):
    mean, var = (kiln.nanmean, kiln.nanvar) if omit else (kiln.mean, kiln.var)
    return mean(a, axis=axis, keepdims=True), var(a, axis=axis, ddof=ddof, keepdims=True)


def zmap(scores, compare, axis=0, ddof=0, nan_policy="propagate"):
    """(scores - mean(compare)) / std(compare), the moments taken along
    `axis` of `compare`."""
    like_zscore = scores is compare
    scores, compare = floating(scores, compare)
    omit = check_nan_policy(nan_policy, compare)
    if axis is None:
        compare = compare.reshape(-1)
    mean, var = _mean_and_var(compare, axis, ddof, omit)
    std = var ** 0.5
    with kiln.errstate(invalid="ignore", divide="ignore"):
        z = (scores - mean) / std
    if like_zscore:
        # A slice of equal values has no spread: NaN, not the 0/0 of
        # whatever rounding left.
        z = kiln.where(std <= kiln.abs(np.finfo(np.dtype(z.dtype)).eps * mean), math.nan, z).astype(z.dtype)
    return z


def zscore(a, axis=0, ddof=0, nan_policy="propagate"):
    """The standard scores of `a` along `axis`: zmap(a, a)."""
    return zmap(a, a, axis=axis, ddof=ddof, nan_policy=nan_policy)


def _central_moment(a, order, axis, center=None):
    mean = kiln.mean(a, axis=axis, keepdims=True) if center is None else center
    return kiln.mean((a - mean) ** order, axis=axis)


def moment(a, order=1, axis=0, nan_policy="propagate", *, center=None):
    """The `order`-th central moment of `a` along `axis` (about `center`,
    by default the mean)."""
    (a,) = floating(a)
    check_nan_policy(nan_policy, a)
    a, axis = along(a, axis)
    orders = np.asarray(order)
    if orders.ndim == 0:
        if order == 0 or (order == 1 and center is None):
            return kiln.full(a.shape[:axis % a.ndim] + a.shape[axis % a.ndim + 1:],
                             1.0 if order == 0 else 0.0, dtype=a.dtype, device=a.device)
        return _central_moment(a, order, axis, center)
    return kiln.stack([moment(a, o, axis, center=center) for o in orders.tolist()])


def _shape_moments(a, axis, nan_policy, order):
    """For skew and kurtosis: the sample as SciPy's result type, its
    length n, the second and `order`-th central moments, and where the
    sample has no spread beyond rounding (the shape statistic is NaN)."""
    (a,) = floating(a)
    check_nan_policy(nan_policy, a)
    a, axis = along(a, axis)
    mean = kiln.mean(a, axis=axis, keepdims=True)
    m2, mk = _central_moment(a, 2, axis, mean), _central_moment(a, order, axis, mean)
    flat = m2 <= (np.finfo(np.dtype(a.dtype)).eps * kiln.squeeze(mean, axis)) ** 2
    return a.dtype, a.shape[axis], m2, mk, flat


def skew(a, axis=0, bias=True, nan_policy="propagate"):
    """Sample skewness m3 / m2**1.5 along `axis`; bias=False applies the
    adjusted Fisher-Pearson correction."""
    dtype, n, m2, m3, flat = _shape_moments(a, axis, nan_policy, 3)
    with kiln.errstate(invalid="ignore", divide="ignore"):
        g1 = kiln.where(flat, math.nan, m3 / m2 ** 1.5)
        if not bias and n > 2:
            g1 = kiln.where(m2 > 0, math.sqrt((n - 1.0) * n) / (n - 2.0) * g1, g1)
    return g1.astype(dtype)


def kurtosis(a, axis=0, fisher=True, bias=True, nan_policy="propagate"):
    """Sample kurtosis m4 / m2**2 along `axis` (less 3 when `fisher`);
    bias=False corrects for the sample size."""
    dtype, n, m2, m4, flat = _shape_moments(a, axis, nan_policy, 4)
    with kiln.errstate(invalid="ignore", divide="ignore"):
        g2 = kiln.where(flat, math.nan, m4 / m2 ** 2)
        if not bias and n > 3:
            adjusted = 1.0 / (n - 2) / (n - 3) * ((n * n - 1.0) * g2 - 3 * (n - 1.0) ** 2) + 3.0
            g2 = kiln.where(m2 > 0, adjusted, g2)
    return (g2 - 3 if fisher else g2).astype(dtype)


def variation(a, axis=0, nan_policy="propagate", ddof=0, *, keepdims=False):
    """Coefficient of variation std / mean along `axis`."""
    (a,) = floating(a)
    omit = check_nan_policy(nan_policy, a)
    a, axis = along(a, axis)
    mean, var = _mean_and_var(a, axis, ddof, omit)
    with kiln.errstate(invalid="ignore", divide="ignore"):
        out = var ** 0.5 / mean
    return out if keepdims else kiln.squeeze(out, axis)


def sem(a, axis=0, ddof=1, nan_policy="propagate"):
    """Standard error of the mean along `axis`: std(ddof) / sqrt(n)."""
    (a,) = floating(a)
    omit = check_nan_policy(nan_policy, a)
    a, axis = along(a, axis)
    if omit:
        n = kiln.sum(~kiln.isnan(a), axis=axis)
        return kiln.nanstd(a, axis=axis, ddof=ddof) / kiln.sqrt(n)
    return kiln.std(a, axis=axis, ddof=ddof) / math.sqrt(a.shape[axis])


def rankdata(a, method="average", *, axis=None, nan_policy="propagate"):
    """Ranks of the values of `a` from 1, ties resolved by `method`
    ('average', 'min', 'max', 'dense' or 'ordinal'), along `axis` or over
    the flattened array. Ranks by one stable argsort: a tie group's first
    and last sorted positions come from running maxima and minima of the
    group boundaries."""
    if method not in ("average", "min", "max", "dense", "ordinal"):
        raise ValueError(f'unknown method "{method}"')
    a = kiln.asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    check_nan_policy(nan_policy, a)
    if nan_policy == "omit":
        raise NotImplementedError("rankdata: nan_policy='omit' is not supported")
    x = kiln.moveaxis(a, axis, -1)
    n = x.shape[-1]
    dtype = np.float64 if method == "average" else np.int64
    if n == 0:
        return kiln.moveaxis(kiln.empty(x.shape, dtype=dtype, device=a.device), -1, axis)
    order = kiln.argsort(x, axis=-1, kind="stable")
    ordered = kiln.take_along_axis(x, order, axis=-1)
    edge = kiln.ones(x.shape[:-1] + (1,), dtype=bool, device=a.device)
    starts = kiln.concatenate([edge, ordered[..., 1:] != ordered[..., :-1]], axis=-1)
    position = kiln.broadcast_to(kiln.arange(n, device=a.device), x.shape)
    if method == "ordinal":
        ranked = position + 1
    elif method == "dense":
        ranked = kiln.cumsum(starts, axis=-1)
    else:
        first = kiln.maximum.accumulate(kiln.where(starts, position, 0), axis=-1)
        ends = kiln.concatenate([starts[..., 1:], edge], axis=-1)
        last = kiln.flip(kiln.minimum.accumulate(kiln.flip(kiln.where(ends, position, n), -1), axis=-1), -1)
        ranked = {"min": first + 1, "max": last + 1, "average": (first + last) / 2 + 1}[method]
    ranks = kiln.empty(x.shape, dtype=dtype, device=a.device)
    kiln.put_along_axis(ranks, order, ranked.astype(dtype), axis=-1)
    if a.dtype.kind in "fc":
        # SciPy's ranks of a slice holding NaN are all NaN (and then every
        # rank is a float).
        nan_rows = kiln.isnan(x).any(axis=-1, keepdims=True)
        if bool(nan_rows.any()):
            ranks = kiln.where(nan_rows, math.nan, ranks)
    return kiln.moveaxis(ranks, -1, axis)
