"""NumPy's index helpers: r_, c_, s_, index_exp, mgrid, ogrid, ix_, indices,
unravel_index, ravel_multi_index, diag/tril/triu/mask indices,
fill_diagonal, ndindex and ndenumerate."""
import builtins
import itertools
import math
import operator

from ... import _core
from ..._core import ndarray
from ..creation import arange, asarray, empty, linspace
from ..._ndarray.dtypes import normalize
from .gathering import indices_in_range


class _IndexExpression:
    """``s_[...]`` and ``index_exp[...]``: the index itself (a tuple for index_exp)."""

    def __init__(self, maketuple):
        self._maketuple = maketuple

    def __getitem__(self, item):
        if self._maketuple and not isinstance(item, tuple):
            return (item,)
        return item


s_ = _IndexExpression(maketuple=False)
index_exp = _IndexExpression(maketuple=True)


def _slice_values(key):
    """The values of ``start:stop:step`` (a complex step is a number of points)."""
    start = 0 if key.start is None else key.start
    step = 1 if key.step is None else key.step
    if isinstance(step, complex):
        return linspace(start, key.stop, builtins.int(abs(step)))
    return arange(start, key.stop, step)


class _GridClass:
    """``mgrid[...]`` (dense) and ``ogrid[...]`` (open): coordinate arrays from slices."""

    def __init__(self, sparse):
        self._sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return _slice_values(key)
        axes = [_slice_values(k) for k in key]
        dtype = _core.result_type(*[a.dtype for a in axes]) if axes else normalize("float64")
        if any(isinstance(k.step, complex) or any(isinstance(v, float) for v in (k.start, k.stop, k.step))
               for k in key):
            dtype = _core.result_type(dtype, "float64")
        axes = [a.astype(dtype, copy=False) for a in axes]
        from ..manipulation.rearranging import meshgrid

        grids = meshgrid(*axes, indexing="ij", sparse=self._sparse)
        if self._sparse:
            return tuple(grids)
        from ..manipulation.joining import stack

        return stack(grids)


mgrid = _GridClass(sparse=False)
ogrid = _GridClass(sparse=True)


class _Concatenator:
    """``r_[...]`` and ``c_[...]``: arrays, scalars and slices joined along an
    axis; a leading string "axis[,ndmin[,trans1d]]" sets the axis, the
    minimum number of dimensions, and where the axes of a piece with fewer
    go (NumPy's rules)."""

    def __init__(self, axis, ndmin, transpose_1d):
        self._axis, self._ndmin, self._transpose_1d = axis, ndmin, transpose_1d

    def __getitem__(self, key):
        from ..creation import array
        from ..manipulation.joining import concatenate

        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self._axis, self._ndmin, self._transpose_1d
        pieces, weak = [], []
        # Sequences and scalars go where the kiln arrays among the pieces are.
        device = next((item.device for item in key if isinstance(item, ndarray)), None)
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("r_/c_: a string is only allowed first")
                if item in ("r", "c"):
                    raise ValueError("r_/c_: matrix output ('r', 'c') is not supported: kiln has no matrix type")
                fields = [int(f) for f in item.split(",")]
                axis, ndmin, trans1d = (fields + [ndmin, trans1d][len(fields) - 1:])[:3]
                continue
            if isinstance(item, slice):
                piece = array(_slice_values(item), ndmin=ndmin, device=device)
            else:
                if not isinstance(item, ndarray) and not hasattr(item, "__len__"):
                    weak.append(item)
                piece = array(item, copy=None, ndmin=ndmin, device=device)
                original = asarray(item).ndim
                if trans1d != -1 and original < ndmin:
                    k2 = ndmin - original
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    axes = list(range(ndmin))
                    piece = piece.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
            pieces.append(piece)
        if not pieces:
            return empty((0,))
        strong = [p for p, item in zip(pieces, [i for i in key if not isinstance(i, str)])
                  if not any(item is w for w in weak)]
        dtype = _core.result_type(*(strong or pieces), *weak) if strong else _core.result_type(*pieces)
        return concatenate([p.astype(dtype, copy=False) for p in pieces], axis=axis)

    def __len__(self):
        return 0


r_ = _Concatenator(axis=0, ndmin=1, transpose_1d=-1)
c_ = _Concatenator(axis=-1, ndmin=2, transpose_1d=0)


def ix_(*args):
    """Open meshes from 1-D sequences, for cross-product indexing."""
    out = []
    nd = len(args)
    for k, seq in enumerate(args):
        a = asarray(seq)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.size == 0 and a.dtype.kind == "f":
            a = a.astype("int64")
        if a.dtype.kind == "b":
            a = _core_nonzero(a)
        out.append(a.reshape((1,) * k + (a.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _core_nonzero(a):
    from .nonzero import nonzero

    return nonzero(a)[0]


def indices(dimensions, dtype=int, sparse=False):
    """The index grid of an array of shape ``dimensions``: one array per axis
    (stacked into one array unless ``sparse``)."""
    dimensions = tuple(operator.index(d) for d in dimensions)
    nd = len(dimensions)
    grids = []
    for k, n in enumerate(dimensions):
        idx = arange(n, dtype=dtype).reshape((1,) * k + (n,) + (1,) * (nd - k - 1))
        grids.append(idx if sparse else _broadcast(idx, dimensions))
    if sparse:
        return tuple(grids)
    from ..manipulation.joining import stack

    return stack(grids) if grids else empty((0,), dtype=dtype)


def _broadcast(a, shape):
    from ..manipulation.shape import broadcast_to

    return broadcast_to(a, shape).copy()


def unravel_index(indices, shape, order="C"):
    """The coordinates, one array per axis, of flat indices into ``shape``."""
    if order not in ("C", "F"):
        raise ValueError("order: must be 'C' or 'F'")
    shape = (operator.index(shape),) if not hasattr(shape, "__len__") else tuple(operator.index(n) for n in shape)
    idx = asarray(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    size = math.prod(shape)
    if idx.size and (builtins.bool(_core.any(idx < 0)) or builtins.bool(_core.any(idx >= size))):
        raise ValueError(f"index out of bounds for an array of size {size}")
    idx = idx.astype("int64")
    out = []
    for n in (reversed(shape) if order == "C" else shape):
        out.append(idx % n if n else idx)
        idx = idx // n if n else idx
    return tuple(reversed(out)) if order == "C" else tuple(out)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """The flat indices of coordinates (one array per axis) into ``dims``;
    ``mode`` 'raise', 'wrap' or 'clip' (or one per axis) for those outside."""
    dims = tuple(operator.index(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError("parameter multi_index must be a sequence of length " + str(len(dims)))
    modes = [mode] * len(dims) if isinstance(mode, str) else list(mode)
    coords = []
    for c, n, m in zip(multi_index, dims, modes):
        c = asarray(c)
        if c.dtype.kind not in "iu":
            raise TypeError("only int indices permitted")
        coords.append(indices_in_range(c.astype("int64"), n, m, "invalid entry in coordinates array"))
    order_dims = list(range(len(dims)))[::-1] if order == "C" else list(range(len(dims)))
    flat, stride = None, 1
    for k in order_dims:
        term = coords[k] * stride
        flat = term if flat is None else flat + term
        stride *= dims[k]
    return flat


def diag_indices(n, ndim=2):
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def tril_indices(n, k=0, m=None):
    from .nonzero import nonzero
    from ..manipulation.rearranging import tri_mask

    return nonzero(tri_mask(n, m, k, lower=True))


def triu_indices(n, k=0, m=None):
    from .nonzero import nonzero
    from ..manipulation.rearranging import tri_mask

    return nonzero(tri_mask(n, m, k, lower=False))


def tril_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def mask_indices(n, mask_func, k=0):
    from .nonzero import nonzero

    from ..creation import ones

    return nonzero(mask_func(ones((n, n), dtype="int64"), k) != 0)


def fill_diagonal(a, val, wrap=False):
    """Write ``val`` (repeated as needed) on the main diagonal of ``a``, in place."""
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + sum(math.prod(a.shape[k + 1:]) for k in range(a.ndim - 1))
        end = None
    flat_positions = arange(a.size)[:end:step]
    values = asarray(val, device=a.device).reshape(-1)
    if values.size == 0:
        return
    from ..manipulation.rearranging import resize_flat

    values = resize_flat(values, flat_positions.size)
    a.flat[flat_positions] = values


class ndindex:
    """The index tuples of an array of the given shape, in row-major order."""

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        self._iterator = itertools.product(*(range(operator.index(n)) for n in shape))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._iterator)


class ndenumerate:
    """(index tuple, value) of each element, in row-major order (values read on the host)."""

    def __init__(self, arr):
        self._values = asarray(arr).get()
        self._indices = ndindex(self._values.shape)

    def __iter__(self):
        return self

    def __next__(self):
        index = next(self._indices)
        return index, self._values[index]



def fromfunction(function, shape, *, dtype=float, **kwargs):
    """``function(*indices(shape))``: an array from a function of the coordinates."""
    return function(*indices(shape, dtype=dtype), **kwargs)
