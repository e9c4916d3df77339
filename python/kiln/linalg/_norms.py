"""Vector and matrix norms: norm, vector_norm, matrix_norm and cond, from
reductions of |x| and (for the 2-norm and the nuclear norm of matrices)
singular values."""
import builtins
import math

from .. import _core
from .._numpy.math import elementwise as _elementwise
from .._numpy.creation import asarray, empty
from .._ndarray.errors import linalg_error
from .._numpy.manipulation.shape import moveaxis
from .._numpy.manipulation.rearranging import _axes
from ._decompositions import inv, svdvals


def _float_abs(x):
    """|x| in the floating dtype a norm of x has (int and bool: float64)."""
    magnitude = _core.abs(x)
    return magnitude if magnitude.dtype.kind == "f" else magnitude.astype("float64")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The array API's vector_norm over ``axis`` (all axes when None)."""
    x = asarray(x)
    axes = tuple(_axes(axis, x.ndim, "vector_norm"))
    a = _float_abs(x)
    if ord == math.inf:
        return _core.max(a, axes, keepdims) if a.size else _core.sum(a, axes, None, keepdims)
    if ord == -math.inf:
        return _core.min(a, axes, keepdims)
    if ord == 0:
        return _core.sum(_core.not_equal(a, 0), axes, a.dtype, keepdims)
    if ord == 1:
        return _core.sum(a, axes, None, keepdims)
    if ord == 2:
        return _core.sqrt(_core.sum(_core.square(a), axes, None, keepdims))
    ord = float(ord)
    return _core.power(_core.sum(_core.power(a, ord), axes, None, keepdims), 1.0 / ord)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The array API's matrix_norm of the last two axes: "fro", "nuc",
    1, -1, 2, -2, inf or -inf."""
    return _matrix_norm(asarray(x), (-2, -1), ord, keepdims)


def _matrix_norm(x, axes, ord, keepdims):
    if x.ndim < 2:
        raise ValueError("matrix_norm needs an array of at least two dimensions")
    row_axis, col_axis = (a % x.ndim for a in axes)
    if row_axis == col_axis:
        raise ValueError("Duplicate axes given.")
    if ord in ("fro", None):
        result = _core.sqrt(_core.sum(_core.square(_float_abs(x)), (row_axis, col_axis), None, False))
    elif ord in ("nuc", 2, -2):
        s = svdvals(moveaxis(x, (row_axis, col_axis), (-2, -1)))
        result = _core.sum(s, -1) if ord == "nuc" else (_core.max(s, -1) if ord == 2 else _core.min(s, -1))
    elif ord in (1, -1, math.inf, -math.inf):
        summed, across = (row_axis, col_axis) if ord in (1, -1) else (col_axis, row_axis)
        sums = _core.sum(_float_abs(x), summed, None, True)
        result = (_core.max if ord > 0 else _core.min)(sums, across, True)
        result = result.reshape(tuple(n for i, n in enumerate(result.shape) if i not in (row_axis, col_axis)))
    else:
        raise ValueError(f"Invalid norm order {ord!r} for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row_axis] = shape[col_axis] = 1
        result = result.reshape(tuple(shape))
    return result


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: a vector norm over one axis (or of a 1-D array), a
    matrix norm over two (or of a 2-D array), the 2-norm of the flattened
    array when neither ``ord`` nor ``axis`` is given."""
    x = asarray(x)
    if axis is None and ord is None:
        result = vector_norm(x.reshape(-1), ord=2)
        return result.reshape((1,) * x.ndim) if keepdims else result
    if axis is None:
        axis = tuple(builtins.range(x.ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        return vector_norm(x, axis=axes[0], keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) == 2:
        return _matrix_norm(x, axes, ord, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def _inv_or_nan(x):
    """inv of each matrix, NaN for the singular ones (NumPy's cond takes
    inverses with errors off); the batch is inverted at once unless one is."""
    try:
        return inv(x)
    except ValueError:  # NumPy's LinAlgError
        pass
    out = empty(x.shape, dtype=_core.result_type(x, 0.0), device=x.device)
    flat, rows = x.reshape((-1,) + x.shape[-2:]), out.reshape((-1,) + x.shape[-2:])
    for k in builtins.range(flat.shape[0]):
        try:
            rows[k] = inv(flat[k])
        except ValueError:  # NumPy's LinAlgError
            rows[k] = math.nan
    return out


def cond(x, p=None):
    """The condition number of matrices: the ratio of the largest to the
    smallest singular value (p None or 2), or norm(x, p) * norm(inv(x), p);
    a singular matrix's is inf, as NumPy's (NaN only where x holds NaN)."""
    x = asarray(x)
    if x.ndim >= 2 and math.prod(x.shape[-2:]) == 0:
        raise linalg_error("cond is not defined on empty arrays")
    if p in (None, 2, -2):
        s = svdvals(x)
        big, small = _core.max(s, -1), _core.min(s, -1)
        r = _elementwise.divide(small, big) if p == -2 else _elementwise.divide(big, small)
    else:
        r = _core.multiply(norm(x, p, (-2, -1)), norm(_inv_or_nan(x), p, (-2, -1)))
    undefined = _core.logical_and(_core.isnan(r), _core.logical_not(_core.any(_core.isnan(x), (-2, -1))))
    return _elementwise.where(undefined, math.inf, r)
