"""A few eigenpairs of a large Hermitian operator, and a few singular
triplets of any: kiln.scipy.sparse.linalg's eigsh and svds, on every device.

eigsh is the thick-restart Lanczos method (Wu and Simon, "Thick-restart
Lanczos method for large symmetric eigenvalue problems", SIAM J. Matrix
Anal. Appl. 22, 2000): ncv Lanczos vectors, fully reorthogonalised (twice,
which keeps them orthogonal to working precision), on the operator's
device; the small projected matrix (tridiagonal, with an arrow where the
kept Ritz vectors couple to the rest after a restart) is solved on the
host. A restart keeps the wanted Ritz vectors (and about half as many
more) and the residual, until
every wanted pair's residual estimate |beta s_last| is within tol of its
Ritz value (ARPACK's test) or maxiter operator products are spent. svds is
eigsh of A^H A (or A A^H, the smaller), whose eigenvalues are the squares of
A's singular values."""
import math
import operator as _operator

from ..._numpy.creation import asarray, zeros

_FLOATING = ("float32", "float64", "complex64", "complex128")


def _np():
    import numpy

    return numpy


def _floating_dtype(dtype, name):
    dtype = str(dtype)
    if dtype not in _FLOATING:
        raise TypeError(f"{name}: dtype {dtype} is not supported (float32, float64, complex64 or complex128)")
    return dtype


def _orthogonalised(w, basis):
    """w with its components along the rows of `basis` (orthonormal) taken
    out, twice (classical Gram-Schmidt repeated: orthogonal to working precision)."""
    from ..._numpy.math.elementwise import conj

    for _ in range(2):
        w = w - (conj(basis) @ w) @ basis
    return w


def _unit_random(n, dtype, device, basis, seed):
    """A random unit vector orthogonal to the rows of basis (None: any)."""
    from ..._numpy.math.elementwise import sqrt
    from ..._numpy.products import vdot

    rng = _np().random.default_rng(seed)
    values = rng.standard_normal(n)
    if dtype.startswith("complex"):
        values = values + 1j * rng.standard_normal(n)
    w = asarray(values.astype(dtype), device=device)
    if basis is not None:
        w = _orthogonalised(w, basis)
    return w / sqrt(abs(vdot(w, w)))


def _place_next(V, row, w, norm, negligible, seed):
    """V[row] = w / norm; or, where norm is negligible (the Krylov space
    found so far is invariant), a random unit vector orthogonal to the rows
    before. Whether w was placed (else its coupling to them is zero)."""
    if negligible:
        V[row] = _unit_random(V.shape[1], str(V.dtype), V.device, V[:row], seed)
        return False
    V[row] = w * (1.0 / norm)
    return True


def _choose(theta, k, which):
    """The indices of the k wanted Ritz values."""
    np = _np()
    if which == "LM":
        order = np.argsort(-np.abs(theta), kind="stable")
    elif which == "LA":
        order = np.argsort(-theta, kind="stable")
    else:
        order = np.argsort(theta, kind="stable")
    return np.sort(order[:k])


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0, return_eigenvectors=True,
          Minv=None, OPinv=None, mode="normal"):
    """k eigenvalues (and eigenvectors) of the Hermitian operator A: the
    largest in magnitude ('LM'), the largest ('LA') or the smallest ('SA'),
    in ascending order, as SciPy returns them; the eigenvectors as the
    columns of an (n, k) array on A's device."""
    from ..._numpy.math.elementwise import sqrt
    from ..._numpy.products import vdot
    from ._interface import aslinearoperator

    np = _np()
    for name, value in (("M", M), ("sigma", sigma), ("Minv", Minv), ("OPinv", OPinv)):
        if value is not None:
            raise NotImplementedError(f"eigsh: {name} (generalised and shift-invert problems) is not supported")
    if mode != "normal":
        raise NotImplementedError(f"eigsh: mode {mode!r} is not supported (only 'normal')")
    if len(getattr(A, "shape", ())) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"eigsh: A must be a square matrix (has shape {getattr(A, 'shape', None)})")
    dtype = _floating_dtype(A.dtype, "eigsh")
    op = aslinearoperator(A)
    n = op.shape[0]
    k = _operator.index(k)
    if not 0 < k < n:
        raise ValueError(f"eigsh: k must be greater than 0 and smaller than n = {n} (is {k})")
    if which not in ("LM", "LA", "SA"):
        raise ValueError(f"eigsh: which must be 'LM', 'LA' or 'SA' (is {which!r})")
    ncv = min(max(2 * k, k + 32), n) if ncv is None else min(max(_operator.index(ncv), k + 2), n)
    maxiter = 10 * n if maxiter is None else _operator.index(maxiter)
    eps = float(np.finfo(dtype).eps)
    tol = eps if tol == 0 else float(tol)
    small = eps ** (2.0 / 3.0)  # ARPACK's floor on |theta| in the convergence test
    if v0 is None:  # on the device where the operator's products run (the default one if unknown)
        start = _unit_random(n, dtype, op._device, None, seed=0)
    else:
        start = asarray(v0).reshape(-1).astype(dtype)
        start = start / sqrt(abs(vdot(start, start)))
    V = zeros((ncv, n), dtype=dtype, device=start.device)
    V[0] = start
    T = np.zeros((ncv, ncv))  # the projected matrix, real for a Hermitian A
    kept = 0  # Ritz vectors kept at the front of V by the last restart
    steps = 0
    while True:
        # Lanczos from row `kept` to the end of V; T's arrow (rows and
        # columns < kept) was set by the restart.
        residual, norm_estimate = None, float(np.abs(T).max()) if kept else 0.0
        for i in range(kept, ncv):
            w = asarray(op.matvec(V[i])).reshape(-1).astype(dtype)
            steps += 1
            T[i, i] = float(vdot(V[i], w).real)
            w = _orthogonalised(w, V[:i + 1])
            b = math.sqrt(abs(float(vdot(w, w).real)))
            norm_estimate = max(norm_estimate, abs(T[i, i]), b)
            if i + 1 == ncv:
                residual, beta = w, b
                break
            placed = _place_next(V, i + 1, w, b, b <= eps * norm_estimate, seed=steps)
            T[i, i + 1] = T[i + 1, i] = b if placed else 0.0
        theta, S = np.linalg.eigh(T)
        chosen = _choose(theta, k, which)
        estimates = np.abs(beta * S[-1, chosen])
        converged = np.all(estimates <= tol * np.maximum(np.abs(theta[chosen]), small))
        if converged or steps >= maxiter:
            break
        # Thick restart: the wanted Ritz vectors and, as TRLan does, about
        # half the other places with the next best ones (keeping only the
        # wanted k stalls on clustered ends), then the residual.
        kept = min(k + (ncv - k) // 2, ncv - 1)
        chosen = _choose(theta, kept, which)
        ritz = asarray(S[:, chosen].T.astype(dtype), device=V.device) @ V
        T[:] = 0.0
        T[np.arange(kept), np.arange(kept)] = theta[chosen]
        V[:kept] = ritz
        placed = _place_next(V, kept, residual, beta, beta <= eps * max(norm_estimate, 1.0), seed=steps)
        T[kept, :kept] = T[:kept, kept] = beta * S[-1, chosen] if placed else 0.0
    order = chosen[np.argsort(theta[chosen], kind="stable")]
    values = asarray(theta[order].astype(np.dtype(dtype).type(0).real.dtype), device=V.device)
    if not return_eigenvectors:
        return values
    vectors = (asarray(S[:, order].T.astype(dtype), device=V.device) @ V).T
    return values, vectors


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None, return_singular_vectors=True, solver="arpack",
         random_state=None, options=None):
    """The k largest singular values of A (ascending, as SciPy returns
    them), with u (m, k) and vh (k, n) unless return_singular_vectors is
    False ("u" or "vh": only that one, the other None)."""
    from ..._numpy.math.elementwise import conj, maximum, sqrt
    from ._interface import LinearOperator, aslinearoperator

    if len(getattr(A, "shape", ())) != 2:
        raise ValueError(f"svds: A must be a 2-d matrix (has shape {getattr(A, 'shape', None)})")
    dtype = _floating_dtype(A.dtype, "svds")
    op = aslinearoperator(A)
    m, n = op.shape
    k = _operator.index(k)
    if not 0 < k < min(m, n):
        raise ValueError(f"svds: k must be greater than 0 and smaller than min(A.shape) = {min(m, n)} (is {k})")
    if which != "LM":
        raise ValueError(f"svds: which must be 'LM' (is {which!r})")
    if solver != "arpack":
        raise NotImplementedError(f"svds: solver {solver!r} is not supported (kiln's is thick-restart Lanczos)")
    tall = m >= n
    if tall:  # A^H A, n x n: its eigenvectors are the right singular vectors
        gram = LinearOperator((n, n), lambda x: op.rmatvec(op.matvec(x)), dtype=dtype)
    else:
        gram = LinearOperator((m, m), lambda x: op.matvec(op.rmatvec(x)), dtype=dtype)
    gram._device = op._device
    wanted = return_singular_vectors
    result = eigsh(gram, k=k, which="LA", v0=v0, ncv=ncv, maxiter=maxiter, tol=tol,
                   return_eigenvectors=wanted is not False)
    if wanted is False:
        return sqrt(maximum(result, 0))
    values, vectors = result
    s = sqrt(maximum(values, 0))
    # The other side's vectors: A v / s (or A^H u / s), column by column.
    other = asarray(op.matmat(vectors) if tall else op.rmatmat(vectors)) / s.reshape(1, -1)
    u, vh = (other, conj(vectors).T) if tall else (vectors, conj(other).T)
    if wanted == "u":
        return u, s, None
    if wanted == "vh":
        return None, s, vh
    return u, s, vh
