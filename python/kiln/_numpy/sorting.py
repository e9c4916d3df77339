"""Sorting and searching: sort, argsort, lexsort, partition, argpartition,
searchsorted. Every sort is stable and puts NaNs last (complex values by
real part, then imaginary part), as NumPy's are; the work is kiln::sort,
kiln::argsort and kiln::searchsorted (CUB's radix sort on the GPU)."""
import operator

from .. import _core
from .._ndarray.errors import axis_error
from .creation import asarray
from .indexing.gathering import take, take_along_axis
from .manipulation.rearranging import flip

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _check_kind(kind, order):
    if kind not in _KINDS:
        raise ValueError(f"sort kind must be one of 'quicksort', 'mergesort', 'heapsort' or 'stable', got {kind!r}")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def _flat_or_axis(a, axis):
    a = asarray(a)
    return (a.reshape(-1), -1) if axis is None else (a, operator.index(axis))


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """A sorted copy of ``a`` along ``axis`` (of the flattened ``a`` when
    None). Every kind is the same stable sort; ``descending`` (the array
    API's) puts NaNs first."""
    _check_kind(kind, order)
    a, axis = _flat_or_axis(a, axis)
    result = _core._sort(a, axis)
    return flip(result, axis) if descending else result


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """The int64 positions along ``axis`` that sort ``a``, stably: equal
    elements keep their order, descending too."""
    _check_kind(kind, order)
    a, axis = _flat_or_axis(a, axis)
    if a.ndim == 0 and axis in (-1, 0):  # NumPy sorts a 0-d array's one element as a 1-d array
        a = a.reshape(1)
    if not descending:
        return _core._argsort(a, axis)
    # Sorting the reversed array stably and reversing the result keeps equal
    # elements in their original order.
    n = a.shape[axis] if a.ndim else 1
    return (n - 1) - flip(_core._argsort(flip(a, axis), axis), axis)


def lexsort(keys, axis=-1):
    """Positions that sort by several keys, the last key first: stable
    sorts by each key from the first to the last."""
    if isinstance(keys, _core.ndarray) or not isinstance(keys, (list, tuple)):
        keys = asarray(keys)
        if keys.ndim == 0:
            raise TypeError("lexsort: need a sequence of keys with len > 0")
        keys = [keys[i] for i in range(keys.shape[0])]
    if not keys:
        raise TypeError("lexsort: need a sequence of keys with len > 0")
    keys = [asarray(k) for k in keys]
    if any(k.shape != keys[0].shape for k in keys):
        raise ValueError("lexsort: all keys need to be the same shape")
    order = _core._argsort(keys[0], axis)
    for key in keys[1:]:
        order = take_along_axis(order, _core._argsort(take_along_axis(key, order, axis), axis), axis)
    return order


def _sorted_for_partition(a, kth, axis, kind, order, name, sort_or_argsort):
    """partition and argpartition: a full stable sort puts every kth element
    where a sort would, smaller ones before and larger ones after."""
    if kind != "introselect":
        raise ValueError(f"{name}: kind must be 'introselect', got {kind!r}")
    _check_kind(None, order)
    a, axis = _flat_or_axis(a, axis)
    if not -a.ndim <= axis < a.ndim:
        raise axis_error(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    n = a.shape[axis]
    for k in [kth] if isinstance(kth, int) else list(kth):
        k = operator.index(k)
        if not -n <= k < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")
    return sort_or_argsort(a, axis)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A copy of ``a`` with the element at each ``kth`` position where a sort
    would put it, smaller ones before and larger ones after."""
    return _sorted_for_partition(a, kth, axis, kind, order, "partition", _core._sort)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Positions that partition ``a`` around each ``kth`` (those of a stable sort)."""
    return _sorted_for_partition(a, kth, axis, kind, order, "argpartition", _core._argsort)


def searchsorted(a, v, side="left", sorter=None):
    """Where each of ``v`` goes in the ascending 1-D ``a`` to keep it sorted:
    before equal elements (side "left") or after them ("right"). With
    ``sorter``, ``a[sorter]`` is the ascending array."""
    a = asarray(a)
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        a = take(a, asarray(sorter, device=a.device))
    return _core._searchsorted(a, asarray(v, device=a.device), side == "right")


def _sort_in_place(self, axis=-1, kind=None, order=None, *, stable=None):
    self[...] = sort(self, axis, kind, order)


def _partition_in_place(self, kth, axis=-1, kind="introselect", order=None):
    self[...] = partition(self, kth, axis, kind, order)


METHODS = {
    "sort": _sort_in_place,
    "argsort": lambda self, axis=-1, kind=None, order=None, *, stable=None: argsort(self, axis, kind, order),
    "partition": _partition_in_place,
    "argpartition": lambda self, kth, axis=-1, kind="introselect", order=None: argpartition(self, kth, axis, kind,
                                                                                            order),
    "searchsorted": lambda self, v, side="left", sorter=None: searchsorted(self, v, side, sorter),
}


def sort_complex(a):
    """``a`` sorted along its last axis by real part, then imaginary part, as complex numbers."""
    from .creation import asarray
    from .indexing.gathering import take_along_axis

    a = asarray(a)
    small = a.dtype.name in ("int8", "uint8", "int16", "uint16")  # NumPy's: only these become complex64
    z = a.astype(a.dtype if a.dtype.kind == "c" else "complex64" if small else "complex128")
    if z.ndim == 0:
        raise axis_error("axis -1 is out of bounds for array of dimension 0")
    return take_along_axis(z, lexsort((z.imag, z.real), axis=-1), -1)
