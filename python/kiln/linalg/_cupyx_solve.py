"""cupyx.linalg's solves (``cupyx`` is ``kiln``, so they are kiln.linalg's
too): ``invh``, the inverse of a Hermitian positive-definite matrix, and
``cho_solve``, batched over stacks of Cholesky factors, checking only the
triangle the factor is in, as CuPy's does (SciPy's cho_solve is
kiln.scipy.linalg's)."""
from .. import _core
from .._numpy.creation import arange, asarray, eye
from ._decompositions import cholesky
from ._triangular import solve_triangular


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """x with A x = b from the Cholesky factor c of A (a stack of them too):
    L y = b then L^H x = y for a lower factor, U^H y = b then U x = y for an
    upper one. ``check_finite``: a ValueError where the factor's triangle or
    b holds inf or NaN (the other triangle is not read)."""
    c, lower = c_and_lower
    c, b = asarray(c), asarray(b)
    if check_finite:
        n = c.shape[-1]
        i, j = arange(n, device=c.device)[:, None], arange(n, device=c.device)[None, :]
        used = _core._where(i > j if lower else i < j, c, 0)
        if not (bool(_core.isfinite(used).all()) and bool(_core.isfinite(b).all())):
            raise ValueError("Input array contains NaN or infinity.")
    y = solve_triangular(c, b, trans=0 if lower else 2, lower=lower, check_finite=False)
    return solve_triangular(c, y, trans=2 if lower else 0, lower=lower, check_finite=False)


def invh(a):
    """The inverse of a real symmetric or complex Hermitian positive-definite
    matrix, through its Cholesky factor (LinAlgError where it has none)."""
    a = asarray(a)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"a: invh takes a square 2-D matrix, got shape {a.shape}")
    return cho_solve((cholesky(a), True), eye(a.shape[0], dtype=a.dtype, device=a.device))
