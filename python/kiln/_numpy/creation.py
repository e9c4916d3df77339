"""Array creation: asarray and friends, empty/zeros/ones/full, arange, linspace, eye."""
import builtins
import math
import operator

from .. import _core
from .._core import ndarray
from .._ndarray.device import to_device
from .._ndarray.dtypes import _BY_NAME as _SUPPORTED
from .._ndarray.dtypes import float64, normalize

_NUMPY_KINDS = "biufc"


def _host_from_numpy(arr, shared=True):
    """A kiln view of a NumPy array (copied first only when kiln cannot view
    it). ``shared``: the caller holds ``arr`` and may write it (automatic
    fusion then reads it at once)."""
    import numpy as np

    if arr.dtype.kind not in _NUMPY_KINDS or arr.dtype.name not in _SUPPORTED:
        raise TypeError(f"obj: NumPy dtype {arr.dtype} is not supported by kiln")
    itemsize = arr.dtype.itemsize
    if (not arr.dtype.isnative or not arr.flags.aligned
            or builtins.any(s % itemsize for s in arr.strides)):
        arr, shared = np.array(arr, dtype=arr.dtype.newbyteorder("="), order="C"), False
    ptr, readonly = arr.__array_interface__["data"]
    return _core._wrap_memory(ptr, _SUPPORTED[arr.dtype.name], arr.shape, arr.strides, arr, not readonly, "cpu",
                              shared)


def asarray(obj, /, dtype=None, order=None, *, device=None, copy=None, blocking=False):
    """Convert ``obj`` (a kiln or NumPy array, nested sequences, a scalar, a buffer) to a kiln array.

    NumPy arrays on the CPU are viewed without a copy unless ``copy=True``,
    a ``dtype`` conversion or an ``order`` ('C' or 'F') requires one;
    ``copy=False`` raises when a copy is needed.
    """
    out = _asarray(obj, dtype, device, copy)
    if order is None or out.ndim == 0:  # (a strided 1-D view is neither C- nor F-contiguous)
        return out
    laid_out = _laid_out(out, order)
    if laid_out is not out and copy is False:
        raise ValueError(f"asarray: copy=False but order={order!r} needs a copy")
    return laid_out


def asanyarray(obj, /, dtype=None, order=None, *, device=None, copy=None, blocking=False):
    """NumPy's ``asanyarray``: kiln has no ndarray subclasses, so ``asarray``."""
    return asarray(obj, dtype, order, device=device, copy=copy)


def ascontiguousarray(a, dtype=None, *, device=None):
    """``a`` in row-major order, at least 1-D (copied only when it is not)."""
    out = asarray(a, dtype, "C", device=device)
    return out.reshape(1) if out.ndim == 0 else out


def asfortranarray(a, dtype=None, *, device=None):
    """``a`` in column-major order, at least 1-D (copied only when it is not)."""
    out = asarray(a, dtype, device=device)
    return out.reshape(1) if out.ndim == 0 else _laid_out(out, "F")


def require(a, dtype=None, requirements=None, *, device=None):
    """NumPy's ``require``: ``a`` with the dtype and the flags asked for
    ('C'/'C_CONTIGUOUS', 'F'/'F_CONTIGUOUS', 'A'/'ALIGNED', 'W'/'WRITEABLE',
    'O'/'OWNDATA', 'E'/'ENSUREARRAY')."""
    names = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
             "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O",
             "E": "E", "ENSUREARRAY": "E"}
    if isinstance(requirements, str):
        requirements = [requirements]
    wanted = set()
    for requirement in requirements or ():
        if requirement.upper() not in names:
            raise KeyError(f"requirements: unknown requirement {requirement!r}")
        wanted.add(names[requirement.upper()])
    if {"C", "F"} <= wanted:
        raise ValueError("requirements: cannot be both C- and F-contiguous")
    out = asarray(a, dtype, device=device)
    if "C" in wanted or "F" in wanted:
        out = _laid_out(out, "C" if "C" in wanted else "F")
    if ("O" in wanted and out.base is not None) or ("W" in wanted and not out.flags.writeable):
        out = out.copy(order="F" if "F" in wanted else "C")
    return out


def _asarray(obj, dtype, device, copy):
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
    elif isinstance(obj, (list, tuple)) and (first := _first_array(obj)) is not None:
        # Nested sequences of kiln arrays stack where the arrays are (CuPy's
        # cupy.array([x, y])), without a trip through the host.
        where = device if device is not None else first.device
        parts = [_asarray(item, None, where, None) for item in obj]
        if builtins.any(p.shape != parts[0].shape for p in parts):
            raise ValueError("obj: the nested sequence has an inhomogeneous shape")
        out = empty((len(parts), *parts[0].shape), dtype=_core.result_type(*parts), device=where)
        for k, part in enumerate(parts):
            out[k] = part
        return _asarray(out, dtype, None, None)
    elif hasattr(obj, "__cuda_array_interface__"):  # GPU memory of CuPy, PyTorch, Numba, ...: viewed in place
        from .._ndarray.cuda_array_interface import from_interface

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
    out = _host_from_numpy(arr, shared=arr is obj)
    target = to_device(device)
    return out if target == out.device else out._to(target)


def _first_array(seq):
    """The first kiln array found in a nested list/tuple, or None."""
    for item in seq:
        if isinstance(item, ndarray):
            return item
        if isinstance(item, (list, tuple)):
            found = _first_array(item)
            if found is not None:
                return found
    return None


def operands(x1, x2):
    """Both as kiln arrays: one that is not a kiln array goes to the other's
    device, while kiln arrays on two devices stay there, so that what they
    are given to refuses them (TypeError) instead of copying one."""
    if isinstance(x1, ndarray):
        return x1, x2 if isinstance(x2, ndarray) else asarray(x2, device=x1.device)
    x2 = asarray(x2)
    return asarray(x1, device=x2.device), x2


def _check_order(order, allowed="CFAK"):
    if order is None:
        return "K" if "K" in allowed else "C"
    if not isinstance(order, str) or order.upper() not in allowed:
        raise ValueError(f"order: must be one of {', '.join(repr(o) for o in allowed)}, not {order!r}")
    return order.upper()


def _normalized_shape(shape):
    try:
        return (operator.index(shape),)
    except TypeError:
        return tuple(operator.index(n) for n in shape)


def _make(shape, order, make):
    """make(shape) laid out in `order` ('F': column-major, as the transpose of
    the reversed shape's row-major array; else row-major)."""
    if order == "C":  # the default, checked first: a small array's whole cost is this call's overhead
        return make(shape)
    if _check_order(order, "CFAK") == "F":
        return make(_normalized_shape(shape)[::-1]).T
    return make(shape)


def _laid_out(a, order):
    """`a`, copied only where it is not laid out as `order` asks ('C', 'F';
    'A' and 'K' keep any layout)."""
    order = _check_order(order)
    if order == "C" and not a.flags.c_contiguous:
        return a.copy(order="C")
    if order == "F" and not a.flags.f_contiguous:
        return a.copy(order="F")
    return a


def array(obj, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, blocking=False, device=None):
    """NumPy's ``array``: like asarray, but copies by default. ``ndmin``
    prepends axes of length 1; ``blocking`` (CuPy's) is accepted: kiln's
    copies from the host are complete when the call returns."""
    out = asarray(obj, dtype=dtype, device=device, copy=copy, order=order)
    ndmin = operator.index(ndmin)
    if out.ndim < ndmin:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def empty(shape, dtype=None, order="C", *, device=None):
    return _make(shape, order, lambda s: _core._empty(s, dtype, to_device(device)))


def zeros(shape, dtype=None, order="C", *, device=None):
    return _make(shape, order, lambda s: _core._full(s, 0, float64 if dtype is None else dtype, to_device(device)))


def ones(shape, dtype=None, order="C", *, device=None):
    return _make(shape, order, lambda s: _core._full(s, 1, float64 if dtype is None else dtype, to_device(device)))


def full(shape, fill_value, dtype=None, order="C", *, device=None):
    if isinstance(fill_value, ndarray) or hasattr(fill_value, "__array_interface__"):
        value = asarray(fill_value)
        out = empty(shape, value.dtype if dtype is None else dtype, order, device=device)
        out[...] = value
        return out
    return _make(shape, order, lambda s: _core._full(s, fill_value, dtype, to_device(device)))


def _like(x, dtype, order, shape, device):
    """(shape, dtype, order, device) of an array made like `x`: order 'K' or
    'A' keeps a column-major x column-major, as NumPy does."""
    x = x if isinstance(x, ndarray) else asarray(x)
    order = _check_order(order)
    if order in "AK":
        order = "F" if x.flags.f_contiguous and not x.flags.c_contiguous and shape is None else "C"
    return (x.shape if shape is None else shape, x.dtype if dtype is None else dtype, order,
            x.device if device is None else device)


def empty_like(x, /, dtype=None, order="K", subok=None, shape=None, *, device=None):
    shape, dt, order, dev = _like(x, dtype, order, shape, device)
    return empty(shape, dt, order, device=dev)


def zeros_like(x, /, dtype=None, order="K", subok=None, shape=None, *, device=None):
    shape, dt, order, dev = _like(x, dtype, order, shape, device)
    return zeros(shape, dt, order, device=dev)


def ones_like(x, /, dtype=None, order="K", subok=None, shape=None, *, device=None):
    shape, dt, order, dev = _like(x, dtype, order, shape, device)
    return ones(shape, dt, order, device=dev)


def full_like(x, /, fill_value, dtype=None, order="K", subok=None, shape=None, *, device=None):
    shape, dt, order, dev = _like(x, dtype, order, shape, device)
    return full(shape, fill_value, dt, order, device=dev)


def arange(start, /, stop=None, step=1, dtype=None, *, device=None):
    """Values from ``start`` to ``stop`` (exclusive) by ``step``; ``arange(n)`` counts from 0."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step  # NumPy's default, spelt out or not
    dt = None if dtype is None else normalize(dtype)
    if dt is not None and dt.kind == "b":
        # NumPy casts the first two values to bool and has no way to go on.
        if step != 0 and math.ceil((stop - start) / step) > 2:
            raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
        return _core._arange(start, stop, step, float64, to_device(device)) != 0
    if dt is not None and dt.kind == "c":  # real steps into a complex array: NumPy's values, complex
        real = float64 if dt.itemsize == 16 else _SUPPORTED["float32"]
        return _core._arange(start, stop, step, real, to_device(device)).astype(dt)
    return _core._arange(start, stop, step, dtype, to_device(device))


def linspace(start, stop, /, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """``num`` evenly spaced samples from ``start`` to ``stop`` (arrays of
    starts and stops give one sequence per element, along ``axis``)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = num - 1 if endpoint else num
    if isinstance(start, ndarray) or isinstance(stop, ndarray) or hasattr(start, "__len__") or hasattr(
            stop, "__len__"):
        out, step = _linspace_arrays(start, stop, num, div, endpoint, device, axis)
    else:
        out = _core._linspace(start, stop, num, builtins.bool(endpoint), None, to_device(device))
        step = (stop - start) / div if div > 0 else float("nan")
    if dtype is not None:
        dt = normalize(dtype)
        if dt.kind in "iu":
            out = _core.floor(out)  # NumPy 2 rounds toward -inf for integer dtypes (bool takes nonzero as True)
        out = out._astype(dt, False)
    return (out, step) if retstep else out


def _linspace_arrays(start, stop, num, div, endpoint, device, axis):
    start = asarray(start, device=device)
    stop = asarray(stop, device=start.device)
    # NumPy's computation dtype: the inputs' with a weak float (float(num)),
    # so float16 and float32 samples are computed in their own precision.
    dtype = _core.result_type(start, stop, 1.0)
    start, stop = start.astype(dtype), stop.astype(dtype)
    delta = stop - start
    # NumPy's arange in the computation dtype (real steps cast, for complex).
    steps = arange(0, num, 1, dtype=dtype, device=start.device).reshape((num,) + (1,) * builtins.max(start.ndim,
                                                                                                stop.ndim))
    step = delta / div if div > 0 else delta * float("nan")
    if div > 0 and builtins.bool(_core.any(step == 0)):
        out = steps / div * delta + start  # a step that underflows to zero: NumPy scales by the range
    else:
        out = steps * step + start if div > 0 else steps * delta + start
    if endpoint and num > 1:
        out[-1, ...] = stop
    if axis != 0:
        out = _first_axis_to(out, axis)
    return out, step


def _first_axis_to(a, axis):
    """``a`` with its first axis moved to ``axis`` (a view)."""
    order = list(builtins.range(1, a.ndim))
    order.insert(operator.index(axis) % a.ndim, 0)
    return a._permute_dims(tuple(order))


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *, device=None):
    """``base ** linspace(start, stop, num)``."""
    y = linspace(start, stop, num, endpoint, axis=axis, device=device)
    # A Python number base is weak, as in NumPy: float16 samples stay float16.
    weak = isinstance(base, (int, float, complex)) and not isinstance(base, builtins.bool)
    out = _core.power(base if weak else asarray(base, device=y.device), y)
    return out if dtype is None else out.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    """``num`` samples evenly spaced on a log scale, from ``start`` to ``stop`` (both included when ``endpoint``)."""
    start, stop = asarray(start, device=device), asarray(stop, device=device)
    if builtins.bool(_core.any(start == 0)) or builtins.bool(_core.any(stop == 0)):
        raise ValueError("Geometric sequence cannot include zero")
    dtype_out = _core.result_type(start, stop, float64)
    start, stop = start.astype(dtype_out), stop.astype(dtype_out)
    if dtype_out.kind == "c":
        log_start, log_stop = _core.log10(start), _core.log10(stop)
        out = _core.power(asarray(10.0, dtype=dtype_out, device=start.device),
                          linspace(log_start, log_stop, num, endpoint, axis=0))
    else:
        both_negative = (start < 0) & (stop < 0)
        flip = _core._where(both_negative, -1.0, 1.0).astype(dtype_out)
        log_start, log_stop = _core.log10(start * flip), _core.log10(stop * flip)
        out = _core.power(asarray(10.0, dtype=dtype_out, device=start.device),
                          linspace(log_start, log_stop, num, endpoint, axis=0)) * flip
    if num > 0:
        out[0, ...] = start
        if endpoint and num > 1:
            out[-1, ...] = stop
    if axis != 0:
        out = _first_axis_to(out, axis)
    return out if dtype is None else out.astype(dtype)


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None):
    """A 2-D array with ones on diagonal ``k`` and zeros elsewhere."""
    out = _core._eye(operator.index(N), None if M is None else operator.index(M), operator.index(k), dtype,
                     to_device(device))
    return out if _check_order(order, "CF") == "C" else out.copy(order="F")


def identity(n, dtype=None, *, device=None):
    """The n-by-n identity matrix."""
    return eye(n, dtype=dtype, device=device)


def copy(a, /, order="K", subok=False):
    """A copy of ``a`` (NumPy's ``copy``), laid out as ``order`` asks ('K' keeps a column-major array so)."""
    return asarray(a).copy(order=order)
