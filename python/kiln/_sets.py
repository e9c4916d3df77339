"""Distinct values: unique (NumPy's), the array API's unique_all,
unique_counts, unique_inverse and unique_values, and isin. All come from a
stable sort (kiln::unique_all): a value's run starts where it differs from
the one before it."""
import math
import operator
from collections import namedtuple

from . import _core
from ._creation import asarray
from ._gathering import take
from ._manipulation import moveaxis
from ._sorting import lexsort, searchsorted, sort

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _unique_along(ar, axis):
    """unique_all over the slices of ``ar`` along ``axis``, compared as rows
    in lexicographic order."""
    axis = operator.index(axis)
    if not -ar.ndim <= axis < ar.ndim:
        raise ValueError(f"unique: axis {axis} is out of bounds for array of dimension {ar.ndim}")
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
