"""NumPy's functions that grow, shrink or regroup an array along an axis:
append, insert, delete, column_stack, row_stack, hsplit/vsplit/dsplit,
rollaxis, trim_zeros. Built from concatenation, boolean masks and views."""
import builtins
import operator

from ... import _core
from ..creation import arange, asarray
from ..._ndarray.errors import axis_error
from .joining import concatenate, hstack, split, vstack
from .shape import moveaxis, ravel


def _axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise axis_error(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def append(arr, values, axis=None):
    """``values`` joined to the end of ``arr`` (both flattened when ``axis`` is None)."""
    arr = asarray(arr)
    values = asarray(values, device=arr.device)
    if axis is None:
        return concatenate([ravel(arr), ravel(values)])
    return concatenate([arr, values], axis=axis)


def _positions(obj, n, name):
    """The positions (an int64 kiln array) that an index, slice, boolean mask
    or list of indices names along an axis of length n."""
    if isinstance(obj, slice):
        return asarray(list(range(n))[obj], dtype="int64")
    idx = asarray(obj)
    if idx.dtype.kind == "b":
        if idx.ndim != 1 or idx.shape[0] != n:
            raise ValueError(f"{name}: boolean array argument obj must be one dimensional and match the axis length")
        from ..indexing.nonzero import flatnonzero

        return flatnonzero(idx)
    if idx.size and idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return idx.astype("int64").reshape(-1)


def delete(arr, obj, axis=None):
    """``arr`` without the entries ``obj`` names along ``axis`` (the flattened array when None)."""
    from ..indexing.nonzero import compress

    arr = asarray(arr)
    if axis is None:
        arr, axis = ravel(arr), 0
    axis = _axis(axis, arr.ndim)
    n = arr.shape[axis]
    positions = _positions(obj, n, "delete").to_device(arr.device)
    if positions.size and (builtins.bool(_core.any(positions < -n)) or builtins.bool(_core.any(positions >= n))):
        raise IndexError(f"index out of bounds for axis {axis} with size {n}")
    keep = _core._full((n,), True, "bool", arr.device)
    if positions.size:
        keep[positions % n] = False
    return compress(keep, arr, axis)


def insert(arr, obj, values, axis=None):
    """``arr`` with ``values`` inserted before the positions ``obj`` names
    along ``axis`` (the flattened array when None), as NumPy's insert."""
    from ..creation import array
    from .shape import broadcast_to

    arr = asarray(arr)
    if axis is None:
        arr, axis = ravel(arr), 0
    axis = _axis(axis, arr.ndim)
    n = arr.shape[axis]
    moved = moveaxis(arr, axis, 0)
    scalar = isinstance(obj, int) or (hasattr(obj, "__index__") and getattr(obj, "ndim", 0) == 0 and
                                      not isinstance(obj, slice))
    positions = asarray([operator.index(obj)], dtype="int64") if scalar else _positions(obj, n, "insert")
    host = positions.get()
    if ((host < -n) | (host > n)).any():
        raise IndexError(f"index {int(host[(host < -n) | (host > n)][0])} is out of bounds for axis {axis} "
                         f"with size {n}")
    host = host % (n + 1)
    vals = array(values, dtype=arr.dtype, ndmin=arr.ndim, device=arr.device)
    if scalar:
        vals = moveaxis(vals, 0, axis)
    vals = moveaxis(vals, axis, 0)
    if host.size == 1:
        block = broadcast_to(vals, (vals.shape[0],) + moved.shape[1:])
        index = int(host[0])
        return moveaxis(concatenate([moved[:index], block, moved[index:]]), 0, axis)
    count = host.size
    block = broadcast_to(vals, (count,) + moved.shape[1:])
    order = host.argsort(kind="stable")
    final = host[order] + arange(count).get()
    out = _core._empty((n + count,) + moved.shape[1:], arr.dtype, arr.device)
    old = _core._full((n + count,), True, "bool", arr.device)
    final_k = asarray(final, device=arr.device)
    old[final_k] = False
    out[old] = moved
    out[final_k] = block[asarray(order, device=arr.device)]
    return moveaxis(out, 0, axis)


def column_stack(tup):
    """1-D arrays as columns, 2-D arrays as they are, joined side by side."""
    arrays = [asarray(a) for a in tup]
    return hstack([a.reshape(-1, 1) if a.ndim < 2 else a for a in arrays])


def row_stack(tup, *, dtype=None, casting="same_kind"):
    return vstack(tup, dtype=dtype, casting=casting)


def hsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def rollaxis(a, axis, start=0):
    """``axis`` moved to before ``start`` (NumPy's older moveaxis)."""
    a = asarray(a)
    n = a.ndim
    axis = _axis(axis, n)
    start = operator.index(start)
    if not -n <= start <= n:
        raise axis_error(f"start {start} is out of bounds for array of dimension {n}")
    if start < 0:
        start += n
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    return moveaxis(a, axis, start)


def trim_zeros(filt, trim="fb", axis=None):
    """``filt`` without its leading ('f') and trailing ('b') zeros: along
    ``axis``, or (None) the smallest box holding every nonzero value, as
    NumPy 2.2 does; a 0-d array is returned as it is."""
    filt = asarray(filt)
    trim = trim.lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    if filt.ndim == 0:
        return filt
    axes = builtins.range(filt.ndim) if axis is None else (_axis(axis, filt.ndim),)
    nonzero = filt != 0
    key = [builtins.slice(None)] * filt.ndim
    for k in axes:
        others = tuple(d for d in builtins.range(filt.ndim) if d != k)
        where = (_core.any(nonzero, axis=others) if others else nonzero).get().nonzero()[0]
        if where.size == 0:
            key[k] = builtins.slice(0, 0)  # all zeros: nothing is kept, whichever ends are trimmed
        else:
            key[k] = builtins.slice(int(where[0]) if "f" in trim else None, int(where[-1]) + 1 if "b" in trim else None)
    return filt[tuple(key)]
