"""scipy.ndimage's measurements by label for kiln.scipy.ndimage: sum_labels
(and its old name sum), mean, variance, standard_deviation, center_of_mass,
minimum, maximum, median, extrema and the extremes' positions,
labeled_comprehension (a Python function a label), histogram and
value_indices. Each label's
count and sum come from one weighted bincount over the labels' ranks among
the distinct labels, as SciPy's _stats computes them, so any integer labels
serve; the order statistics sort the values by (label rank, value) once and
read each group's ends and middle. Results stay on the input's device; a
label that does not occur gives 0 (its variance NaN), as SciPy's."""
import numbers

from ... import _core, asnumpy
from ..._numpy.creation import arange, asarray
from ..._numpy.manipulation.shape import broadcast_arrays
from ..._numpy.sets import unique
from ..._numpy.sorting import argsort, lexsort, searchsorted, sort
from ._util import _np


def _is_scalar(index):
    return isinstance(index, numbers.Number) or (hasattr(index, "ndim") and index.ndim == 0)


def _grouped(input, labels, index):
    """For a sequence index: (input, flat label ranks among the distinct
    labels, the number of distinct labels, each index's rank, whether it
    occurs); None for the single-group cases."""
    index = asarray(index, device=input.device)
    input, labels = broadcast_arrays(input, asarray(labels, device=input.device))
    distinct, rank = unique(labels, return_inverse=True)
    at = _core.minimum(searchsorted(distinct, index), distinct.shape[0] - 1)
    return input, rank.reshape(-1), distinct.shape[0], at, distinct[at] == index


def _bounds(ordered, wanted):
    """Where each of `wanted` starts and ends (one past) in the sorted keys `ordered`."""
    return searchsorted(ordered, wanted, side="left"), searchsorted(ordered, wanted, side="right")


def _unravel(flat, shape):
    """The coordinate arrays (one an axis, on the device) of C-order flat indices."""
    coordinates, rest = [], flat
    for side in reversed(shape):
        coordinates.insert(0, rest % side)
        rest = rest // side
    return coordinates


def _single_group(input, labels, index):
    """The values of the one group a None or scalar index selects (all of
    input without labels, labels > 0 without index), with their flat positions."""
    positions = arange(input.size, dtype="int64", device=input.device).reshape(input.shape)
    if labels is None:
        return input.reshape(-1), positions.reshape(-1)
    input, labels = broadcast_arrays(input, asarray(labels, device=input.device))
    mask = labels > 0 if index is None else labels == index
    return input[mask], broadcast_arrays(positions, mask)[0][mask]


def _stats(input, labels, index):
    """(count, sum) of the values of each labelled group: all of input
    without labels, labels > 0 without index, labels == index for a scalar
    index; one count and sum per entry of a sequence index (0 for a label
    that does not occur)."""
    input = asarray(input)
    if labels is None or index is None or _is_scalar(index):
        chosen = _single_group(input, labels, index)[0]
        return chosen.size, chosen.sum()
    input, rank, groups, at, found = _grouped(input, labels, index)
    counts = _core.bincount(rank, minlength=groups)
    sums = _core.bincount(rank, weights=input.reshape(-1).astype("float64"), minlength=groups)
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


def variance(input, labels=None, index=None):
    """The variance of input's values in each labelled region (the mean
    first, then the mean squared deviation from it, as SciPy computes), in float64."""
    input = asarray(input)
    if labels is None or index is None or _is_scalar(index):
        chosen = _single_group(input, labels, index)[0].astype("float64")
        return ((chosen - chosen.mean()) ** 2).sum() / chosen.size
    values, rank, groups, at, found = _grouped(input, labels, index)
    values = values.reshape(-1).astype("float64")
    counts = _core.bincount(rank, minlength=groups)
    means = _core.bincount(rank, weights=values, minlength=groups) / counts
    squares = _core.bincount(rank, weights=(values - means[rank]) ** 2, minlength=groups)
    return _core._where(found, squares[at] / counts[at], float("nan"))  # an empty group's, as SciPy's 0 / 0


def standard_deviation(input, labels=None, index=None):
    """The standard deviation of input's values in each labelled region."""
    from ..._numpy.math.elementwise import sqrt

    return sqrt(asarray(variance(input, labels, index)))


def _order_statistics(input, labels, index, which):
    """The statistics named in `which` ("min", "max", "min_position",
    "max_position", "median") of each group, in that order: 0-d arrays
    (positions: flat indices) for a single group, arrays over a sequence index."""
    input = asarray(input)
    if labels is None or index is None or _is_scalar(index):
        values, positions = _single_group(input, labels, index)
        if values.size == 0:
            raise ValueError("zero-size array to reduction operation, which has no identity")
        found = {}
        if "min" in which or "min_position" in which:
            found["min"] = values.min()
            found["min_position"] = positions[values == found["min"]][0]
        if "max" in which or "max_position" in which:
            found["max"] = values.max()
            found["max_position"] = positions[values == found["max"]][0]
        if "median" in which:
            ordered = sort(values)
            middle = (values.size - 1) // 2, values.size // 2
            found["median"] = _midpoint(ordered[middle[0]], ordered[middle[1]], values.dtype)
        return [found[name] for name in which]
    values, rank, groups, at, found = _grouped(input, labels, index)
    values = values.reshape(-1)
    order = lexsort((values, rank))  # by label, then value; ties keep raster order
    ranked, ordered = rank[order], values[order]
    group = arange(groups, dtype="int64", device=input.device)
    starts, ends = _bounds(ranked, group)
    # (a label that does not occur reads some place in range, then gives 0)
    end = max(values.size - 1, 0)
    first, last = _core.minimum(starts[at], end), _core.maximum(ends[at] - 1, 0)
    results = []
    for name in which:
        if name == "min":
            result = ordered[first]
        elif name == "max":
            result = ordered[last]
        elif name == "min_position":
            result = order[first]
        elif name == "max_position":
            # A group's largest values end it; the first of them (in raster
            # order) starts where ranked * 2 + (value is the group's largest),
            # nondecreasing, first reaches 2 g + 1.
            is_top = ordered == ordered[ends - 1][ranked]
            key = ranked * 2 + is_top.astype("int64")
            result = order[_core.minimum(searchsorted(key, group * 2 + 1, side="left")[at], end)]
        else:
            count = _core.maximum(last + 1 - first, 1)
            result = _midpoint(ordered[first + (count - 1) // 2], ordered[_core.minimum(first + count // 2, end)],
                               values.dtype)
        results.append(_core._where(found, result, 0))
    return results


def _midpoint(low, high, dtype):
    """The median of two middle values: double for integers and booleans, as SciPy's."""
    if dtype.kind in "iub":
        return (low.astype("float64") + high.astype("float64")) / 2.0
    return (low + high) / 2.0


def _coordinates(flat, shape):
    """Flat indices as coordinate tuples: one for a 0-d index, a list for an array."""
    np = _np()
    flat = np.asarray(asnumpy(flat))
    coordinates = np.stack(np.unravel_index(flat.reshape(-1), shape), axis=-1) if shape else \
        np.zeros((flat.size, 0), dtype=np.int64)
    tuples = [tuple(int(c) for c in row) for row in coordinates]
    return tuples[0] if flat.ndim == 0 else tuples


def minimum(input, labels=None, index=None):
    """The smallest of input's values in each labelled region."""
    return _order_statistics(input, labels, index, ["min"])[0]


def maximum(input, labels=None, index=None):
    """The largest of input's values in each labelled region."""
    return _order_statistics(input, labels, index, ["max"])[0]


def median(input, labels=None, index=None):
    """The median of input's values in each labelled region."""
    return _order_statistics(input, labels, index, ["median"])[0]


def minimum_position(input, labels=None, index=None):
    """Where (a coordinate tuple, the first in raster order) each labelled
    region's smallest value lies; a list of tuples for a sequence index."""
    input = asarray(input)
    return _coordinates(_order_statistics(input, labels, index, ["min_position"])[0], tuple(input.shape))


def maximum_position(input, labels=None, index=None):
    """Where each labelled region's largest value lies (as minimum_position)."""
    input = asarray(input)
    return _coordinates(_order_statistics(input, labels, index, ["max_position"])[0], tuple(input.shape))


def extrema(input, labels=None, index=None):
    """(minimums, maximums, minimum positions, maximum positions) of each labelled region."""
    input = asarray(input)
    low, high, low_at, high_at = _order_statistics(input, labels, index, ["min", "max", "min_position",
                                                                          "max_position"])
    shape = tuple(input.shape)
    return low, high, _coordinates(low_at, shape), _coordinates(high_at, shape)


def labeled_comprehension(input, labels, index, func, out_dtype, default, pass_positions=False):
    """func applied to the values (and, with pass_positions, the flat
    positions) of each labelled region: func's one result without labels or
    index, else one a label of index (default where a label does not occur),
    in an array of out_dtype (a list for ``object``)."""
    np = _np()
    scalar_index = _is_scalar(index)
    input = asarray(input)
    positions = arange(input.size, dtype="int64", device=input.device).reshape(input.shape)
    if labels is None:
        if index is not None:
            raise ValueError("index: index without defined labels")
        return func(input.reshape(-1), positions.reshape(-1)) if pass_positions else func(input.reshape(-1))
    try:
        input, labels = broadcast_arrays(input, asarray(labels, device=input.device))
    except ValueError as e:
        raise ValueError("labels: input and labels must have the same shape (excepting dimensions with width "
                         "1)") from e
    positions = broadcast_arrays(positions, labels)[0]
    if index is None:
        chosen = labels > 0
        return func(input[chosen], positions[chosen]) if pass_positions else func(input[chosen])
    index = np.atleast_1d(np.asarray(asnumpy(index)))
    label_dtype = np.dtype(str(labels.dtype))
    if np.any(index.astype(label_dtype) != index):
        raise ValueError(f"index: cannot convert index values from <{index.dtype}> to <{label_dtype}> (labels' "
                         "type) without loss of precision")
    index = index.astype(label_dtype)
    order = argsort(labels.reshape(-1), kind="stable")
    ordered_labels = labels.reshape(-1)[order]
    parts = [input.reshape(-1)[order]] + ([positions.reshape(-1)[order]] if pass_positions else [])
    starts, ends = (asnumpy(b) for b in _bounds(ordered_labels, asarray(index, device=input.device)))
    results = [func(*[part[lo:hi] for part in parts]) if hi > lo else default for lo, hi in zip(starts, ends)]
    if np.dtype(out_dtype) == np.dtype(object):
        return results[0] if scalar_index else results
    output = asarray(np.full(len(results), default if default is not None else 0, dtype=out_dtype),
                     device=input.device)
    for i, value in enumerate(results):
        if ends[i] > starts[i]:
            output[i] = value
    return output[0] if scalar_index else output


def histogram(input, min, max, bins, labels=None, index=None):
    """The histogram (bins equal bins from min to max) of each labelled
    region's values: one count array, or a list of them for an index sequence."""
    from ..._numpy.creation import linspace
    from ..._numpy.statistics.histograms import histogram as _histogram

    input = asarray(input)
    edges = linspace(min, max, bins + 1, device=input.device)
    return labeled_comprehension(input, labels, index, lambda values: _histogram(values, edges)[0], object, None)


def value_indices(arr, *, ignore_value=None, adaptive_index_dtype=False):
    """{value: tuple of index arrays} for each distinct value of an integer
    array (the places in raster order), but ignore_value; with
    adaptive_index_dtype (CuPy's), the index arrays take the smallest
    integer type that holds the array's largest index."""
    np = _np()
    arr = asarray(arr)
    if arr.dtype.kind not in "iu":
        raise ValueError("arr: parameter 'arr' must be an integer array")
    flat = arr.reshape(-1)
    order = argsort(flat, kind="stable")
    ordered = flat[order]
    distinct = unique(ordered)
    starts, ends = (asnumpy(b) for b in _bounds(ordered, distinct))
    index_dtype = "int64"
    if adaptive_index_dtype:
        largest = max(arr.shape) if arr.ndim else 0
        index_dtype = next(t for t in ("int8", "int16", "int32", "int64") if largest <= np.iinfo(t).max)
    coordinates = [c.astype(index_dtype) for c in _unravel(order, arr.shape)]
    found = {}
    for value, lo, hi in zip(asnumpy(distinct), starts, ends):
        if ignore_value is not None and value == ignore_value:
            continue
        found[value] = tuple(c[lo:hi] for c in coordinates)
    return found

sum = sum_labels  # scipy.ndimage's older name

__all__ = ["center_of_mass", "extrema", "histogram", "labeled_comprehension", "maximum", "maximum_position", "mean",
           "median", "minimum", "minimum_position", "standard_deviation", "sum", "sum_labels", "value_indices",
           "variance"]
