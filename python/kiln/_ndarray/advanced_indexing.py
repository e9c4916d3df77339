"""NumPy's advanced indexing, ``x[key]`` and ``x[key] = v`` where the key
holds integer or boolean arrays (or lists), composed from take, put and
flatnonzero.

- A boolean array of k dimensions stands for the k integer arrays of its
  nonzero(), as in NumPy.
- Integer arrays broadcast together. Where they are adjacent, the result
  keeps the other axes in place and puts the broadcast shape where they were;
  where slices separate them, the broadcast shape goes first (NumPy's rule).
- Integers beside arrays count as 0-d arrays, Python bools as 0-d masks
  (an added axis of length 1 or 0); slices, ``...`` and None work around
  them.

Assignment finds the flat positions the key selects (the same reading, of
the positions 0..size-1), broadcasts the value to them and puts it there.
Where a position repeats, NumPy keeps the last value; on the GPU which one
stays is unspecified, as in CuPy."""
import builtins
import math
import operator

from .. import _core
from .._numpy.creation import arange, asarray
from .._numpy.indexing.gathering import take
from .._numpy.indexing.nonzero import nonzero


def _item(k, device):
    """One key item as _gather takes it: None, a slice, Ellipsis, an int, or a
    kiln array (int64, or bool for a mask) on ``device``."""
    if k is None or k is Ellipsis or isinstance(k, slice):
        return k
    if isinstance(k, bool):  # beside arrays, a 0-d mask (NumPy's reading)
        return asarray(k, device=device)
    if isinstance(k, (_core.ndarray, list)) or hasattr(k, "__array_interface__") or \
            hasattr(k, "__cuda_array_interface__"):
        a = asarray(k, device=device)
        if a.dtype.kind == "b":
            return a
        if a.dtype.kind in "iu" or a.size == 0:
            return a.astype("int64", copy=False)
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return operator.index(k)


def _is_mask(k):
    return isinstance(k, _core.ndarray) and k.dtype.kind == "b"


def _is_basic(k):
    """A key item basic indexing takes (a Python bool counted as one)."""
    return k is None or k is Ellipsis or isinstance(k, (bool, int, slice)) or (
        hasattr(k, "__index__") and not isinstance(k, _core.ndarray) and getattr(k, "ndim", 0) == 0)


def _without_python_bools(x, key):
    """NumPy reads a Python bool in a key as a new axis of length 1 (True) or
    0 (False): the view ``x[key]`` through None and an empty slice, where
    the rest of the key is basic; None where it is not."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(isinstance(k, bool) for k in items) or not all(_is_basic(k) for k in items):
        return None
    view = x[tuple(None if isinstance(k, bool) else k for k in items)]
    consumed = builtins.sum(1 for k in items if not (k is None or k is Ellipsis or isinstance(k, bool)))
    empty = []
    for k in items:
        if isinstance(k, bool):
            empty.append(slice(None) if k else slice(0, 0))
        elif k is None or isinstance(k, slice):
            empty.append(slice(None))
        elif k is Ellipsis:
            empty.extend([slice(None)] * (x.ndim - consumed))
    return view[tuple(empty)]


def getitem(x, key):
    view = _without_python_bools(x, key)
    if view is not None:
        return view
    items = [_item(k, x.device) for k in (key if isinstance(key, tuple) else (key,))]
    if len(items) == 1 and _is_mask(items[0]) and items[0].ndim and items[0].shape == x.shape:
        return _core._extract(items[0], x)  # the selected elements in one pass, no positions between
    if builtins.sum(1 for k in items if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    # Ellipsis stands for the axes no other item consumes (a mask consumes its ndim).
    consumed = builtins.sum(k.ndim if _is_mask(k) else 1 for k in items if k is not None and k is not Ellipsis)
    # Masks become one integer array per dimension they cover, their shapes
    # checked. A 0-d mask adds an axis of length 1, which it then selects
    # from (kept where True, emptied where False), as NumPy's does.
    flat_items, axis, added = [], 0, []
    for k in items:
        if k is Ellipsis:
            fill = [slice(None)] * (x.ndim - consumed)
            flat_items.extend(fill)
            axis += len(fill)
        elif _is_mask(k):
            for d in builtins.range(k.ndim):
                if axis + d >= x.ndim or k.shape[d] != x.shape[axis + d]:
                    size = x.shape[axis + d] if axis + d < x.ndim else 0
                    raise IndexError(f"boolean index did not match indexed array along axis {axis + d}; size of "
                                     f"axis is {size} but size of corresponding boolean axis is {k.shape[d]}")
            if k.ndim == 0:
                added.append(axis)
            flat_items.extend(nonzero(k) if k.ndim else [_core._flatnonzero(k)])
            axis += builtins.max(k.ndim, 1)
        else:
            flat_items.append(k)
            axis += 0 if k is None else 1
    if axis > x.ndim + len(added):
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{axis - len(added)} were indexed")
    if added:
        x = x._expand_dims(added)
    flat_items.extend([slice(None)] * (x.ndim - axis))
    return _gather(x, flat_items)


def _gather(x, items):
    """x indexed by items (slices, None, ints and int64 arrays; one per axis but None)."""
    positions = [p for p, k in enumerate(items) if isinstance(k, (_core.ndarray, int))]
    arrays = [p for p in positions if isinstance(items[p], _core.ndarray)]
    # Integers count as advanced indices only beside arrays; alone they are basic.
    basic = [slice(None) if isinstance(k, _core.ndarray) or (isinstance(k, int) and arrays) else k for k in items]
    if not arrays:
        return x[tuple(basic)]
    if len(positions) == 1:
        # One index array: the basic items first, then take along its axis,
        # which checks the indices as it gathers (NumPy's message, the first
        # index out of bounds) and puts the index's axes where it stood.
        view = x[tuple(basic)]
        return take(view, items[positions[0]], axis=builtins.sum(1 for k in items[:positions[0]]))
    advanced = [asarray(items[p], dtype="int64", device=x.device) if isinstance(items[p], int) else items[p]
                for p in positions]
    shape = ()
    for a in advanced:
        shape = _core._broadcast_shapes(shape, a.shape)
    # Axes of x each advanced index stands on (None adds no axis of x).
    axis_of, at = {}, 0
    for p, k in enumerate(items):
        if k is not None:
            axis_of[p] = at
            at += 1
    dims = [axis_of[p] for p in positions]
    sizes = [x.shape[d] for d in dims]
    flat = None
    stride = 1
    for a, n, d in builtins.reversed(list(zip(advanced, sizes, dims))):
        if a.size and (int(_core.min(a)) < -n or int(_core.max(a)) >= n):
            raise IndexError(f"index out of bounds for axis {d} with size {n}")
        term = _core.remainder(a, n) * stride if n else a
        flat = term if flat is None else flat + term
        stride *= n
    flat = flat._broadcast_to(shape)
    # Move the advanced axes to the front, merge them into one and take along it.
    rest = [d for d in builtins.range(x.ndim) if d not in dims]
    moved = x._permute_dims(dims + rest)
    merged = moved.reshape((math.prod(sizes),) + builtins.tuple(x.shape[d] for d in rest))
    picked = take(merged, flat, axis=0)  # shape: broadcast + rest axes
    # Basic indexing of the remaining axes (slices and None, in their order).
    remaining = [k for p, k in enumerate(basic) if p not in positions]
    picked = picked[(slice(None),) * len(shape) + tuple(remaining)]
    adjacent = positions == list(builtins.range(positions[0], positions[-1] + 1))
    if not adjacent:
        return picked  # NumPy puts the broadcast axes first
    # Adjacent advanced indices: their axes go where the first of them was.
    before = builtins.sum(1 for k in items[:positions[0]] if not isinstance(k, int))
    order = list(builtins.range(len(shape), len(shape) + before)) + list(builtins.range(len(shape))) + \
        list(builtins.range(len(shape) + before, picked.ndim))
    return picked._permute_dims(order)


def setitem(x, key, value):
    view = _without_python_bools(x, key)
    if view is not None:
        view[...] = value
        return
    positions = getitem(arange(x.size, device=x.device).reshape(x.shape), key)
    values = asarray(value, device=x.device)
    values = values._broadcast_to(positions.shape).astype(x.dtype).reshape(-1)
    _core._put(x, positions.reshape(-1), values)
