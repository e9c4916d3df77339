"""NumPy's conditional writes and picks: copyto, putmask, place,
put_along_axis, choose, select. Built from where, boolean indexing and
take/put, so they run on every device."""
import builtins

from ... import _core
from ..._core import ndarray
from ..creation import asarray
from .gathering import indices_in_range
from ..manipulation.shape import broadcast_arrays, broadcast_to


def copyto(dst, src, casting="same_kind", where=True):
    """Copy ``src`` into ``dst`` (broadcast), only where ``where`` is true."""
    if not isinstance(dst, ndarray):
        raise TypeError(f"copyto: dst must be a kiln array, got {type(dst).__name__}")
    src = asarray(src, device=dst.device) if not isinstance(src, ndarray) else src
    if not _core.can_cast(src.dtype, dst.dtype, casting):
        raise TypeError(f"copyto: cannot cast from {src.dtype} to {dst.dtype} with casting rule {casting!r}")
    # Assignment broadcasts src into dst, dropping src's leading unit
    # dimensions beyond dst's (Array::assign), as NumPy's copyto does.
    if where is True:
        dst[...] = src
        return
    mask = asarray(where, device=dst.device)
    if mask.dtype.kind != "b":  # NumPy casts the mask to bool under 'safe' casting
        raise TypeError(f"copyto: cannot cast where from {mask.dtype} to bool with casting rule 'safe'")
    dst[...] = _core._where(broadcast_to(mask, dst.shape), src.astype(dst.dtype), dst)


def putmask(a, mask, values):
    """``a[mask] = values``, values repeated cyclically through the masked positions (in place)."""
    if not isinstance(a, ndarray):
        raise TypeError("putmask: a must be a kiln array")
    mask = asarray(mask, device=a.device)
    if mask.shape != a.shape:
        raise ValueError("putmask: mask and data must be the same size")
    values = asarray(values, device=a.device).reshape(-1)
    if values.size == 0:
        return
    from ..manipulation.rearranging import resize_flat

    flat_values = resize_flat(values, a.size).reshape(a.shape).astype(a.dtype)
    a[...] = _core._where(mask, flat_values, a)


def place(arr, mask, vals):
    """The masked positions of ``arr`` take ``vals`` in order, repeated cyclically (in place)."""
    if not isinstance(arr, ndarray):
        raise TypeError("place: arr must be a kiln array")
    mask = asarray(mask, device=arr.device).astype("bool")
    count = builtins.int(_core.sum(mask))
    vals = asarray(vals, device=arr.device).reshape(-1)
    if count == 0:
        return
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    from ..manipulation.rearranging import resize_flat

    arr[mask.reshape(arr.shape)] = resize_flat(vals, count).astype(arr.dtype)


def put_along_axis(arr, indices, values, axis):
    """``arr`` at ``indices`` along ``axis`` takes ``values`` (the inverse of take_along_axis)."""
    if not isinstance(arr, ndarray):
        raise TypeError("put_along_axis: arr must be a kiln array")
    indices = asarray(indices, device=arr.device)
    if axis is None:
        target = arr.reshape(-1) if arr.flags.c_contiguous else None
        if target is None:
            raise ValueError("put_along_axis: axis=None needs a contiguous array")
        flat_values = asarray(values, device=arr.device)
        target[indices.reshape(-1)] = flat_values.reshape(-1) if flat_values.size > 1 else values
        return
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = axis % arr.ndim
    from ..creation import arange

    index = []
    for k in range(arr.ndim):
        if k == axis:
            index.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[k] = arr.shape[k]
            index.append(arange(arr.shape[k], device=arr.device).reshape(shape))
    index = broadcast_arrays(*index)
    arr[tuple(index)] = broadcast_to(asarray(values, device=arr.device), index[0].shape)


def choose(a, choices, out=None, mode="raise"):
    """Element i of choice ``a[i]`` for each position (all broadcast)."""
    a = asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("choose: the index array must be of integer type")
    choices = [asarray(c, device=a.device) for c in choices]
    a = indices_in_range(a, len(choices), mode, "invalid entry in choice array")
    arrays = broadcast_arrays(a, *choices)
    a, choices = arrays[0], arrays[1:]
    dtype = _core.result_type(*choices)
    result = _core._full(a.shape, 0, dtype, a.device)
    for k, c in enumerate(choices):
        result = _core._where(a == k, c.astype(dtype), result)
    if out is None:
        return result
    out[...] = result
    return out


def select(condlist, choicelist, default=0):
    """The element of the first choice whose condition holds, else ``default``."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    conditions = [asarray(c) for c in condlist]
    for c in conditions:
        if c.dtype.kind != "b":
            raise TypeError("invalid entry in condlist: should be boolean ndarray")
    device = conditions[0].device
    # NumPy keeps Python numbers weak for the result's dtype (NEP 50): the
    # default 0 does not widen int32 choices to int64.
    weak = [c if type(c) in (int, float, complex) else asarray(c, device=device) for c in (*choicelist, default)]
    dtype = _core.result_type(*weak)
    choices = [asarray(c, device=device) for c in weak[:-1]]
    default = asarray(weak[-1], device=device)
    arrays = broadcast_arrays(*conditions, *choices, default)
    k = len(conditions)
    result = arrays[-1].astype(dtype)
    for cond, choice in reversed(list(zip(arrays[:k], arrays[k:2 * k]))):
        result = _core._where(cond, choice.astype(dtype), result)
    return result
