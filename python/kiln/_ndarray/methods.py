"""Python protocols and NumPy-style methods of ``kiln.ndarray``.

The type itself is the C++ Array bound by nanobind (operators, indexing and
properties live there); this module adds what is naturally Python.
"""
import builtins
import operator

from .. import _core
from .._numpy import creation as _creation, products as _products, sorting as _sorting
from . import cuda_array_interface as _cuda_array_interface
from . import dlpack as _dlpack
from . import numpy_protocols as _numpy_protocols
from . import public_namespace as _public_namespace
from .._numpy.math import elementwise as _elementwise
from .._numpy.indexing import gathering as _gathering, nonzero as _nonzero
from .._numpy.manipulation import shape as _manipulation
from .._numpy.statistics import reductions as _reductions
from .._core import ndarray
from .device import cpu, to_device
from .dtypes import normalize
from .outputs import into


class _HostView:
    """Exposes a CPU array's memory to NumPy; NumPy keeps it (and so the array) alive."""

    __slots__ = ("__array_interface__", "_owner")

    def __init__(self, array):
        self._owner = array
        self.__array_interface__ = _interface(array)


def _interface(a):
    if a.device != cpu:
        raise AttributeError("__array_interface__ is only available for arrays on the CPU")
    return {
        "version": 3,
        "shape": a.shape,
        "typestr": a.dtype.str,
        "data": (a._data_ptr, not a._writeable),
        "strides": a.strides,
    }


def _numpy_view(a, copy=None):
    import numpy as np

    if a.device != cpu and getattr(a, "_numba_device_array", False) and copy is not False:
        return a.get()  # made by Numba's host API (cuda.to_device...): a host copy, as Numba's arrays give
    if a.device != cpu:
        raise TypeError(
            "Implicit conversion to a NumPy array is not allowed for an array on "
            f"{a.device}; use kiln.asnumpy(x) or x.get() to copy it to the host")
    return np.asarray(_HostView(a))


def _array(self, dtype=None, copy=None):
    out = _numpy_view(self, copy)
    if dtype is not None:
        out = out.astype(dtype, copy=False)
    if copy:
        out = out.copy()
    return out


def _repr(self):
    import numpy as np

    text = np.array_repr(_numpy_view(self.to_device(cpu)))
    if self.device != cpu:
        text = text[:-1] + f", device='{self.device}')"
    return text


def _str(self):
    import numpy as np

    return np.array_str(_numpy_view(self.to_device(cpu)))


def _format(self, spec):
    if self.ndim == 0:
        return format(self.item(), spec)
    return format(str(self), spec)


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _to_device(self, device, /, *, stream=None):
    target = to_device(device)
    return self if target == self.device else self._to(target)


def _get(self, stream=None, order="C", out=None, blocking=True):
    """A NumPy copy of the array on the host (CuPy's ``get``), written into
    ``out`` when given; ``order`` 'F' (or 'A'/'K' of a column-major array)
    lays it out column-major."""
    if stream is not None:
        with stream:
            return _get(self, order=order, out=out)
    if out is None and _layout(self, order) == "F" and self.ndim > 1:
        import numpy as np

        return np.asfortranarray(_get(self))
    if out is None:
        if self.device == cpu:
            return _numpy_view(self).copy()
        return _numpy_view(self.to_device(cpu))  # a fresh host array that NumPy now owns
    import numpy as np

    if not isinstance(out, np.ndarray):
        raise TypeError(f"out: expected a NumPy array (get copies to the host), got {type(out).__name__}")
    if out.shape != self.shape:
        raise ValueError(f"out: expected a NumPy array of shape {self.shape}, got "
                         f"{getattr(out, 'shape', type(out).__name__)}")
    target = _creation._host_from_numpy(out)
    if target._data_ptr != out.__array_interface__["data"][0]:  # kiln cannot view it in place
        out[...] = _get(self)
    else:
        target[...] = self  # straight from the device into out's memory
    return out


def _set(self, arr, stream=None):
    """Copy ``arr`` (host data of this shape) into the array (CuPy's ``set``)."""
    if stream is not None:
        with stream:
            return _set(self, arr)
    if isinstance(arr, ndarray):
        self[...] = arr
        return
    import numpy as np

    self[...] = _creation._host_from_numpy(np.asarray(arr))  # straight from host memory to the device


def _tolist(self):
    return _numpy_view(self.to_device(cpu)).tolist()


def _array_namespace(self, /, *, api_version=None):
    if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
        raise ValueError(f"api_version: kiln does not implement array API version {api_version!r}")
    return _public_namespace.get()


class _Flags:
    """The subset of NumPy's ``flags`` that kiln arrays have."""

    def __init__(self, a):
        self.c_contiguous = a._c_contiguous
        self.f_contiguous = a._f_contiguous
        self.writeable = a._writeable
        self.owndata = a.base is None

    def __getitem__(self, key):
        return getattr(self, {"C_CONTIGUOUS": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
                              "WRITEABLE": "writeable", "OWNDATA": "owndata"}[key.upper()])

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  WRITEABLE : {self.writeable}")


def _shape_args(args):
    return args[0] if len(args) == 1 and not isinstance(args[0], int) else args


def _reshape(self, *shape, order="C", copy=None):
    """NumPy's reshape; order='F' reads and writes the elements column-major
    (the row-major reshape of the reversed axes, reversed back)."""
    shape = _shape_args(shape)
    order = _creation._check_order(order, "CFA")
    if order == "A":
        order = "F" if self.flags.f_contiguous and not self.flags.c_contiguous else "C"
    if order == "F":
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        return _manipulation.reshape(self.T, shape[::-1], copy=copy).T
    return _manipulation.reshape(self, shape, copy=copy)


def _layout(self, order):
    """'C' or 'F': the layout order K or A keeps for this array."""
    order = _creation._check_order(order)
    if order in "AK":
        return "F" if self.flags.f_contiguous and not self.flags.c_contiguous else "C"
    return order


def _copy(self, order="C"):
    if _layout(self, order) == "F":
        out = _creation.empty(self.shape, self.dtype, "F", device=self.device)
        out[...] = self
        return out
    return _c_copy(self)


def _ravel(self, order="C"):
    return _c_ravel(self.T) if _layout(self, order) == "F" else _c_ravel(self)


def _flatten(self, order="C"):
    return _c_flatten(self.T) if _layout(self, order) == "F" else _c_flatten(self)


_c_copy, _c_ravel, _c_flatten = ndarray.copy, ndarray.ravel, ndarray.flatten


def _construct(shape, dtype, memptr, strides, order):
    """CuPy's ``ndarray(shape, dtype=float, memptr=None, strides=None,
    order='C')``: fresh memory, or a view of the memory ``memptr`` (a
    kiln.cuda.MemoryPointer) points at, which the array keeps alive."""
    from .._cuda.memory import MemoryPointer

    dt = normalize(float if dtype is None else dtype)
    shape = _creation._normalized_shape(shape)
    order = _creation._check_order(order, "CF")
    if memptr is None:
        out = _creation.empty(shape, dt, order)
        if strides is not None and tuple(strides) != out.strides:
            raise ValueError("strides: kiln allocates fresh arrays contiguous; give memptr to lay out memory yourself")
        return out
    if not isinstance(memptr, MemoryPointer):
        raise TypeError(f"memptr: expected a kiln.cuda.MemoryPointer, got {type(memptr).__name__}")
    if strides is None:
        strides, step = [], dt.itemsize
        for n in (reversed(shape) if order == "C" else shape):
            strides.append(step)
            step *= builtins.max(n, 1)
        strides = tuple(reversed(strides)) if order == "C" else tuple(strides)
    return _core._wrap_memory(memptr.ptr, dt, shape, tuple(strides), memptr, True, memptr.array_device)


def _ipc():
    from .._cuda import ipc

    return ipc


def _data(self):
    """A kiln.cuda.MemoryPointer to the array's first element (CuPy's ndarray.data)."""
    from .._cuda.memory import ArrayMemory, MemoryPointer

    return MemoryPointer(ArrayMemory(self), 0)


def _reduction_out(fn):
    """fn's result written into ``out`` when one is given."""
    def method(self, *args, out=None, **kwargs):
        result = fn(self, *args, **kwargs)
        if out is None:
            return result
        out[...] = result
        return out
    method.__name__ = fn.__name__
    return method


def _flat_key(key):
    """A flat iterator takes ints, slices and index arrays (a Python bool is refused, as CuPy refuses it)."""
    if isinstance(key, bool) or (isinstance(key, tuple) and any(isinstance(k, bool) for k in key)):
        raise IndexError("unsupported iterator index: a Python bool")
    return key


class _FlatIterator:
    """``a.flat``: the array's elements in row-major order, readable and
    writable by integer, slice or index array."""

    def __init__(self, array):
        self.base = array

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return iter(_c_ravel(self.base))

    def __getitem__(self, key):
        return _c_ravel(self.base)[_flat_key(key)]

    def __setitem__(self, key, value):
        """NumPy's: the elements ``key`` picks get ``value``'s elements in
        order, repeated when there are fewer (as put does)."""
        key = _flat_key(key)
        contiguous = self.base.flags.c_contiguous
        flat = self.base.reshape(-1) if contiguous else _c_flatten(self.base)
        positions = _creation.arange(flat.size, device=flat.device)[key]
        _gathering.put(flat, positions, _creation.asarray(value, device=flat.device))  # put casts to flat's dtype
        if not contiguous:
            self.base[...] = flat.reshape(self.base.shape)


def _item(self, *args):
    if not args:
        return _c_item(self)
    if len(args) == 1 and not isinstance(args[0], tuple):  # a flat index
        size, flat = self.size, operator.index(args[0])
        if not -size <= flat < size:
            raise IndexError(f"index {flat} is out of bounds for size {size}")
        return _c_item(_c_ravel(self)[flat])
    return _c_item(self[args[0] if len(args) == 1 else args])


_c_item = ndarray.item


def _byteswap(self, inplace=False):
    """The elements with their bytes in reverse order (each half of a complex
    number on its own, as NumPy swaps them); in place when ``inplace``."""
    target = self if inplace else self.copy()
    parts = (target.real, target.imag) if target.dtype.kind == "c" else (target,)
    for part in parts:
        size = part.itemsize
        if size == 1:
            continue
        bits = part.view(f"uint{8 * size}")
        swapped = bits & 0  # zeros of the unsigned type
        for k in range(size):
            byte = (bits >> (8 * k)) & 0xFF
            swapped = swapped | (byte << (8 * (size - 1 - k)))
        bits[...] = swapped
    return target


def _tobytes(self, order="C"):
    return _get(self).tobytes(order=order)


def _transpose(self, *axes):
    if not axes or axes == (None,):
        return self.T
    return self._permute_dims(_shape_args(axes))


def _astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    dt = normalize(dtype)
    if not _core.can_cast(self.dtype, dt, casting):
        raise TypeError(f"astype: cannot cast from {self.dtype} to {dt} with casting rule {casting!r}")
    return self._astype(dt, builtins.bool(copy))


def _fill(self, value):
    self[...] = value


def _view(self, dtype=None):
    return self if dtype is None else self._view(normalize(dtype))


def _squeeze(self, axis=None):
    return self._squeeze(axis)


def _method(fn):
    def method(self, axis=None, dtype=None, out=None, keepdims=False):
        return into(fn(self, axis=axis, dtype=dtype, keepdims=keepdims), out)
    method.__name__ = fn.__name__
    return method


def _plain_method(fn):
    def method(self, axis=None, out=None, keepdims=False):
        return into(fn(self, axis=axis, keepdims=keepdims), out)
    method.__name__ = fn.__name__
    return method


def _var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return into(_reductions.var(self, axis=axis, ddof=ddof, keepdims=keepdims, dtype=dtype), out)


def _std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return into(_reductions.std(self, axis=axis, ddof=ddof, keepdims=keepdims, dtype=dtype), out)


def _arg_method(fn):
    def method(self, axis=None, out=None, *, keepdims=False):
        return into(fn(self, axis=None if axis is None else operator.index(axis), keepdims=keepdims), out)
    method.__name__ = fn.__name__
    return method


def _diagonal(self, offset=0, axis1=0, axis2=1):
    x = self if (axis1, axis2) == (self.ndim - 2, self.ndim - 1) else _manipulation.moveaxis(
        self, (axis1, axis2), (-2, -1))
    return x._diagonal(offset)


def _unpickle(values, device):
    """A pickled kiln array, rebuilt on the device it was pickled from (which
    must exist where it is unpickled, as with CuPy's arrays)."""
    return _creation.asarray(values, device=device)


def _device_ctypes_pointer(self):
    """Numba's: the address of the first element as a ctypes.c_void_p (NULL when empty)."""
    import ctypes

    return ctypes.c_void_p(self._data_ptr if self.size else None)


def _alloc_size(self):
    """Numba's: the bytes the array spans in memory, from its lowest to past
    its highest element (a view's, not its base's)."""
    if self.size == 0:
        return 0
    return self.itemsize + sum((n - 1) * abs(s) for n, s in zip(self.shape, self.strides))


def _imatmul(self, other):
    self[...] = _products.matmul(self, other)
    return self


_METHODS = {
    "__array__": _array,
    "__array_interface__": property(_interface),
    "__array_namespace__": _array_namespace,
    "__array_ufunc__": _numpy_protocols.array_ufunc,
    "__array_function__": _numpy_protocols.array_function,
    "__cuda_array_interface__": property(_cuda_array_interface.interface),
    # Numba's device arrays' stream (the one given to cuda.device_array and the like; 0: none)
    "stream": property(lambda self: getattr(self, "_numba_stream", 0)),
    "__dlpack__": _dlpack.dlpack,
    "__dlpack_device__": _dlpack.dlpack_device,
    "__array_priority__": 100,
    "__repr__": _repr,
    "__str__": _str,
    "__format__": _format,
    "__iter__": _iter,
    "__copy__": lambda self: self.copy(),
    "__deepcopy__": lambda self, memo: self.copy(),
    "__reduce__": lambda self: (_unpickle, (self.get(order="C"), str(self.device))),
    "to_device": _to_device,
    "get": _get,
    "set": _set,
    # Numba's device-array spellings (kiln.cuda.to_device returns kiln arrays).
    # on the given stream, else the array's own (Numba's arrays made on a stream), else the current one
    "copy_to_host": lambda self, ary=None, stream=0: _get(self, stream=stream or getattr(self, "_numba_stream", 0)
                                                          or None, out=ary),
    "copy_to_device": lambda self, ary, stream=0: _set(self, ary, stream=stream or None),
    "device_ctypes_pointer": property(_device_ctypes_pointer),
    "alloc_size": property(_alloc_size),
    "tolist": _tolist,
    "flags": property(_Flags),
    # The array whose memory a view shows (None for an array with its own).
    "base": property(lambda self: getattr(self, "_base", None)),
    "reshape": _reshape,
    "transpose": _transpose,
    "swapaxes": lambda self, a, b: self._swapaxes(a, b),
    "squeeze": _squeeze,
    "astype": _astype,
    "fill": _fill,
    "view": _view,
    "diagonal": _diagonal,
    "nonzero": lambda self: _nonzero.nonzero(self),
    "take": lambda self, indices, axis=None, out=None, mode="raise": _gathering.take(self, indices, axis, out, mode),
    "sum": _method(_core.sum),
    "prod": _method(_core.prod),
    "mean": _method(_core.mean),
    "min": _plain_method(_core.min),
    "max": _plain_method(_core.max),
    "any": _plain_method(_core.any),
    "all": _plain_method(_core.all),
    "var": _var,
    "std": _std,
    "argmin": _arg_method(_core.argmin),
    "argmax": _arg_method(_core.argmax),
    "cumsum": lambda self, axis=None, dtype=None, out=None: into(_reductions.cumsum(self, axis, dtype), out),
    "cumprod": lambda self, axis=None, dtype=None, out=None: into(_reductions.cumprod(self, axis, dtype), out),
    "copy": _copy,
    "ravel": _ravel,
    "flatten": _flatten,
    "data": property(_data),
    "gpu_data": property(_data),  # Numba's name of the memory (gpu_data.device_pointer: the address)
    "get_ipc_handle": lambda self: _ipc().get_ipc_handle(self),  # Numba's, for another process
    "flat": property(_FlatIterator),
    "item": _item,
    "tobytes": _tobytes,
    "byteswap": _byteswap,
    "tofile": lambda self, fid, sep="", format="%s": _get(self).tofile(fid, sep, format),
    "dump": lambda self, file: _get(self).dump(file),
    "dumps": lambda self: _get(self).dumps(),
    "repeat": lambda self, repeats, axis=None: _public_namespace.get().repeat(self, repeats, axis),
    "put": lambda self, indices, values, mode="raise": _gathering.put(self, indices, values, mode),
    "compress": lambda self, condition, axis=None, out=None: into(_nonzero.compress(condition, self, axis), out),
    "choose": lambda self, choices, out=None, mode="raise": _public_namespace.get().choose(self, choices, out, mode),
    "__contains__": lambda self, value: builtins.bool((self == value).any()),
    "conj": lambda self: _core.conj(self),
    "conjugate": lambda self: _core.conj(self),
    "round": lambda self, decimals=0, out=None: into(_core.round(self, decimals), out),
    "clip": lambda self, min=None, max=None: _elementwise.clip(self, min, max),
    "__divmod__": lambda self, other: (self // other, self % other),
    "__rdivmod__": lambda self, other: (other // self, other % self),
}

_METHODS.update(_sorting.METHODS)
_METHODS.update({
    "__imatmul__": _imatmul,
    "dot": lambda self, b, out=None: _products.dot(self, b, out),
    "trace": lambda self, offset=0, axis1=0, axis2=1, dtype=None, out=None: _products.trace(self, offset, axis1, axis2,
                                                                                            dtype, out),
})

for _name, _value in _METHODS.items():
    setattr(ndarray, _name, _value)
