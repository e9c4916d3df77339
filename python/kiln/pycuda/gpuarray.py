"""PyCUDA's ``pycuda.gpuarray`` as a face over kiln arrays:
``from kiln import gpuarray``.

A ``GPUArray`` holds a kiln array (on the current device: the GPU, or the
CPU where there is none) and answers in PyCUDA's spellings: ``get``/``set``,
``gpudata`` and ``ptr`` (the address, usable as a kernel argument),
arithmetic, comparisons, slicing views, ``astype``, ``fill``, ``reshape``...
Every operation is kiln's, so results follow NumPy's rules. Reductions
(``sum``, ``dot``, ``max``...) give 0-d GPUArrays, as PyCUDA's do.
"""
import builtins
import numbers

import numpy as np

from .. import _core
from . import driver
from .._core import ndarray
from .._ndarray.device import default_device


def _kiln():
    from .._ndarray import public_namespace as _public_namespace

    return _public_namespace.get()


class GPUArray:
    """``GPUArray(shape, dtype, allocator=drv.mem_alloc, base=None, gpudata=None,
    strides=None, order="C")``: new memory, or a view of `gpudata` (an address
    or an allocation) when given."""

    __array_priority__ = 100

    def __init__(self, shape, dtype, allocator=driver.mem_alloc, base=None, gpudata=None, strides=None,
                 order="C", *, _array=None):
        if _array is not None:
            self._array, self.base, self.allocator = _array, base, allocator
            return
        shape = _shape(shape)
        dtype = np.dtype(dtype)
        if order not in ("C", "F"):
            raise ValueError(f"order: expected 'C' or 'F', got {order!r}")
        if strides is None:
            strides = _contiguous_strides(dtype.itemsize, shape, order)
        nbytes = dtype.itemsize * int(np.prod(shape, dtype=np.int64))
        owner = base if base is not None else gpudata
        if gpudata is None:
            if allocator is driver.mem_alloc and order == "C":
                self._array = _kiln().empty(shape, dtype=dtype.name, device=default_device())
                self.base, self.allocator = base, allocator
                return
            gpudata = allocator(builtins.max(nbytes, 1))
            owner = gpudata
        device = getattr(gpudata, "device", None) or default_device()
        self._array = _core._wrap_memory(int(gpudata), dtype.name, shape, tuple(strides), owner, True, device)
        self.base, self.allocator = base, allocator

    # ---- what it is --------------------------------------------------------------
    shape = property(lambda self: self._array.shape)
    dtype = property(lambda self: np.dtype(self._array.dtype.name))
    strides = property(lambda self: self._array.strides)
    size = property(lambda self: self._array.size)
    mem_size = size
    ndim = property(lambda self: self._array.ndim)
    nbytes = property(lambda self: self._array.nbytes)
    itemsize = property(lambda self: self._array.itemsize)
    device = property(lambda self: self._array.device)

    @property
    def gpudata(self):
        """The address of the first element (an int), as kernels take it; None when empty."""
        if self.size == 0:
            return None
        return driver.DevicePointer(self._array._data_ptr, self.device, owner=self)

    @property
    def ptr(self):
        return self._array._data_ptr

    @property
    def flags(self):
        return _Flags(self._array)

    @property
    def __cuda_array_interface__(self):
        """kiln's interface as PyCUDA gives it: the strides always, and no stream
        while work goes to the legacy null stream (which orders itself with
        every blocking stream, so a consumer has nothing to wait for)."""
        interface = {**self._array.__cuda_array_interface__, "strides": self.strides}
        if interface.get("stream") == 1:
            interface["stream"] = None
        return interface

    def __kiln_array__(self):
        return self._array

    # ---- host transfers ------------------------------------------------------------
    def set(self, ary, async_=False, stream=None, **kwargs):
        ary = np.asarray(ary)
        if ary.size != self.size:
            raise ValueError(f"set: an array of {ary.size} elements does not fit {self.size}")
        if ary.dtype != self.dtype:
            raise TypeError(f"set: cannot set from an array of {ary.dtype} into one of {self.dtype}")
        self._array.set(ary.reshape(self.shape), stream=stream)

    def set_async(self, ary, stream=None):
        self.set(ary, stream=stream)

    def get(self, ary=None, pagelocked=False, async_=False, stream=None, **kwargs):
        if ary is None:
            return self._array.get(stream=stream)
        if ary.shape != self.shape or ary.dtype != self.dtype:
            raise TypeError("get: ary must have the array's shape and dtype")
        return self._array.get(stream=stream, out=ary)

    def get_async(self, stream=None, ary=None):
        return self.get(ary=ary, stream=stream)

    def copy(self):
        """A copy of the same memory layout (for a contiguous or permuted array)."""
        result = _empty_in_axis_order(self.shape, self.dtype, self.strides)
        result._array[...] = self._array
        return result

    def __str__(self):
        return str(self.get())

    def __repr__(self):
        return repr(self.get())

    __hash__ = None

    def __bool__(self):
        if self.size == 1:
            return bool(self.get())
        raise ValueError("The truth value of an array with more than one element is ambiguous; use a.any() or a.all()")

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    # ---- arithmetic ------------------------------------------------------------------
    def _binary(self, other, op, reverse=False):
        other = _operand(other)
        if other is NotImplemented:
            return NotImplemented
        return _wrap(op(other, self._array) if reverse else op(self._array, other))

    def _inplace(self, other, op):
        result = op(self._array, _operand(other))
        self._array[...] = result
        return self

    def __add__(self, other): return self._binary(other, lambda a, b: a + b)  # noqa: E704
    def __radd__(self, other): return self._binary(other, lambda a, b: a + b, True)  # noqa: E704
    def __sub__(self, other): return self._binary(other, lambda a, b: a - b)  # noqa: E704
    def __rsub__(self, other): return self._binary(other, lambda a, b: a - b, True)  # noqa: E704
    def __mul__(self, other): return self._binary(other, lambda a, b: a * b)  # noqa: E704
    def __rmul__(self, other): return self._binary(other, lambda a, b: a * b, True)  # noqa: E704
    def __truediv__(self, other): return self._binary(other, lambda a, b: a / b)  # noqa: E704
    def __rtruediv__(self, other): return self._binary(other, lambda a, b: a / b, True)  # noqa: E704
    def __pow__(self, other): return self._binary(other, lambda a, b: a ** b)  # noqa: E704
    def __rpow__(self, other): return self._binary(other, lambda a, b: a ** b, True)  # noqa: E704
    def __iadd__(self, other): return self._inplace(other, lambda a, b: a + b)  # noqa: E704
    def __isub__(self, other): return self._inplace(other, lambda a, b: a - b)  # noqa: E704
    def __imul__(self, other): return self._inplace(other, lambda a, b: a * b)  # noqa: E704
    def __itruediv__(self, other): return self._inplace(other, lambda a, b: a / b)  # noqa: E704
    def __ipow__(self, other): return self._inplace(other, lambda a, b: a ** b)  # noqa: E704
    def __eq__(self, other): return self._binary(other, lambda a, b: a == b)  # noqa: E704
    def __ne__(self, other): return self._binary(other, lambda a, b: a != b)  # noqa: E704
    def __lt__(self, other): return self._binary(other, lambda a, b: a < b)  # noqa: E704
    def __le__(self, other): return self._binary(other, lambda a, b: a <= b)  # noqa: E704
    def __gt__(self, other): return self._binary(other, lambda a, b: a > b)  # noqa: E704
    def __ge__(self, other): return self._binary(other, lambda a, b: a >= b)  # noqa: E704
    __div__, __rdiv__, __idiv__ = __truediv__, __rtruediv__, __itruediv__

    def __neg__(self):
        return _wrap(-self._array)

    def __pos__(self):
        return self

    def __abs__(self):
        return _wrap(abs(self._array))

    def mul_add(self, selffac, other, otherfac, add_timer=None, stream=None, out=None):
        """selffac * self + otherfac * other."""
        return _result(selffac * self._array + otherfac * _operand(other), out)

    def fill(self, value, stream=None):
        self._array.fill(value)
        return self

    def reverse(self, stream=None):
        """The 1-D array in reverse order (a copy)."""
        if self.ndim != 1:
            raise ValueError("reverse: only 1-D arrays")
        return _wrap(self._array[::-1].copy())

    def astype(self, dtype, stream=None):
        return _wrap(self._array.astype(np.dtype(dtype).name))

    def any(self, stream=None, allocator=None):
        return _wrap(_kiln().any(self._array))

    def all(self, stream=None, allocator=None):
        return _wrap(_kiln().all(self._array))

    # ---- views ---------------------------------------------------------------------------
    def reshape(self, *shape, order="C"):
        """A view of the same memory in `shape`, read in C or Fortran order: as
        PyCUDA does, the array's contiguous memory is reinterpreted, not reordered."""
        if len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
            shape = shape[0]
        if order not in ("C", "F"):
            raise ValueError(f"order: expected 'C' or 'F', got {order!r}")
        shape = _shape(shape)
        unknown = [i for i, n in enumerate(shape) if n == -1]
        if len(unknown) > 1:
            raise ValueError("reshape: only one dimension can be -1")
        if unknown:
            known = int(np.prod([n for n in shape if n != -1], dtype=np.int64))
            if known == 0 or self.size % known:
                raise ValueError(f"reshape: cannot reshape an array of size {self.size} into {shape}")
            shape = tuple(self.size // known if n == -1 else n for n in shape)
        if int(np.prod(shape, dtype=np.int64)) != self.size:
            raise ValueError(f"reshape: cannot reshape an array of size {self.size} into {shape}")
        if order == "C" and self.flags.c_contiguous:
            return _wrap(self._array.reshape(shape), base=self)
        if not self.flags.forc:
            raise RuntimeError("only contiguous arrays may be reshaped")
        strides = _contiguous_strides(self.itemsize, shape, order)
        return _wrap(_core._wrap_memory(self.ptr, self.dtype.name, shape, strides, self, True, self.device), base=self)

    def ravel(self):
        return self.reshape(-1)

    def view(self, dtype=None):
        """The same memory as `dtype`; with another itemsize, the last axis is
        rescaled (the array must be C-contiguous), as NumPy does."""
        if dtype is None:
            return _wrap(self._array[...], base=self)
        dtype = np.dtype(dtype)
        if dtype.itemsize == self.itemsize:
            return _wrap(self._array.view(dtype.name), base=self)
        if not self.flags.c_contiguous or not self.shape or self.shape[-1] * self.itemsize % dtype.itemsize:
            raise ValueError(f"view: cannot view this array as {dtype} (a C-contiguous last axis of a "
                             f"multiple of {dtype.itemsize} bytes is needed)")
        shape = self.shape[:-1] + (self.shape[-1] * self.itemsize // dtype.itemsize,)
        strides = _contiguous_strides(dtype.itemsize, shape, "C")
        return _wrap(_core._wrap_memory(self.ptr, dtype.name, shape, strides, self, True, self.device), base=self)

    def squeeze(self):
        return _wrap(self._array.squeeze(), base=self)

    def transpose(self, axes=None):
        return _wrap(self._array.transpose(axes) if axes is not None else self._array.T, base=self)

    @property
    def T(self):  # noqa: N802
        return self.transpose()

    def __getitem__(self, index):
        result = self._array[_index(index)]
        return _wrap(result, base=self) if isinstance(result, ndarray) else result

    def __setitem__(self, index, value):
        self._array[_index(index)] = _operand(value)

    def _laid_out_like_me(self, array):
        """`array` (of this shape) copied into memory laid out as this array's."""
        result = _empty_in_axis_order(self.shape, array.dtype.name, self.strides)
        result._array[...] = array
        return result

    @property
    def real(self):
        """The real parts, a new array of this layout (self for a real array), as PyCUDA gives them."""
        return self._laid_out_like_me(self._array.real) if self.dtype.kind == "c" else self

    @property
    def imag(self):
        if self.dtype.kind == "c":
            return self._laid_out_like_me(self._array.imag)
        return self._laid_out_like_me(_kiln().zeros_like(self._array))

    def conj(self, out=None):
        if self.dtype.kind != "c":
            return self if out is None else _result(self._array, out)
        return self._laid_out_like_me(self._array.conj()) if out is None else _result(self._array.conj(), out)

    conjugate = conj

    def bind_to_texref(self, *args, **kwargs):
        raise NotImplementedError("texture references are not supported by kiln; pass arrays to kernels instead")

    bind_to_texref_ext = bind_to_texref


class _Flags:
    def __init__(self, a):
        self.c_contiguous = a._c_contiguous
        self.f_contiguous = a._f_contiguous
        self.forc = self.c_contiguous or self.f_contiguous


def _shape(shape):
    if isinstance(shape, np.ndarray):
        shape = shape.tolist()
    if isinstance(shape, numbers.Integral):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _contiguous_strides(itemsize, shape, order):
    strides, step = [], itemsize
    for n in (reversed(shape) if order == "C" else shape):
        strides.append(step)
        step *= builtins.max(n, 1)
    return tuple(reversed(strides)) if order == "C" else tuple(strides)


def _empty_in_axis_order(shape, dtype, strides):
    """A new GPUArray whose axes lie in memory in the order of `strides`
    (largest first), compactly: the layout PyCUDA's to_gpu and copy keep."""
    order = sorted(range(len(shape)), key=lambda d: -abs(strides[d]))
    inverse = [order.index(d) for d in range(len(shape))]
    compact = _kiln().empty(tuple(shape[d] for d in order), dtype=np.dtype(dtype).name, device=default_device())
    return _wrap(compact.transpose(inverse) if shape else compact)


def _wrap(array, base=None):
    if not isinstance(array, ndarray):
        array = _kiln().asarray(array, device=default_device())
    return GPUArray(None, None, _array=array, base=base)


def _operand(value):
    """A kiln array or a scalar for kiln's operations."""
    if isinstance(value, GPUArray):
        return value._array
    if isinstance(value, (ndarray, numbers.Number, np.generic)):
        return value
    if isinstance(value, np.ndarray):
        return _kiln().asarray(value, device=default_device())
    return NotImplemented


def _index(index):
    if isinstance(index, tuple):
        return tuple(_index(i) for i in index)
    return index._array if isinstance(index, GPUArray) else index


def _result(array, out):
    if out is None:
        return _wrap(array)
    out._array[...] = array
    return out


# ---- creation ---------------------------------------------------------------------------
def to_gpu(ary, allocator=driver.mem_alloc):
    """A GPUArray holding a copy of the NumPy array `ary`, of its layout."""
    ary = np.asarray(ary)
    if allocator is driver.mem_alloc:
        result = _empty_in_axis_order(ary.shape, ary.dtype, ary.strides)
        result._array[...] = _kiln().asarray(ary, device=default_device())
        return result
    result = GPUArray(ary.shape, ary.dtype, allocator, order="F" if ary.flags.f_contiguous and ary.ndim > 1 else "C")
    result.set(ary)
    return result


def to_gpu_async(ary, allocator=driver.mem_alloc, stream=None):
    return to_gpu(ary, allocator)


empty = GPUArray


def zeros(shape, dtype=np.float64, allocator=driver.mem_alloc, order="C"):
    return GPUArray(shape, dtype, allocator, order=order).fill(0)


def ones(shape, dtype=np.float64, allocator=driver.mem_alloc, order="C"):
    return GPUArray(shape, dtype, allocator, order=order).fill(1)


def _like(other, dtype, order):
    dtype = other.dtype if dtype is None else np.dtype(dtype)
    if order in ("K", "A"):
        order = "F" if other.flags.f_contiguous and not other.flags.c_contiguous else "C"
    return GPUArray(other.shape, dtype, order=order)


def empty_like(other_ary, dtype=None, order="K"):
    return _like(other_ary, dtype, order)


def zeros_like(other_ary, dtype=None, order="K"):
    return _like(other_ary, dtype, order).fill(0)


def ones_like(other_ary, dtype=None, order="K"):
    return _like(other_ary, dtype, order).fill(1)


def arange(*args, dtype=None, **kwargs):
    """``arange([start,] stop[, step], dtype=None)`` with NumPy's dtype rules."""
    start = kwargs.pop("start", None)
    stop = kwargs.pop("stop", None)
    step = kwargs.pop("step", None)
    if kwargs:
        raise TypeError(f"arange: unexpected keyword arguments {sorted(kwargs)}")
    positional = list(args) + [None] * (3 - len(args))
    if len(args) == 1:
        stop = args[0]
    else:
        start, stop, step = positional[0] if start is None else start, positional[1] if stop is None else stop, \
            positional[2] if step is None else step
    start = 0 if start is None else start
    step = 1 if step is None else step
    dtype = np.arange(start, stop, step).dtype if dtype is None else np.dtype(dtype)
    return _wrap(_kiln().arange(start, stop, step, dtype=dtype.name, device=default_device()))


# ---- gathers and joins ---------------------------------------------------------------------
def take(a, indices, out=None, stream=None):
    return _result(_kiln().take(a._array, indices._array), out)


def multi_take(arrays, indices, out=None, stream=None):
    if out is None:
        return [take(a, indices) for a in arrays]
    return [take(a, indices, out=o) for a, o in zip(arrays, out)]


def multi_put(arrays, dest_indices, dest_shape=None, out=None, stream=None):
    """out[k][dest_indices[j]] = arrays[k][j] (new zeroed arrays of dest_shape when out is None)."""
    if out is None:
        out = [zeros(dest_shape, a.dtype) for a in arrays]
    for a, o in zip(arrays, out):
        o._array[dest_indices._array] = a._array
    return out


def multi_take_put(arrays, dest_indices, src_indices, dest_shape=None, out=None, src_offsets=None, stream=None):
    """out[k][dest_indices[j]] = arrays[k][src_indices[j] + src_offsets[k]]."""
    if out is None:
        out = [zeros(dest_shape, a.dtype) for a in arrays]
    offsets = src_offsets or [0] * len(arrays)
    for a, o, offset in zip(arrays, out, offsets):
        o._array[dest_indices._array] = a._array[src_indices._array + offset]
    return out


def concatenate(arrays, axis=0, allocator=None):
    return _wrap(_kiln().concatenate([a._array for a in arrays], axis=axis))


def stack(arrays, axis=0, allocator=None):
    return _wrap(_kiln().stack([a._array for a in arrays], axis=axis))


def transpose(a, axes=None):
    return a.transpose(axes)


def reshape(a, *shape, **kwargs):
    return a.reshape(*shape, **kwargs)


# ---- elementwise choices -------------------------------------------------------------------
def if_positive(criterion, then_, else_, out=None, stream=None):
    """``then_`` where ``criterion > 0``, else ``else_``."""
    if criterion.shape != then_.shape or criterion.shape != else_.shape:
        raise ValueError("if_positive: criterion, then_ and else_ must have one shape")
    return _result(_kiln().where(criterion._array > 0, then_._array, else_._array), out)


def where(criterion, then_, else_, out=None, stream=None):
    """``then_`` where ``criterion`` is nonzero, else ``else_`` (scalars broadcast)."""
    return _result(_kiln().where(_operand(criterion) != 0, _operand(then_), _operand(else_)), out)


def maximum(a, b, out=None, stream=None):
    return _result(_kiln().maximum(_operand(a), _operand(b)), out)


def minimum(a, b, out=None, stream=None):
    return _result(_kiln().minimum(_operand(a), _operand(b)), out)


def logical_and(x1, x2, /, out=None, *, allocator=None):
    return _result(_kiln().logical_and(_operand(x1), _operand(x2)), out)


def logical_or(x1, x2, /, out=None, *, allocator=None):
    return _result(_kiln().logical_or(_operand(x1), _operand(x2)), out)


def logical_not(x, /, out=None, *, allocator=None):
    return _result(_kiln().logical_not(_operand(x)), out)


# ---- reductions: 0-d GPUArrays ---------------------------------------------------------------
def _reduced(value, allocator):
    """The 0-d kiln array `value` as a GPUArray, in memory from `allocator` when one is given."""
    if allocator is None:
        return _wrap(value)
    result = GPUArray((), np.dtype(value.dtype.name), allocator)
    result._array[...] = value
    return result


def _dtype_name(dtype):
    return None if dtype is None else np.dtype(dtype).name


def sum(a, dtype=None, stream=None, allocator=None):  # noqa: A001
    return _reduced(_kiln().sum(a._array, dtype=_dtype_name(dtype)), allocator)


def subset_sum(subset, a, dtype=None, stream=None, allocator=None):
    return _reduced(_kiln().sum(_kiln().take(a._array, subset._array), dtype=_dtype_name(dtype)), allocator)


def dot(a, b, dtype=None, stream=None, allocator=None):
    """sum(a * b) over all elements (no conjugation)."""
    return _reduced(_kiln().sum(a._array * b._array, dtype=_dtype_name(dtype)), allocator)


def subset_dot(subset, a, b, dtype=None, stream=None, allocator=None):
    picks = subset._array
    return dot(_wrap(_kiln().take(a._array, picks)), _wrap(_kiln().take(b._array, picks)), dtype, allocator=allocator)


def vdot(a, b, dtype=None, stream=None):
    """sum(conj(a) * b)."""
    return dot(a.conj(), b, dtype)


def max(a, stream=None):  # noqa: A001
    return _wrap(_kiln().max(a._array))


def min(a, stream=None):  # noqa: A001
    return _wrap(_kiln().min(a._array))


def subset_max(subset, a, stream=None):
    return max(take(a, subset))


def subset_min(subset, a, stream=None):
    return min(take(a, subset))


def any(a, stream=None, allocator=None):  # noqa: A001
    return a.any()


def all(a, stream=None, allocator=None):  # noqa: A001
    return a.all()


def splay(n, dev=None):
    """PyCUDA's (grid, block) for a flat loop over `n` elements: blocks of up to
    the device's threads, at most a few blocks a multiprocessor."""
    threads = 1 if default_device().type == "cpu" else 256
    blocks = builtins.max(1, builtins.min(-(-int(n) // threads), 32 * 132))
    return (blocks, 1), (threads, 1, 1)
