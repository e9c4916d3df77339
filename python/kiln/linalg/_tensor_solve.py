"""tensorsolve and tensorinv: the tensor equations reshaped to matrix ones
and solved by kiln's solve and inv (on the array's device)."""
import math

from .._numpy.creation import asarray
from ._decompositions import inv, solve


def tensorsolve(a, b, axes=None):
    """``x`` with ``tensordot(a, x, x.ndim) == b``."""
    a, b = asarray(a), asarray(b, device=asarray(a).device)
    if axes is not None:
        order = [k for k in range(a.ndim) if k not in axes] + list(axes)
        a = a.transpose(order)
    x_shape = a.shape[b.ndim:]
    rows = math.prod(a.shape[:b.ndim])
    cols = math.prod(x_shape)
    if rows != cols:
        raise ValueError("tensorsolve: the leading dimensions of a must multiply to the trailing ones")
    return solve(a.reshape(rows, cols), b.reshape(rows)).reshape(x_shape)


def tensorinv(a, ind=2):
    """The inverse of ``a`` with respect to ``tensordot`` over its first ``ind`` axes."""
    a = asarray(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    outer = a.shape[:ind]
    inner = a.shape[ind:]
    rows, cols = math.prod(outer), math.prod(inner)
    if rows != cols:
        raise ValueError("tensorinv: the first ind dimensions must multiply to the others")
    return inv(a.reshape(rows, cols)).reshape(inner + outer)
