"""Counting values into bins: histogram, histogram_bin_edges and digitize.
A value's bin is a binary search of the edges (kiln::searchsorted); the
counts are kiln.bincount."""
import builtins
import operator

from ... import _core
from ..creation import asarray, linspace
from ..sorting import searchsorted
from ..manipulation.rearranging import diff
from ..math.elementwise import where


def _any_step(v, compare):
    """Whether ``compare`` holds between some element of the 1-D v and the one before it."""
    return v.size > 1 and builtins.bool(_core.any(compare(v[1:], v[:-1])))


def _edges(a, bins, range, name):
    """NumPy's bin edges: ``bins`` + 1 even steps over ``range`` (the data's
    extent when None, widened by 0.5 each way when it is one value), or the
    increasing 1-D edges given."""
    if isinstance(bins, str):
        raise TypeError(f"{name}: bins must be an int or a 1-D array of edges; estimator names such as {bins!r} "
                        "are not supported")
    if isinstance(bins, _core.ndarray) or not isinstance(bins, int) and hasattr(bins, "__len__"):
        edges = asarray(bins, device=a.device)
        if edges.ndim != 1:
            raise ValueError(f"{name}: bins must be 1d, when an array")
        if _any_step(edges, _core.less):
            raise ValueError(f"{name}: bins must increase monotonically, when an array")
        return edges
    count = operator.index(bins)
    if count < 1:
        raise ValueError(f"{name}: `bins` must be positive, when an integer")
    if range is not None:
        first, last = (float(v) for v in range)
        if first > last:
            raise ValueError(f"{name}: max must be larger than min in range parameter.")
    elif a.size == 0:
        first, last = 0.0, 1.0
    else:
        first, last = float(_core.min(a)), float(_core.max(a))
    if not (abs(first) < float("inf") and abs(last) < float("inf")):
        raise ValueError(f"{name}: autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    dtype = _core.result_type(a.dtype, "float64") if a.dtype.kind in "biu" else a.dtype
    return linspace(first, last, count + 1, dtype=dtype, device=a.device)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = asarray(a)
    return _edges(a.reshape(-1), bins, range, "histogram_bin_edges")


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Counts (or weight sums) of ``a``'s values in each bin, and the edges.
    Bins are half-open [edge, next edge) except the last, which holds its
    right edge too; values outside the edges are not counted."""
    a = asarray(a).reshape(-1)
    edges = _edges(a, bins, range, "histogram")
    if weights is not None:
        weights = asarray(weights, device=a.device).reshape(-1)
        if weights.shape != a.shape:
            raise ValueError("histogram: weights should have the same shape as a.")
    nbins = edges.size - 1
    index = searchsorted(edges, a, "right") - 1
    # The last edge closes the last bin.
    index = where(_core.equal(a, edges[-1]), nbins - 1, index)
    inside = _core.logical_and(_core.greater_equal(index, 0), _core.less(index, nbins))
    chosen = _core._flatnonzero(inside)
    counts = _core.bincount(_core._take(index, chosen, None), None if weights is None else
                            _core._take(weights, chosen, None), nbins)
    if weights is not None:
        counts = counts.astype(weights.dtype)
    if density:
        widths = diff(edges)
        return counts / _core.sum(counts) / widths, edges
    return counts, edges


def digitize(x, bins, right=False):
    """The index of the bin each of ``x`` falls in, for monotonic ``bins``:
    ``bins[i-1] <= x < bins[i]`` (``<`` and ``<=`` swapped with ``right``);
    decreasing bins count from the other end."""
    x = asarray(x)
    bins = asarray(bins, device=x.device)
    if bins.ndim != 1:
        raise ValueError("digitize: bins must be a 1-dimensional array")
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    side = "left" if right else "right"
    if _any_step(bins, _core.less):
        if _any_step(bins, _core.greater):
            raise ValueError("bins must be monotonically increasing or decreasing")
        return bins.size - searchsorted(bins[::-1], x, side)
    return searchsorted(bins, x, side)
