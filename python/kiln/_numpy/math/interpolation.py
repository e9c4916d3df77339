"""NumPy's interp: piecewise-linear interpolation of sample points (xp, fp)
at x, in float64 (complex128 for complex fp), with NumPy's ends, periodic
samples and its fallbacks where a slope is infinite."""
from ... import _core
from ..creation import asarray
from .elementwise import where
from ..indexing.gathering import take
from ..manipulation.joining import concatenate
from ..sorting import argsort, searchsorted


def interp(x, xp, fp, left=None, right=None, period=None):
    x = asarray(x)
    xp = asarray(xp, device=x.device).astype("float64")
    fp = asarray(fp, device=x.device)
    fp = fp.astype("complex128" if fp.dtype.kind == "c" else "float64")
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("interp: xp and fp must be 1-D sequences")
    if xp.size != fp.size:
        raise ValueError("fp and xp are not of the same length.")
    if xp.size == 0:
        raise ValueError("array of sample points is empty")
    x = x.astype("float64")
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x, xp = x % period, xp % period
        order = argsort(xp)
        xp, fp = take(xp, order), take(fp, order)
        xp = concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = concatenate((fp[-1:], fp, fp[0:1]))
    first, last = fp[0], fp[-1]
    left = first if left is None else asarray(left, device=x.device).astype(fp.dtype)
    right = last if right is None else asarray(right, device=x.device).astype(fp.dtype)
    if xp.size == 1:
        return where(x < xp[0], left, where(x > xp[0], right, first))
    # xp[j] <= x < xp[j + 1]; the ends take left, right or the last sample.
    j = searchsorted(xp, x, side="right") - 1
    k = _core.minimum(_core.maximum(j, 0), xp.size - 2)
    x0, x1, y0, y1 = take(xp, k), take(xp, k + 1), take(fp, k), take(fp, k + 1)
    slope = (y1 - y0) / (x1 - x0)
    value = slope * (x - x0) + y0
    # An infinite slope times zero: from the other end, else the flat value.
    value = where(_core.isnan(value), slope * (x - x1) + y1, value)
    value = where(_core.isnan(value) & (y0 == y1), y0, value)
    value = where(x == x0, y0, value)
    value = where(x == xp[-1], last, value)
    return where(j < 0, left, where(x > xp[-1], right, value))
