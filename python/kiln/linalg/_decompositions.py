"""numpy.linalg's decompositions and what is built from them: solve, inv,
det, slogdet, cholesky, qr, eigh, eigvalsh, svd, svdvals, and from those
lstsq, pinv, matrix_rank, matrix_power. The factorizations are kiln's C++
ones (LAPACK on the CPU, cuSOLVER on the GPU)."""
import operator
from collections import namedtuple

from .. import _core
from .._numpy.math.elementwise import where
from .._numpy.creation import asarray, eye, operands
from .._numpy.manipulation.shape import broadcast_to
from .._ndarray.errors import linalg_error
from .._numpy.products import matmul

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
QRResult = namedtuple("QRResult", ["Q", "R"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])


def _conj_transpose(x):
    return _core.conj(x.mT) if x.dtype.kind == "c" else x.mT


def solve(a, b):
    """x with a @ x == b, for square a; b is (..., n, k), or (n,) for one vector."""
    return _core._solve(*operands(a, b))


def inv(a):
    return _core._inv(asarray(a))


def det(a):
    return _core._det(asarray(a))


def slogdet(a):
    """The sign and the log of the absolute value of the determinant."""
    return SlogdetResult(*_core._slogdet(asarray(a)))


def cholesky(a, /, *, upper=False):
    """The lower factor L with a = L @ L^H (upper: U with a = U^H @ U)."""
    return _core._cholesky(asarray(a), upper)


_QR_MODES = {"reduced": 0, "complete": 1, "r": 2}


def qr(a, mode="reduced"):
    """Q with orthonormal columns and upper-triangular R, a = Q @ R; mode
    "reduced" (k = min(m, n) columns of Q), "complete" (all m) or "r" (R only)."""
    if mode not in _QR_MODES:
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    q, r = _core._qr(asarray(a), _QR_MODES[mode])
    return r if mode == "r" else QRResult(q, r)


def _uplo(UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO == "U"


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors (columns) of Hermitian matrices."""
    return EighResult(*_core._eigh(asarray(a), _uplo(UPLO), True))


def eigvalsh(a, UPLO="L"):
    return _core._eigh(asarray(a), _uplo(UPLO), False)[0]


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """a = U @ diag(S) @ Vh, S descending; S alone without compute_uv."""
    u, s, vh = _core._svd(asarray(a), full_matrices, compute_uv)
    return SVDResult(u, s, vh) if compute_uv else s


def svdvals(x, /):
    return _core._svd(asarray(x), False, False)[1]


def _default_rtol(a, s):
    return max(a.shape[-2:]) * _core._finfo(s.dtype.name)[1]


def _pinv_from_svd(u, s, vh, cutoff):
    """The pseudo-inverse from a reduced SVD, and which singular values it
    kept: those above ``cutoff`` times the largest (the others count as zero)."""
    largest = _core.max(s, -1, True) if s.size else s
    keep = _core.greater(s, _core.multiply(cutoff, largest))
    inverse = where(keep, _core.divide(1, where(keep, s, 1)), 0)
    return matmul(_conj_transpose(vh) * inverse[..., None, :], _conj_transpose(u)), keep


def pinv(a, rcond=None, hermitian=False, *, rtol=None):
    """The Moore-Penrose pseudo-inverse, from the SVD: singular values at or
    below rtol times the largest count as zero."""
    a = asarray(a)
    u, s, vh = _core._svd(a, False, True)
    cutoff = rcond if rcond is not None else rtol
    if cutoff is None:
        cutoff = _default_rtol(a, s) if a.size else 0.0
    return _pinv_from_svd(u, s, vh, cutoff)[0]


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """How many singular values exceed ``tol`` (or rtol times the largest)."""
    A = asarray(A)
    if A.ndim < 2:
        return _core.sum(_core.not_equal(A, 0), None, "int64") if A.ndim else asarray(int(bool(A)))
    s = svdvals(A)
    if tol is None:
        if rtol is None:
            rtol = _default_rtol(A, s)
        tol = _core.multiply(_core.max(s, -1, True), rtol) if s.size else 0.0
    else:
        tol = asarray(tol, device=A.device)[..., None] if not isinstance(tol, (int, float)) else tol
    return _core.sum(_core.greater(s, tol), -1, "int64")


def lstsq(a, b, rcond=None):
    """The least-squares solution x of a @ x = b (minimum norm where a is
    rank-deficient), the residual sums of squares (when a has full column
    rank and more rows than columns), a's rank and singular values."""
    a, b = operands(a, b)
    if a.ndim != 2:
        raise linalg_error(f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    vector = b.ndim == 1
    b2 = b.reshape(-1, 1) if vector else b
    if b2.shape[0] != a.shape[0]:
        raise linalg_error("Incompatible dimensions")
    m, n = a.shape
    # One SVD serves the solution, the rank and the singular values.
    u, s, vh = _core._svd(a, False, True)
    inverse, kept = _pinv_from_svd(u, s, vh, _default_rtol(a, s) if rcond is None else rcond)
    x = matmul(inverse, b2)
    rank = _core.sum(kept, None, "int64")
    if m > n and int(rank) == n:
        r = _core.subtract(matmul(a, x), b2)
        residuals = _core.sum(_core.square(_core.abs(r)), 0)
    else:
        residuals = _core._empty((0,), s.dtype.name, a.device)
    if vector:
        x = x[:, 0]
    return x, residuals, rank, s


def matrix_power(a, n):
    """a multiplied by itself n times (by repeated squaring); the identity for
    n = 0, powers of the inverse for n < 0."""
    a = asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise linalg_error("Last 2 dimensions of the array must be square")
    n = operator.index(n)
    if n == 0:
        return broadcast_to(eye(a.shape[-1], dtype=a.dtype, device=a.device), a.shape).copy()
    if n < 0:
        a, n = inv(a), -n
    result = None
    square = a
    while n:
        if n & 1:
            result = square if result is None else matmul(result, square)
        n >>= 1
        if n:
            square = matmul(square, square)
    return result
