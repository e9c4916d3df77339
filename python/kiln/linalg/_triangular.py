"""Triangular solves: scipy.linalg's ``solve_triangular`` (kiln.scipy.linalg
shows it), beneath the Cholesky solves of kiln.scipy.linalg and of
cupyx.linalg's face in kiln.linalg. Forward and back substitution in blocks
whose coupling is one matrix product, on every device."""
from .. import _core
from .._ndarray.errors import linalg_error
from .._numpy.creation import arange, asarray
from .._numpy.manipulation.joining import concatenate

_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}



def _inexact(a):
    """a as SciPy's LAPACK wrappers take it: float16 as float32, integers and bool as float64."""
    a = asarray(a)
    if a.dtype.kind in "biu":
        return a.astype("float64")
    return a.astype("float32") if str(a.dtype) == "float16" else a


def _matrix(a, name="a"):
    a = _inexact(a)
    if a.ndim != 2:
        raise ValueError(f"expected a 2-D matrix for {name}, got {a.ndim} dimensions")
    return a


def _finite(check_finite, *arrays):
    """SciPy's check_finite: a ValueError for an input holding inf or NaN."""
    if check_finite and not all(bool(_core.isfinite(x).all()) for x in arrays):
        raise ValueError("array must not contain infs or NaNs")


def _transposed(a, trans):
    return a if trans == 0 else a.mT if trans == 1 else _core.conj(a.mT)


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True):
    """x with op(T) x = b for T the lower (or upper) triangle of a, its
    diagonal taken as ones with unit_diagonal; op is T, T^T or T^H for trans
    0, 1, 2 (or 'N', 'T', 'C'). A stack of matrices a (..., n, n) solves
    each with its b: (..., n) vectors, or (..., n, k) matrices."""
    a, b = _inexact(a), _inexact(b)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expected square matrix, got {a.shape}")
    _finite(check_finite, a, b)
    vector = b.ndim == a.ndim - 1
    if b.ndim == 0 or (a.ndim > 2 and not vector and b.ndim != a.ndim) or \
            b.shape[-1 if vector else -2] != a.shape[-1] or \
            (a.ndim > 2 and tuple(b.shape[:a.ndim - 2]) != tuple(a.shape[:-2])):
        raise ValueError(f"shapes of a {a.shape} and b {b.shape} are incompatible")
    if trans not in _TRANS:
        raise ValueError(f"trans must be 0, 1, 2, 'N', 'T' or 'C', got {trans!r}")
    n = a.shape[-1]
    i, j = arange(n, device=a.device)[:, None], arange(n, device=a.device)[None, :]
    keep = i >= j if lower else i <= j
    triangle = _core._where(keep, a, 0).astype(a.dtype)
    if unit_diagonal:
        triangle = _core._where(i == j, 1, triangle).astype(a.dtype)
    op = _transposed(triangle, _TRANS[trans])
    zero = (triangle[..., arange(n, device=a.device), arange(n, device=a.device)] == 0).reshape(-1, n).any(axis=0)
    if bool(zero.any()):
        first = int(arange(n, device=a.device)[zero][0])
        raise linalg_error(f"singular matrix: resolution failed at diagonal {first}")
    dtype = str(_core.result_type(op.dtype, b.dtype))
    rhs = b[..., None] if vector or b.ndim == 1 else b
    x = _substitute(op.astype(dtype), rhs.astype(dtype), lower != (_TRANS[trans] != 0))
    return x[..., 0] if vector or b.ndim == 1 else x


# Below this many unknowns a triangle is solved one unknown at a time.
_SUBSTITUTION_BLOCK = 16


def _substitute(t, b, lower):
    """x with t x = b for a (stack of) lower or upper triangular t: forward or
    back substitution, as LAPACK's trtrs, in blocks whose coupling is one
    matrix product, so that results round as SciPy's do."""
    n = t.shape[-1]
    if n > _SUBSTITUTION_BLOCK:
        h = n // 2
        if lower:
            first = _substitute(t[..., :h, :h], b[..., :h, :], True)
            second = _substitute(t[..., h:, h:], b[..., h:, :] - t[..., h:, :h] @ first, True)
        else:
            second = _substitute(t[..., h:, h:], b[..., h:, :], False)
            first = _substitute(t[..., :h, :h], b[..., :h, :] - t[..., :h, h:] @ second, False)
        return concatenate([first, second], axis=-2)
    rows = [None] * n
    for i in (range(n) if lower else range(n - 1, -1, -1)):
        known = range(i) if lower else range(i + 1, n)
        value = b[..., i:i + 1, :]
        for k in known:
            value = value - t[..., i:i + 1, k:k + 1] * rows[k]
        rows[i] = value / t[..., i:i + 1, i:i + 1]
    return concatenate(rows, axis=-2) if n else b
