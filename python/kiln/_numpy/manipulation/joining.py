"""Joining and splitting arrays: concatenate/concat, stack, vstack, hstack,
dstack, atleast_1d/2d/3d, split, array_split. Joins write each input into
its slice of one new array; splits return views."""
import builtins
import operator

from ..._ndarray.errors import axis_error
from ... import _core
from ..creation import asarray, empty
from .shape import expand_dims


def _arrays(arrays, name):
    if isinstance(arrays, _core.ndarray) or not hasattr(arrays, "__len__"):
        raise TypeError(f"{name}: arrays must be a sequence of arrays")
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError(f"{name}: need at least one array")
    devices = {a.device for a in arrays}
    if len(devices) > 1:
        raise TypeError(f"{name}: arrays are on different devices ({', '.join(sorted(map(str, devices)))})")
    return arrays


def concatenate(arrays, /, axis=0, out=None, dtype=None, casting="same_kind"):
    """NumPy's concatenate (the array API's concat): ``arrays`` joined along
    ``axis`` (flattened first when axis is None)."""
    arrays = _arrays(arrays, "concatenate")
    if axis is None:
        arrays, axis = [a.reshape(-1) for a in arrays], 0
    ndim = arrays[0].ndim
    if ndim == 0:
        raise ValueError("concatenate: zero-dimensional arrays cannot be concatenated")
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"concatenate: axis {axis} is out of bounds for arrays of dimension {ndim}")
    axis %= ndim
    first = arrays[0].shape
    for k, a in enumerate(arrays[1:], 1):
        if a.ndim != ndim:
            raise ValueError(f"concatenate: array 0 has {ndim} dimensions but array {k} has {a.ndim}")
        if builtins.any(a.shape[d] != first[d] for d in builtins.range(ndim) if d != axis):
            raise ValueError(f"concatenate: array {k} has shape {a.shape}, which differs from array 0's {first} "
                             f"outside axis {axis}")
    target = _core.result_type(*arrays) if dtype is None else dtype
    for k, a in enumerate(arrays):
        if not _core.can_cast(a.dtype, target, casting):
            raise TypeError(f"concatenate: cannot cast array {k} from {a.dtype} to {target} with casting={casting!r}")
    shape = list(first)
    shape[axis] = builtins.sum(a.shape[axis] for a in arrays)
    if out is None:
        out = empty(tuple(shape), target, device=arrays[0].device)
    elif tuple(out.shape) != tuple(shape):
        raise ValueError(f"concatenate: out has shape {out.shape}, the result {tuple(shape)}")
    at = 0
    for a in arrays:
        n = a.shape[axis]
        out[(slice(None),) * axis + (slice(at, at + n),)] = a
        at += n
    return out


concat = concatenate


def stack(arrays, /, axis=0, out=None, dtype=None, casting="same_kind"):
    """Arrays of one shape joined along a new axis."""
    arrays = _arrays(arrays, "stack")
    if builtins.any(a.shape != arrays[0].shape for a in arrays):
        raise ValueError("stack: all input arrays must have the same shape")
    ndim = arrays[0].ndim + 1
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"stack: axis {axis} is out of bounds for the result's {ndim} dimensions")
    return concatenate([expand_dims(a, axis=axis % ndim) for a in arrays], axis=axis % ndim, out=out, dtype=dtype,
                       casting=casting)


def _at_least(arys, ndim, place):
    out = []
    for a in arys:
        a = asarray(a)
        if a.ndim < ndim:
            a = a.reshape(place(a.shape))
        out.append(a)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    return _at_least(arys, 1, lambda s: (1,))


def atleast_2d(*arys):
    return _at_least(arys, 2, lambda s: (1,) * (2 - len(s)) + s)


def atleast_3d(*arys):
    # NumPy's placement: (N,) -> (1, N, 1); (M, N) -> (M, N, 1).
    return _at_least(arys, 3, lambda s: {0: (1, 1, 1), 1: (1,) + s + (1,), 2: s + (1,)}[len(s)])


def _listed(value):
    return value if isinstance(value, list) else [value]


def vstack(tup, *, dtype=None, casting="same_kind"):
    return concatenate(_listed(atleast_2d(*_arrays(tup, "vstack"))), axis=0, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrays = _listed(atleast_1d(*_arrays(tup, "hstack")))
    return concatenate(arrays, axis=0 if arrays[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def dstack(tup):
    return concatenate(_listed(atleast_3d(*_arrays(tup, "dstack"))), axis=2)


def array_split(ary, indices_or_sections, axis=0):
    """Views of ``ary`` split along ``axis``: into N parts as equal as they can
    be (the first ones one longer), or at the given indices."""
    ary = asarray(ary)
    axis = operator.index(axis)
    length = ary.shape[axis]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise ValueError("array_split: the number of sections must be larger than 0")
        size, extra = divmod(length, sections)
        bounds = [0]
        for k in builtins.range(sections):
            bounds.append(bounds[-1] + size + (1 if k < extra else 0))
    else:
        bounds = [0] + [operator.index(i) for i in indices_or_sections] + [length]
    lead = (slice(None),) * (axis % ary.ndim)
    return [ary[lead + (slice(lo, max(lo, hi)),)] for lo, hi in zip(bounds[:-1], bounds[1:])]


def split(ary, indices_or_sections, axis=0):
    """array_split, but N sections must divide the axis evenly."""
    ary = asarray(ary)
    if isinstance(indices_or_sections, int) and indices_or_sections > 0 and \
            ary.shape[operator.index(axis)] % indices_or_sections:
        raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


def unstack(x, /, *, axis=0):
    """The array API's unstack: views of ``x``'s slices along ``axis``, stack undone."""
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("unstack: a 0-d array has no axis to unstack")
    axis = operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise axis_error(f"unstack: axis {axis} is out of bounds for array of dimension {x.ndim}")
    before = (builtins.slice(None),) * (axis % x.ndim)
    return tuple(x[before + (i,)] for i in builtins.range(x.shape[axis]))
