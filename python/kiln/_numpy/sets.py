"""Distinct values: unique (NumPy's), the array API's unique_all,
unique_counts, unique_inverse and unique_values, isin, and the set
operations union1d, intersect1d, setdiff1d and setxor1d. All come from a
stable sort (kiln::unique_all): a value's run starts where it differs from
the one before it."""
import math
import operator
from collections import namedtuple

from .._ndarray.errors import axis_error
from .. import _core
from .creation import asarray, operands
from .indexing.gathering import take
from .manipulation.joining import concatenate
from .manipulation.shape import moveaxis
from .sorting import argsort, lexsort, searchsorted, sort

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _unique_along(ar, axis):
    """unique_all over the slices of ``ar`` along ``axis``, compared as rows
    in lexicographic order."""
    axis = operator.index(axis)
    if not -ar.ndim <= axis < ar.ndim:
        raise axis_error(f"unique: axis {axis} is out of bounds for array of dimension {ar.ndim}")
    moved = moveaxis(ar, axis, 0)
    n = moved.shape[0]
    rows = moved.reshape(n, math.prod(moved.shape[1:]))
    if n == 0 or rows.shape[1] == 0:
        # Rows without elements are all equal: at most one distinct row.
        keep = min(n, 1)
        index = _core._arange(0, keep, 1, "int64", ar.device)
        values = moveaxis(moved[:keep], 0, axis)
        return values, index, _core._full((n,), 0, "int64", ar.device), _core._full((keep,), n, "int64", ar.device)
    order = lexsort(rows.T[::-1])
    ordered = take(rows, order, axis=0)
    starts = _core._empty((n,), "bool", ar.device)
    starts[0] = True
    starts[1:] = _core.any(_core.not_equal(ordered[1:], ordered[:-1]), 1)
    first = _core._flatnonzero(starts)
    values = moveaxis(take(moved, take(order, first), axis=0), 0, axis)
    ends = _core._empty(first.shape, "int64", ar.device)
    ends[:-1] = first[1:]
    ends[-1] = n
    inverse = _core._empty((n,), "int64", ar.device)
    inverse[order] = _core.cumulative_sum(starts, 0, "int64") - 1
    return values, take(order, first), inverse, ends - first


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    """NumPy's unique: the sorted distinct elements of ``ar`` (flattened, or
    the distinct slices along ``axis``), and optionally where each first
    occurs, the inverse that rebuilds ``ar`` and each one's count. With
    ``equal_nan`` all NaNs are one value."""
    ar = asarray(ar)
    if axis is None and not (return_index or return_inverse or return_counts):
        return _core._unique_values(ar, equal_nan)
    if axis is None:
        values, index, inverse, counts = _core._unique_all(ar, equal_nan)
    else:
        values, index, inverse, counts = _unique_along(ar, axis)
    extra = [r for r, wanted in ((index, return_index), (inverse, return_inverse), (counts, return_counts)) if wanted]
    return (values, *extra) if extra else values


def unique_all(x):
    """The array API's unique_all; each NaN is its own value."""
    return UniqueAllResult(*_core._unique_all(asarray(x), False))


def unique_counts(x):
    values, _, _, counts = _core._unique_all(asarray(x), False)
    return UniqueCountsResult(values, counts)


def unique_inverse(x):
    values, _, inverse, _ = _core._unique_all(asarray(x), False)
    return UniqueInverseResult(values, inverse)


def unique_values(x):
    return _core._unique_values(asarray(x), False)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of ``element`` is among ``test_elements``: a
    binary search of each in the sorted test elements."""
    element = asarray(element)
    tests = asarray(test_elements, device=element.device).reshape(-1)
    if kind not in (None, "sort", "table"):
        raise ValueError(f"isin: kind must be None, 'sort' or 'table', got {kind!r}")
    if tests.size == 0:
        return _core._full(element.shape, bool(invert), "bool", element.device)
    ordered = sort(tests)
    at = _core.minimum(searchsorted(ordered, element), tests.size - 1)
    found = _core.equal(take(ordered, at), element)
    return _core.logical_not(found) if invert else found


def union1d(ar1, ar2):
    """The sorted distinct values of both arrays (flattened)."""
    ar1, ar2 = operands(ar1, ar2)
    return unique(concatenate((ar1.ravel(), ar2.ravel())))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values in both arrays; with ``return_indices``, where each
    first occurs in ar1 and in ar2 (flattened)."""
    ar1, ar2 = operands(ar1, ar2)
    ar1, ar2 = ar1.ravel(), ar2.ravel()
    if return_indices:
        if not assume_unique:
            ar1, index1 = unique(ar1, return_index=True)
            ar2, index2 = unique(ar2, return_index=True)
        else:
            index1 = _core._arange(0, ar1.size, 1, "int64", ar1.device)
            index2 = _core._arange(0, ar2.size, 1, "int64", ar2.device)
    elif not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    both = concatenate((ar1, ar2))
    order = argsort(both, kind="stable") if return_indices else None
    ordered = take(both, order) if return_indices else sort(both)
    repeated = _core.equal(ordered[1:], ordered[:-1])
    values = ordered[:-1][repeated]
    if not return_indices:
        return values
    first = order[:-1][repeated]
    second = order[1:][repeated] - ar1.size
    return values, take(index1, first), take(index2, second)


def setdiff1d(ar1, ar2, assume_unique=False):
    """The values of ar1 not in ar2: sorted and distinct unless ``assume_unique``."""
    ar1, ar2 = operands(ar1, ar2)
    ar1 = ar1.ravel() if assume_unique else unique(ar1)
    if not assume_unique:
        ar2 = unique(ar2)
    return ar1[_core.logical_not(isin(ar1, ar2, assume_unique=True))]


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the two arrays."""
    ar1, ar2 = operands(ar1, ar2)
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    ordered = sort(concatenate((ar1.ravel(), ar2.ravel())))
    if ordered.size == 0:
        return ordered
    alone = _core._full((ordered.size + 1,), True, "bool", ordered.device)
    alone[1:-1] = _core.not_equal(ordered[1:], ordered[:-1])
    return ordered[_core.logical_and(alone[1:], alone[:-1])]
