"""Finding nonzero elements: flatnonzero, nonzero, argwhere, count_nonzero,
and selecting by a condition: compress, extract. The positions come from
kiln::flatnonzero and extract's elements from kiln::extract (the backend
compacts the mask)."""
import operator

from ... import _core
from ..creation import asarray
from .gathering import take
from ..manipulation.joining import stack


def flatnonzero(a):
    """Positions of the nonzero elements of the flattened ``a`` (int64)."""
    return _core._flatnonzero(asarray(a))


def nonzero(a):
    """A tuple of index arrays, one per dimension, of ``a``'s nonzero elements
    (in C order). A 0-d array is refused, as NumPy 2 does."""
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.")
    flat = _core._flatnonzero(a)
    if a.ndim == 1:
        return (flat,)
    out = []
    step = 1
    for k, size in enumerate(reversed(a.shape)):
        if not size:
            out.append(flat)
        elif k == a.ndim - 1:
            out.append(flat // step)  # the first axis: below its size already
        else:
            out.append((flat // step) % size if step > 1 else flat % size)
        step *= size
    return tuple(reversed(out))


def argwhere(a):
    """The indices of ``a``'s nonzero elements, one row each: (count, ndim)."""
    a = asarray(a)
    if a.ndim == 0:
        return _core._full((int(bool(a)), 0), 0, "int64", a.device)
    return stack(list(nonzero(a)), axis=1)


def count_nonzero(a, axis=None, *, keepdims=False):
    a = asarray(a)
    # a bool array is its own mask (comparing it with 0 would widen it to int64 first)
    return _core.sum(a if a.dtype.kind == "b" else _core.not_equal(a, 0), axis, "int64", keepdims)


def compress(condition, a, axis=None, out=None):
    """The slices of ``a`` along ``axis`` (of the flattened ``a`` when None)
    where the 1-D ``condition`` is true."""
    a = asarray(a)
    condition = asarray(condition, device=a.device)
    if condition.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    length = a.size if axis is None else a.shape[operator.index(axis)]
    if condition.shape[0] > length:
        if bool(_core.any(condition[length:])):
            raise IndexError(f"index {length} is out of bounds for axis {0 if axis is None else axis} with size "
                             f"{length}")
        condition = condition[:length]
    return take(a, _core._flatnonzero(condition), axis=axis, out=out)


def extract(condition, arr):
    """The elements of ``arr`` where ``condition`` is nonzero, flattened."""
    arr = asarray(arr)
    return _core._extract(asarray(condition, device=arr.device), arr)


