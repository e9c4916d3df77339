"""Shape manipulation: views where NumPy gives views."""
import builtins
import operator

from ... import _core
from ..creation import asarray
from ..._ndarray.dtypes import normalize


def reshape(x, /, shape, *, copy=None):
    """``x`` with a new shape (one dimension may be -1); a view when the layout allows."""
    x = asarray(x)
    out = x._reshape(shape)
    if copy and out._shares_memory_buffer(x):
        return out.copy()
    if copy is False and not out._shares_memory_buffer(x):
        raise ValueError("reshape: copy=False but this reshape needs a copy")
    return out


def permute_dims(x, /, axes):
    return asarray(x)._permute_dims(axes)


def transpose(a, axes=None):
    """NumPy's transpose: axes reversed, or permuted as ``axes`` says."""
    a = asarray(a)
    return a.T if axes is None else a._permute_dims(axes)


def matrix_transpose(x, /):
    return asarray(x).mT


def swapaxes(a, axis1, axis2):
    return asarray(a)._swapaxes(operator.index(axis1), operator.index(axis2))


def moveaxis(x, source, destination, /):
    """Move axes to new positions; the others keep their order."""
    x = asarray(x)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination must have the same number of axes")
    nd = x.ndim
    src = [s + nd if s < 0 else s for s in src]
    dst = [d + nd if d < 0 else d for d in dst]
    order = [a for a in range(nd) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x._permute_dims(order)


def broadcast_to(x, /, shape):
    return asarray(x)._broadcast_to(shape)


def broadcast_shapes(*shapes):
    out = ()
    for s in shapes:
        out = _core._broadcast_shapes(out, s)
    return out


def broadcast_arrays(*arrays):
    arrays = [asarray(a) for a in arrays]
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return [a._broadcast_to(shape) for a in arrays]


def squeeze(x, /, axis=None):
    return asarray(x)._squeeze(axis)


def expand_dims(x, /, axis=0):
    return asarray(x)._expand_dims(axis)


def ravel(a):
    return asarray(a).ravel()


def astype(x, dtype, /, *, copy=True, device=None):
    """Array API astype: ``x`` converted to ``dtype`` (and ``device``)."""
    x = asarray(x)
    out = x if device is None else asarray(x, device=device)
    return out._astype(normalize(dtype), builtins.bool(copy) and out is x)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """A view of the diagonal ``offset`` of the matrices spanned by ``axis1`` and ``axis2`` (NumPy's diagonal)."""
    return asarray(a).diagonal(offset, axis1, axis2)
