"""scipy.ndimage's measurements by label for kiln.scipy.ndimage: sum_labels
(and its old name sum), mean and center_of_mass. Each label's count and sum
come from one weighted bincount over the labels' ranks among the distinct
labels, as SciPy's _stats computes them, so any integer labels serve; the
results stay on the input's device."""
import numbers

from ... import _core
from ..._creation import arange, asarray
from ..._manipulation import broadcast_arrays
from ..._sets import unique
from ..._sorting import searchsorted


def _is_scalar(index):
    return isinstance(index, numbers.Number) or (hasattr(index, "ndim") and index.ndim == 0)


def _stats(input, labels, index):
    """(count, sum) of the values of each labelled group: all of input
    without labels, labels > 0 without index, labels == index for a scalar
    index; one count and sum per entry of a sequence index (0 for a label
    that does not occur)."""
    input = asarray(input)
    if labels is None:
        return input.size, input.sum()
    input, labels = broadcast_arrays(input, asarray(labels, device=input.device))
    if index is None:
        chosen = input[labels > 0]
        return chosen.size, chosen.sum()
    if _is_scalar(index):
        chosen = input[labels == index]
        return chosen.size, chosen.sum()
    index = asarray(index, device=input.device)
    distinct, rank = unique(labels, return_inverse=True)
    rank = rank.reshape(-1)
    counts = _core.bincount(rank, minlength=distinct.shape[0])
    sums = _core.bincount(rank, weights=input.reshape(-1).astype("float64"), minlength=distinct.shape[0])
    at = _core.minimum(searchsorted(distinct, index), distinct.shape[0] - 1)
    found = distinct[at] == index
    return _core._where(found, counts[at], 0), _core._where(found, sums[at], 0.0)


def sum_labels(input, labels=None, index=None):
    """The sum of input's values in each labelled region (see _stats): a
    scalar for no index or a scalar one, else one sum per index."""
    return _stats(input, labels, index)[1]


def mean(input, labels=None, index=None):
    """The mean of input's values in each labelled region, in float64."""
    count, total = _stats(input, labels, index)
    total = asarray(total)
    return total / asarray(count, device=total.device).astype("float64")


def center_of_mass(input, labels=None, index=None):
    """The centre of mass of each labelled region: input's values as
    masses at their coordinates; a tuple of coordinates (a list of tuples,
    one a label, for a sequence index)."""
    input = asarray(input)
    normalizer = asarray(sum_labels(input, labels, index))
    coordinates = []
    for axis in range(input.ndim):
        shape = [1] * input.ndim
        shape[axis] = input.shape[axis]
        grid = arange(input.shape[axis], dtype="float64", device=input.device).reshape(shape)
        coordinates.append(asarray(sum_labels(input * grid, labels, index)) / normalizer)
    if index is None or _is_scalar(index):
        return tuple(coordinates)
    return [tuple(c[i] for c in coordinates) for i in range(normalizer.shape[0])]


sum = sum_labels  # scipy.ndimage's older name

__all__ = ["center_of_mass", "mean", "sum", "sum_labels"]
