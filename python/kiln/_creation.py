"""Array creation: asarray and friends, empty/zeros/ones/full, arange, linspace, eye."""
import builtins
import operator

from . import _core
from ._core import ndarray
from ._device import to_device
from ._dtypes import _BY_NAME as _SUPPORTED
from ._dtypes import float64, normalize

_NUMPY_KINDS = "biufc"


def _host_from_numpy(arr):
    """A kiln view of a NumPy array (copied first only when kiln cannot view it)."""
    import numpy as np

    if arr.dtype.kind not in _NUMPY_KINDS or arr.dtype.name not in _SUPPORTED:
        raise TypeError(f"obj: NumPy dtype {arr.dtype} is not supported by kiln")
    itemsize = arr.dtype.itemsize
    if (not arr.dtype.isnative or not arr.flags.aligned
            or builtins.any(s % itemsize for s in arr.strides)):
        arr = np.array(arr, dtype=arr.dtype.newbyteorder("="), order="C")
    ptr, readonly = arr.__array_interface__["data"]
    return _core._wrap_memory(ptr, _SUPPORTED[arr.dtype.name], arr.shape, arr.strides, arr, not readonly, "cpu")


def asarray(obj, /, dtype=None, *, device=None, copy=None):
    """Convert ``obj`` (a kiln or NumPy array, nested sequences, a scalar, a buffer) to a kiln array.

    NumPy arrays on the CPU are viewed without a copy unless ``copy=True`` or a
    ``dtype`` conversion requires one; ``copy=False`` raises when a copy is needed.
    """
    dt = None if dtype is None else normalize(dtype)
    if isinstance(obj, ndarray):
        out, copied = obj, False
        if device is not None and to_device(device) != out.device:
            if copy is False:
                raise ValueError("asarray: copy=False but moving to another device needs a copy")
            out, copied = out._to(to_device(device)), True
        if dt is not None and dt != out.dtype:
            if copy is False:
                raise ValueError("asarray: copy=False but converting the dtype needs a copy")
            return out._astype(dt, not copied)
        return out.copy() if copy and not copied else out

    import numpy as np

    if isinstance(obj, np.ndarray):
        arr = obj
    elif hasattr(obj, "__cuda_array_interface__"):  # GPU memory of CuPy, PyTorch, Numba, ...: viewed in place
        from ._cuda_array_interface import from_interface

        return asarray(from_interface(obj), dtype=dtype, device=device, copy=copy)
    else:
        if copy is False and not hasattr(obj, "__array_interface__") and not isinstance(obj, memoryview):
            raise ValueError("asarray: copy=False but converting this object needs a copy")
        try:
            # With the dtype given, NumPy converts Python ints exactly (a
            # uint64 above 2**63 would otherwise pass through float64).
            arr = np.asarray(obj) if dt is None else np.asarray(obj, dtype=dt.name)
        except (ValueError, TypeError) as e:
            raise TypeError(f"obj: cannot convert {type(obj).__name__} to a kiln array: {e}") from None
        if arr.dtype.kind not in _NUMPY_KINDS:
            raise TypeError(f"obj: cannot convert {type(obj).__name__} to a kiln array "
                            f"(it has NumPy dtype {arr.dtype})")
    if dt is not None and arr.dtype != np.dtype(dt.name):
        if copy is False:
            raise ValueError("asarray: copy=False but converting the dtype needs a copy")
        arr = arr.astype(dt.name)
    elif copy and arr is obj:
        arr = arr.copy()
    out = _host_from_numpy(arr)
    target = to_device(device)
    return out if target == out.device else out._to(target)


def operands(x1, x2):
    """Both as kiln arrays: one that is not a kiln array goes to the other's
    device, while kiln arrays on two devices stay there, so that what they
    are given to refuses them (TypeError) instead of copying one."""
    if isinstance(x1, ndarray):
        return x1, x2 if isinstance(x2, ndarray) else asarray(x2, device=x1.device)
    x2 = asarray(x2)
    return asarray(x1, device=x2.device), x2


def array(obj, dtype=None, *, copy=True, device=None):
    """NumPy's ``array``: like asarray, but copies by default."""
    return asarray(obj, dtype=dtype, device=device, copy=copy)


def empty(shape, dtype=None, *, device=None):
    return _core._empty(shape, dtype, to_device(device))


def zeros(shape, dtype=None, *, device=None):
    return _core._full(shape, 0, float64 if dtype is None else dtype, to_device(device))


def ones(shape, dtype=None, *, device=None):
    return _core._full(shape, 1, float64 if dtype is None else dtype, to_device(device))


def full(shape, fill_value, dtype=None, *, device=None):
    if isinstance(fill_value, ndarray) or hasattr(fill_value, "__array_interface__"):
        value = asarray(fill_value)
        out = _core._empty(shape, value.dtype if dtype is None else dtype, to_device(device))
        out[...] = value
        return out
    return _core._full(shape, fill_value, dtype, to_device(device))


def _like(x, dtype, device):
    return x.shape, x.dtype if dtype is None else dtype, x.device if device is None else device


def empty_like(x, /, *, dtype=None, device=None):
    shape, dt, dev = _like(x, dtype, device)
    return empty(shape, dt, device=dev)


def zeros_like(x, /, *, dtype=None, device=None):
    shape, dt, dev = _like(x, dtype, device)
    return zeros(shape, dt, device=dev)


def ones_like(x, /, *, dtype=None, device=None):
    shape, dt, dev = _like(x, dtype, device)
    return ones(shape, dt, device=dev)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    shape, dt, dev = _like(x, dtype, device)
    return full(shape, fill_value, dt, device=dev)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Values from ``start`` to ``stop`` (exclusive) by ``step``; ``arange(n)`` counts from 0."""
    if stop is None:
        start, stop = 0, start
    return _core._arange(start, stop, step, dtype, to_device(device))


def linspace(start, stop, /, num=50, *, dtype=None, device=None, endpoint=True):
    """``num`` evenly spaced samples from ``start`` to ``stop``."""
    num = operator.index(num)
    out = _core._linspace(start, stop, num, builtins.bool(endpoint), None, to_device(device))
    if dtype is not None:
        dt = normalize(dtype)
        if dt.kind in "iub":
            out = _core.floor(out)  # NumPy 2 rounds toward -inf for integer dtypes
        out = out._astype(dt, False)
    return out


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """A 2-D array with ones on diagonal ``k`` and zeros elsewhere."""
    return _core._eye(operator.index(n_rows), None if n_cols is None else operator.index(n_cols),
                      operator.index(k), dtype, to_device(device))


def copy(a, /):
    """A copy of ``a`` (NumPy's ``copy``)."""
    return asarray(a).copy()

