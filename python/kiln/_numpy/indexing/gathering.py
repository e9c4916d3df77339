"""Picking and placing elements by integer indices: take, take_along_axis
and put (the gather and the scatter are kiln::take and kiln::put, one
kernel each on each device)."""
import builtins
import operator

from ... import _core
from ..math import elementwise as _elementwise
from ..creation import arange, asarray


def indices_in_range(indices, n, mode, message):
    """Integer ``indices`` into an axis of length ``n`` under NumPy's index
    modes: "raise" (ValueError with ``message`` for one outside [0, n)),
    "wrap" (modulo n) or "clip" (into [0, n - 1])."""
    if mode == "raise":
        if indices.size and (bool(_core.any(indices < 0)) or bool(_core.any(indices >= n))):
            raise ValueError(message)
        return indices
    if mode == "wrap":
        return indices % n
    if mode == "clip":
        return _core._clip(indices, 0, n - 1)
    raise ValueError(f"mode: must be 'raise', 'wrap' or 'clip', not {mode!r}")


def take(a, indices, axis=None, out=None, mode="raise"):
    """NumPy's take: the elements of ``a`` at ``indices`` along ``axis`` (of
    the flattened ``a`` when None). ``mode``: "raise" (IndexError outside
    [-n, n)), "wrap" (indices modulo n) or "clip" (into [0, n - 1])."""
    a = asarray(a)
    indices = asarray(indices, device=a.device)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    if mode != "raise":
        n = a.size if axis is None else a.shape[operator.index(axis)]
        if n == 0:
            raise IndexError("take: cannot do a non-empty take from an empty axis")
        indices = indices % n if mode == "wrap" else _elementwise.clip(indices, 0, n - 1)
    result = _core._take(a, indices, None if axis is None else operator.index(axis))
    if out is None:
        return result
    out[...] = result
    return out


def put(a, ind, v, mode="raise"):
    """NumPy's put: ``a.flat[ind] = v``, ``v`` repeated when shorter; ``mode``
    as take's. Where an index repeats, the last value stays on the CPU; on
    the GPU which one stays is unspecified (as in CuPy)."""
    if not isinstance(a, _core.ndarray):
        raise TypeError(f"put: a must be a kiln.ndarray, got {type(a).__name__}")
    ind = asarray(ind, device=a.device).reshape(-1)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"put: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    if mode != "raise" and a.size:
        ind = ind % a.size if mode == "wrap" else _elementwise.clip(ind, 0, a.size - 1)
    _core._put(a, ind, asarray(v, device=a.device).reshape(-1))


def take_along_axis(arr, indices, axis):
    """NumPy's take_along_axis: ``out[..., j, ...] = arr[..., indices[..., j, ...], ...]``
    along ``axis``, the other axes broadcast between ``arr`` and ``indices``."""
    arr = asarray(arr)
    indices = asarray(indices, device=arr.device)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("take_along_axis: when axis=None, indices must be 1-D")
        return take(arr, indices)
    if indices.ndim != arr.ndim:
        raise ValueError(f"take_along_axis: indices and arr must have the same number of dimensions "
                         f"({indices.ndim} and {arr.ndim})")
    if indices.dtype.kind not in "iu":
        raise IndexError("take_along_axis: indices must be integers")
    axis = operator.index(axis) % arr.ndim
    n = arr.shape[axis]
    if indices.size and (int(_core.min(indices)) < -n or int(_core.max(indices)) >= n):
        raise IndexError(f"take_along_axis: an index is out of bounds for axis {axis} with size {n}")
    shape = list(_core._broadcast_shapes(tuple(1 if d == axis else s for d, s in enumerate(arr.shape)),
                                         tuple(1 if d == axis else s for d, s in enumerate(indices.shape))))
    shape[axis] = indices.shape[axis]
    # Flat positions into the C-contiguous arr: the picked index along `axis`,
    # each other axis's own coordinate, times the axis's stride in elements.
    stride = 1
    flat = None
    for d in builtins.range(arr.ndim - 1, -1, -1):
        if d == axis:
            k = indices.astype("int64")
            coordinate = _elementwise.where(k < 0, k + n, k)
        else:
            view = [1] * arr.ndim
            view[d] = shape[d]
            coordinate = arange(shape[d], device=arr.device).reshape(tuple(view))
        term = coordinate * stride
        flat = term if flat is None else flat + term
        stride *= arr.shape[d]
    contiguous = arr if arr.flags.c_contiguous else arr.copy()
    return _core._take(contiguous.reshape(-1), flat._broadcast_to(tuple(shape)), None)
