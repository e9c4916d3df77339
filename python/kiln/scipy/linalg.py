"""kiln.scipy.linalg: scipy.linalg's functions for code ported from
``cupyx.scipy.linalg``, on every device.

lu_factor is LAPACK's getrf (cuSOLVER's on the GPU) through kiln's
decompositions; lu, lu_solve and solve_triangular build on it and on
kiln.linalg.solve; expm is Higham's scaling and squaring with the degree-13
Pade approximant; the special matrices are gathers from their defining
vectors. ``check_finite`` refuses infinities and NaNs with SciPy's
ValueError; ``overwrite_*`` are accepted and change nothing (kiln never
overwrites its inputs)."""
import math

from .. import _core, asnumpy
from .._numpy.creation import arange, asarray, eye, zeros
from .._numpy.manipulation.shape import broadcast_to
from .._numpy.statistics.reductions import max as _max
from ..linalg import LinAlgError, norm, solve
from ..linalg._triangular import _finite, _inexact, _matrix, solve_triangular  # noqa: F401
from ._host_arrays import on_one_device

def lu_factor(a, overwrite_a=False, check_finite=True):
    """(lu, piv): U on and above the diagonal, L's multipliers below it, and
    the 0-based row interchanges (row i was swapped with row piv[i])."""
    a = _matrix(a)
    _finite(check_finite, a)
    lu, pivots = _core._lu_factor(a)
    return lu, (pivots - 1).astype("int32")


def _row_order(piv, m):
    """The rows of A in the order P A = L U takes them, from the interchanges."""
    import numpy as np

    rows = np.arange(m)
    for i, row in enumerate(asnumpy(piv)):
        rows[i], rows[row] = rows[row], rows[i]
    return rows


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """A = P L U with L (m x k) unit lower triangular and U (k x n) upper
    triangular, k = min(m, n); (P L, U) with permute_l; P as row indices
    with p_indices."""
    a = _matrix(a)
    _finite(check_finite, a)
    m, n = a.shape
    k = min(m, n)
    factors, piv = lu_factor(a)
    rows_m, cols_k = arange(m, device=a.device)[:, None], arange(k, device=a.device)[None, :]
    lower = (_core._where(rows_m > cols_k, factors[:, :k], 0) + eye(m, k, dtype=factors.dtype, device=a.device)).astype(factors.dtype)
    upper = _core._where(arange(k, device=a.device)[:, None] <= arange(n, device=a.device)[None, :], factors[:k, :], 0).astype(factors.dtype)
    rows = asarray(_row_order(piv, m), device=a.device)
    if permute_l:
        placed = zeros((m, k), dtype=a.dtype, device=a.device)
        placed[rows] = lower
        return placed, upper
    if p_indices:
        inverse = zeros(m, dtype="int32", device=a.device)
        inverse[rows] = arange(m, dtype="int32", device=a.device)
        return inverse, lower, upper
    real = {"complex64": "float32", "complex128": "float64"}.get(str(lower.dtype), lower.dtype)
    permutation = zeros((m, m), dtype=real, device=a.device)
    permutation[rows, arange(m, device=a.device)] = 1
    return permutation, lower, upper


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """The Cholesky factor of the Hermitian positive-definite a: upper
    triangular U with a = U^H U, or lower L with a = L L^H (zeros in the
    other triangle)."""
    from ..linalg import cholesky as factor

    a = _matrix(a)
    _finite(check_finite, a)
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"expected square matrix, got {a.shape}")
    return factor(a, upper=not lower)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """(c, lower): the factor of cholesky in c's `lower` (or upper) triangle,
    zeros in the other (where SciPy leaves unspecified data), for cho_solve."""
    return cholesky(a, lower=lower, check_finite=check_finite), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """x with A x = b from cho_factor's (c, lower) of A: two triangular
    solves, L y = b then L^H x = y (U^H y = b then U x = y)."""
    c, lower = c_and_lower
    c, b = _matrix(c, "c"), _inexact(b)
    _finite(check_finite, c, b)
    if c.shape[0] != c.shape[1] or b.ndim == 0 or b.shape[0] != c.shape[0]:
        raise ValueError(f"shapes of c {c.shape} and b {b.shape} are incompatible")
    y = solve_triangular(c, b, trans=0 if lower else 2, lower=lower, check_finite=False)
    return solve_triangular(c, y, trans=2 if lower else 0, lower=lower, check_finite=False)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """x with op(A) x = b from lu_factor's (lu, piv) of A; op is A, A^T or
    A^H for trans 0, 1, 2."""
    factors, piv = lu_and_piv
    factors, b = _matrix(factors, "lu"), _inexact(b)
    _finite(check_finite, factors, b)
    n = factors.shape[0]
    if factors.shape[1] != n or b.ndim == 0 or b.shape[0] != n:
        raise ValueError(f"shapes of lu {factors.shape} and b {b.shape} are incompatible")
    if trans not in (0, 1, 2) or isinstance(trans, bool):  # SciPy's lu_solve takes the numbers only
        raise ValueError(f"trans must be 0, 1 or 2, got {trans!r}")
    rows = asarray(_row_order(piv, n), device=factors.device)
    if trans == 0:  # L U x = b[rows]
        y = solve_triangular(factors, b[rows], lower=True, unit_diagonal=True)
        return solve_triangular(factors, y)
    # A^T = U^T L^T P: U^T L^T x[rows] = b
    z = solve_triangular(factors, b, trans=trans)
    w = solve_triangular(factors, z, trans=trans, lower=True, unit_diagonal=True)
    x = zeros(w.shape, dtype=w.dtype, device=w.device)
    x[rows] = w
    return x


# Higham (2005): the degree-13 Pade approximant's coefficients and the
# 1-norm up to which it is accurate to double precision.
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0,
           960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def expm(A):
    """The matrix exponential of each square matrix of A: scaled by 2^-s
    until its 1-norm is below theta_13, the Pade approximant, then squared s
    times."""
    a = _inexact(A)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expected a square matrix or a stack of them, got shape {a.shape}")
    n = a.shape[-1]
    if a.size == 0:
        return a.copy()
    one_norm = float(_max(norm(a, 1, axis=(-2, -1)))) if a.ndim > 2 else float(norm(a, 1))
    s = max(0, math.ceil(math.log2(one_norm / _THETA13))) if one_norm > 0 else 0
    a = a / (2.0 ** s)
    b = _PADE13
    identity = broadcast_to(eye(n, dtype=a.dtype, device=a.device), a.shape)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * identity)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * identity
    result = solve(v - u, v + u)
    for _ in range(s):
        result = result @ result
    return result


# ---- special matrices --------------------------------------------------------


def _vector(x):
    x = asarray(x)
    return x.ravel() if x.ndim != 1 else x


def _gather(values, index):
    """values[index] for an index pattern built on the host (NumPy), on values' device."""
    return values[asarray(index, device=values.device)]


def toeplitz(c, r=None):
    """The matrix with first column c and first row r (c conjugated, as r, when r is None)."""
    import numpy as np

    c = _vector(c)
    r = _core.conj(c) if r is None else _vector(r)
    values = _concatenate(c[::-1], r[1:])
    m, n = c.shape[0], r.shape[0]
    index = (m - 1) - np.arange(m)[:, None] + np.arange(n)[None, :]
    return _gather(values, index)


def hankel(c, r=None):
    """The matrix with first column c and last row r (zeros when r is None)."""
    import numpy as np

    c = _vector(c)
    r = zeros(c.shape[0], dtype=c.dtype, device=c.device) if r is None else _vector(r)
    values = _concatenate(c, r[1:])
    m, n = c.shape[0], r.shape[0]
    return _gather(values, np.arange(m)[:, None] + np.arange(n)[None, :])


def circulant(c):
    """The matrix whose columns are c rotated down by their index."""
    import numpy as np

    c = _vector(c)
    n = c.shape[0]
    return _gather(c, (np.arange(n)[:, None] - np.arange(n)[None, :]) % n)


def _concatenate(x, y):
    from .._numpy.manipulation.joining import concatenate

    return concatenate([x, y.astype(_core.result_type(x, y))]) if x.dtype != y.dtype else concatenate([x, y])


def block_diag(*arrs):
    """The arrays (scalars, vectors as rows, matrices) along the diagonal of one matrix."""
    if not arrs:
        return zeros((1, 0))
    blocks = [asarray(a) for a in arrs]
    blocks = [b.reshape(1, -1) if b.ndim < 2 else b for b in blocks]
    if any(b.ndim > 2 for b in blocks):
        raise ValueError("arguments in the following positions have dimension greater than 2: "
                         f"{[i for i, b in enumerate(blocks) if b.ndim > 2]}")
    dtype = _core.result_type(*blocks)
    out = zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)), dtype=dtype,
                device=blocks[0].device)
    row = col = 0
    for b in blocks:
        out[row:row + b.shape[0], col:col + b.shape[1]] = b
        row, col = row + b.shape[0], col + b.shape[1]
    return out


def companion(a):
    """The companion matrix of the polynomial with coefficients a (highest first)."""
    a = _vector(a)
    if a.shape[0] < 2:
        raise ValueError("The length of `a` must be at least 2.")
    if float(a[0]) == 0:
        raise ValueError("The first coefficient in `a` must not be zero.")
    first_row = -a[1:] / (1.0 * a[0])
    n = a.shape[0]
    out = zeros((n - 1, n - 1), dtype=first_row.dtype, device=a.device)
    out[0] = first_row
    if n > 2:
        index = arange(n - 2, device=a.device)
        out[index + 1, index] = 1
    return out


def leslie(f, s):
    """The Leslie matrix of fecundities f and survival rates s (len(s) = len(f) - 1)."""
    f, s = _vector(f), _vector(s)
    if f.shape[0] < 1:
        raise ValueError("Incorrect shape for f.  f must have at least one element.")
    if f.shape[0] != s.shape[0] + 1:
        raise ValueError("Incorrect lengths for f and s.  The length of s must be one less than the length of f.")
    dtype = _core.result_type(f, s, 1.0)
    n = f.shape[0]
    out = zeros((n, n), dtype=dtype, device=f.device)
    out[0] = f
    if n > 1:
        index = arange(n - 1, device=f.device)
        out[index + 1, index] = s
    return out


def hilbert(n):
    """The n x n Hilbert matrix, 1 / (i + j + 1)."""
    i = arange(n, dtype="float64")
    return 1.0 / (i[:, None] + i[None, :] + 1)


def hadamard(n, dtype=int):
    """The n x n Hadamard matrix (Sylvester's construction; n a power of 2)."""
    import numpy as np

    if n < 1:
        lg2 = 0
    else:
        lg2 = int(math.log(n, 2))
    if 2 ** lg2 != n:
        raise ValueError("n must be an positive integer, and n must be a power of 2")
    h = np.array([[1]], dtype=dtype)
    for _ in range(lg2):
        h = np.vstack((np.hstack((h, h)), np.hstack((h, -h))))
    return asarray(h)


def helmert(n, full=False):
    """The Helmert matrix of order n (its first row dropped unless full)."""
    import numpy as np

    h = np.tril(np.ones((n, n)), -1) - np.diag(np.arange(n))
    d = np.arange(n) * np.arange(1, n + 1)
    h[0] = 1
    d[0] = n
    h = h / np.sqrt(d)[:, np.newaxis]
    return asarray(h if full else h[1:])


def dft(n, scale=None):
    """The n x n discrete Fourier transform matrix, scaled by 1/n ('n') or 1/sqrt(n) ('sqrtn')."""
    if scale not in (None, "sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; {scale!r} is not valid.")
    k = arange(n, dtype="float64")
    m = _core.exp((k[:, None] * k[None, :]) * (-2j * math.pi / n)) if n else zeros((0, 0), dtype="complex128")
    if scale == "sqrtn":
        m = m / math.sqrt(n)
    elif scale == "n":
        m = m / n
    return m


def bandwidth(a):
    """(lower, upper): how far below and above the diagonal the nonzero
    entries of a 2-D array reach (0 for a diagonal or empty matrix)."""
    a = asarray(a)
    if a.ndim != 2:
        raise LinAlgError(f"bandwidth: input array must be 2-D, got {a.ndim} dimensions")
    if a.dtype.kind == "c":
        raise TypeError(f"bandwidth: {a.dtype} is not supported (SciPy's real and integer types only)")
    if a.size == 0:
        return 0, 0
    rows, cols = a.nonzero()
    offsets = cols - rows
    if offsets.size == 0:
        return 0, 0
    return max(0, -int(offsets.min())), max(0, int(offsets.max()))


def khatri_rao(a, b):
    """The column-wise Kronecker product of two 2-D arrays with the same
    number of columns: column j is kron(a[:, j], b[:, j])."""
    a, b = on_one_device((a, b))
    if a.ndim != 2 or b.ndim != 2:
        raise LinAlgError("khatri_rao: the both arrays should be 2-dimensional")
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"khatri_rao: the number of columns must match, got {a.shape[1]} and {b.shape[1]}")
    return (a[:, None, :] * b[None, :, :]).reshape(-1, a.shape[1])


__all__ = ["LinAlgError", "bandwidth", "block_diag", "cho_factor", "cho_solve", "cholesky", "circulant", "companion",
           "dft", "expm", "hadamard", "hankel", "helmert", "hilbert", "khatri_rao", "leslie", "lu", "lu_factor",
           "lu_solve", "solve_triangular", "toeplitz"]
