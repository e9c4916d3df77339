"""Views with strides of one's choosing: as_strided and sliding_window_view."""
import operator

from .. import _core
from .._core import ndarray
from .._numpy.creation import asarray


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of ``x``'s memory with the given shape and byte strides (nothing is checked: as NumPy's)."""
    x = x if isinstance(x, ndarray) else asarray(x)
    shape = x.shape if shape is None else tuple(operator.index(n) for n in shape)
    strides = x.strides if strides is None else tuple(operator.index(s) for s in strides)
    return _core._wrap_memory(x._data_ptr, x.dtype, shape, strides, x, bool(writeable and x._writeable), x.device)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of ``window_shape`` over ``axis`` (all axes when None), as a read-only view."""
    x = x if isinstance(x, ndarray) else asarray(x)
    window_shape = (operator.index(window_shape),) if not hasattr(window_shape, "__len__") else tuple(
        operator.index(w) for w in window_shape)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        if len(window_shape) != x.ndim:
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(window_shape)} window_shape elements and `x.ndim` is {x.ndim}.")
        axis = tuple(range(x.ndim))
    else:
        axis = (axis,) if not hasattr(axis, "__len__") else tuple(axis)
        if len(window_shape) != len(axis):
            raise ValueError("Must provide matching length window_shape and axis")
    axis = tuple(a % x.ndim for a in axis)
    shape = list(x.shape)
    for a, w in zip(axis, window_shape):
        if shape[a] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[a] = shape[a] - w + 1
    out_shape = tuple(shape) + window_shape
    out_strides = x.strides + tuple(x.strides[a] for a in axis)
    return as_strided(x, out_shape, out_strides, writeable=writeable)
