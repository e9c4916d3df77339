"""kiln.scipy.sparse.linalg: SciPy's linear operators (_interface.py),
matrix norms, Krylov solvers (cg, cgs, bicgstab, gmres, minres), least
squares (lsqr, lsmr), spsolve and the eigensolvers eigsh and svds
(_eigen.py) for code ported from ``cupyx.scipy.sparse.linalg``, on every
device.

The solvers are the textbook iterations (Saad, "Iterative Methods for
Sparse Linear Systems", 2003: CG, CGS, BiCGSTAB, restarted GMRES with
Givens rotations) over kiln arrays, so they run wherever the operator's
products run; each iteration reads the residual norm on the host to decide
whether to stop, with SciPy's rule ``norm(r) <= max(rtol * norm(b), atol)``
and its ``(x, info)`` result (0: converged, k > 0: not within k steps)."""
import math

from ... import _core
from ..._numpy.math import elementwise as _elementwise
from ..._numpy.creation import asarray, zeros
from ._base import _spbase
from ._eigen import eigsh, svds  # noqa: F401
from ._interface import LinearOperator, aslinearoperator


def _np():
    import numpy

    return numpy


def norm(x, ord=None, axis=None):
    """The Frobenius (default), 1, -1, inf or -inf norm of a sparse matrix,
    or the vector norm along an axis."""
    from ... import linalg as dense_linalg
    from ..._numpy.statistics.reductions import max as _max, min as _min, sum as _sum

    if not isinstance(x, _spbase):
        raise TypeError("input is not sparse. use cupy.linalg.norm")
    csr = x._canonical_copy()
    magnitude = abs(csr.data)
    if axis is None:
        if ord in (None, "fro", "f"):
            return _elementwise.sqrt(_sum(magnitude ** 2))
        if ord in (math.inf, -math.inf, 1, -1):
            summed = abs(csr).sum(axis=1 if ord in (math.inf, -math.inf) else 0)
            return (_max if ord in (math.inf, 1) else _min)(summed)
        raise ValueError("Invalid norm order for matrices.")
    dense = x.toarray()
    one_axis = axis[0] if isinstance(axis, tuple) and len(axis) == 1 else axis
    if isinstance(one_axis, int) and not isinstance(ord, bool) and ord == 0:
        return _sum(dense != 0, axis=one_axis, dtype="int64")  # the count of nonzeros, as SciPy's
    if isinstance(one_axis, int) and isinstance(ord, (int, float)) and not isinstance(ord, bool) and \
            ord not in (0, 1, 2, math.inf, -math.inf):
        # A vector norm: SciPy raises the stored entries only to the power
        # (an absent zero would make a negative power infinite)
        stored = dense != 0
        powered = _core._where(stored, abs(_core._where(stored, dense, 1)) ** ord, 0)
        return _sum(powered, axis=one_axis) ** (1.0 / ord)
    return dense_linalg.norm(dense, ord=ord, axis=axis)


def _operands(A, b, x0, M, rtol, atol, maxiter):
    """What every solver starts from: the operator, b and x as vectors of
    one float or complex dtype, the preconditioner, the step limit (SciPy's
    10 n), the residual norm to reach, and the answer when b is zero (x = 0
    at once, as SciPy's; None otherwise)."""
    A = aslinearoperator(A)
    n = A.shape[0]
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix (shape: {A.shape})")
    b = asarray(b)
    if b.shape not in ((n,), (n, 1)):
        raise ValueError(f"b has incompatible dimensions {tuple(b.shape)}")
    dtype = str(_np().promote_types(A.dtype, _np().dtype(str(b.dtype))))
    if dtype not in ("float32", "float64", "complex64", "complex128"):
        dtype = "float64"
    b = b.reshape(-1).astype(dtype)
    if x0 is not None and tuple(asarray(x0).shape) not in ((n,), (n, 1)):
        raise ValueError(f"shapes of A {A.shape} and x0 {tuple(asarray(x0).shape)} are incompatible")
    x = zeros(n, dtype=dtype, device=b.device) if x0 is None else asarray(x0).reshape(-1).astype(dtype)
    if M is not None:
        M = aslinearoperator(M)
        if M.shape != A.shape:
            raise ValueError("matrix and preconditioner have different shapes")
    M = (lambda v: v) if M is None else M.matvec
    maxiter = n * 10 if maxiter is None else maxiter
    b_norm = _norm(b)
    answer = (zeros(n, dtype=dtype, device=b.device), 0) if b_norm == 0 else None
    return A, b, x, M, maxiter, max(rtol * b_norm, atol), answer


def _dot(a, b):
    """a^H b as a Python number."""
    from ..._numpy.products import vdot

    return complex(vdot(a, b)) if a.dtype.kind == "c" else float(vdot(a, b))


def _norm(v):
    return math.sqrt(abs(_dot(v, v)))


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Conjugate gradients for a Hermitian positive definite A: (x, info)."""
    A, b, x, M, maxiter, target, answer = _operands(A, b, x0, M, rtol, atol, maxiter)
    if answer is not None:
        return answer
    r = b - A.matvec(x) if x0 is not None else b.copy()
    z = M(r)
    p = z
    rho = _dot(r, z)
    for _ in range(maxiter):
        if _norm(r) <= target:
            return x, 0
        q = A.matvec(p)
        alpha = rho / _dot(p, q)
        x = x + alpha * p
        r = r - alpha * q
        if callback is not None:
            callback(x)
        z = M(r)
        rho_next = _dot(r, z)
        p = z + (rho_next / rho) * p
        rho = rho_next
    return x, (0 if _norm(r) <= target else maxiter)


def cgs(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Conjugate gradients squared for a general square A: (x, info)."""
    A, b, x, M, maxiter, target, answer = _operands(A, b, x0, M, rtol, atol, maxiter)
    if answer is not None:
        return answer
    r = b - A.matvec(x)
    shadow = r.copy()
    rho_previous = 1.0
    p = q = zeros(b.shape, dtype=str(b.dtype), device=b.device)
    for iteration in range(maxiter):
        if _norm(r) <= target:
            return x, 0
        rho = _dot(shadow, r)
        if rho == 0:
            return x, -10  # breakdown, as SciPy reports it
        if iteration == 0:
            u = r
            p = u
        else:
            beta = rho / rho_previous
            u = r + beta * q
            p = u + beta * (q + beta * p)
        phat = M(p)
        v = A.matvec(phat)
        alpha = rho / _dot(shadow, v)
        q = u - alpha * v
        uhat = M(u + q)
        x = x + alpha * uhat
        r = r - alpha * A.matvec(uhat)
        rho_previous = rho
        if callback is not None:
            callback(x)
    return x, (0 if _norm(r) <= target else maxiter)


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Biconjugate gradients, stabilised, for a general square A: (x, info)."""
    A, b, x, M, maxiter, target, answer = _operands(A, b, x0, M, rtol, atol, maxiter)
    if answer is not None:
        return answer
    r = b - A.matvec(x)
    shadow = r.copy()
    rho_previous = alpha = omega = 1.0
    p = v = zeros(b.shape, dtype=str(b.dtype), device=b.device)
    for iteration in range(maxiter):
        if _norm(r) <= target:
            return x, 0
        rho = _dot(shadow, r)
        if rho == 0 or omega == 0:
            return x, -10
        if iteration == 0:
            p = r
        else:
            p = r + (rho / rho_previous) * (alpha / omega) * (p - omega * v)
        phat = M(p)
        v = A.matvec(phat)
        alpha = rho / _dot(shadow, v)
        s = r - alpha * v
        if _norm(s) <= target:
            x = x + alpha * phat
            if callback is not None:
                callback(x)
            return x, 0
        shat = M(s)
        t = A.matvec(shat)
        omega = _dot(t, s) / _dot(t, t)
        x = x + alpha * phat + omega * shat
        r = s - omega * t
        rho_previous = rho
        if callback is not None:
            callback(x)
    return x, (0 if _norm(r) <= target else maxiter)


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, restart=None, maxiter=None, M=None, callback=None,
          callback_type=None):
    """Restarted GMRES for a general square A: (x, info). Each cycle builds
    an orthonormal Krylov basis of `restart` vectors (Arnoldi, modified
    Gram-Schmidt) and takes the least-squares step; the small Hessenberg
    problem is solved on the host."""
    from ..._numpy.manipulation.joining import stack

    np = _np()
    if callback_type not in (None, "x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    A, b, x, M, maxiter, target, answer = _operands(A, b, x0, M, rtol, atol, maxiter)
    if answer is not None:
        return answer
    restart = min(20 if restart is None else restart, max(b.shape[0], 1))
    complex_ = b.dtype.kind == "c"
    for _ in range(maxiter):
        residual = b - A.matvec(x)
        if _norm(residual) <= target:
            return x, 0
        r = M(residual)
        beta = _norm(r)
        basis = [r / beta]
        hessenberg = np.zeros((restart + 1, restart), dtype=complex if complex_ else float)
        steps = 0
        for j in range(restart):
            w = M(A.matvec(basis[j]))
            # Python numbers (not NumPy's float64 scalars) scale the vectors,
            # so that they keep b's dtype under NumPy 2's promotion rules
            for i in range(j + 1):
                coefficient = _dot(basis[i], w)
                hessenberg[i, j] = coefficient
                w = w - coefficient * basis[i]
            length = _norm(w)
            hessenberg[j + 1, j] = length
            steps = j + 1
            if length == 0:
                break
            basis.append(w / length)
        rhs = np.zeros(steps + 1, dtype=hessenberg.dtype)
        rhs[0] = beta
        y = np.linalg.lstsq(hessenberg[:steps + 1, :steps], rhs, rcond=None)[0]
        x = x + (stack(basis[:steps], axis=1) @ asarray(y.astype(str(b.dtype)), device=b.device))
        if callback is not None:
            callback(x if callback_type in (None, "x", "legacy") else _norm(b - A.matvec(x)) / _norm(b))
    return x, (0 if _norm(b - A.matvec(x)) <= target else maxiter)


def _golub_kahan_start(A, u, beta, n, dtype):
    """(u1, v1, alpha1) of Golub-Kahan bidiagonalisation from the residual u
    of norm beta: beta u1 = u, alpha1 v1 = A^H u1 (v1 zero where either is
    zero), where LSQR and LSMR both begin."""
    v, alpha = zeros(n, dtype=dtype, device=u.device), 0.0
    if beta > 0:
        u = u * (1.0 / beta)
        v = A.rmatvec(u).astype(dtype)
        alpha = _norm(v)
    if alpha > 0:
        v = v * (1.0 / alpha)
    return u, v, alpha


def _golub_kahan_step(A, u, v, alpha, dtype):
    """The next (u, v, alpha, beta) of the bidiagonalisation:
    beta u' = A v - alpha u, alpha' v' = A^H u' - beta v (unchanged past a zero beta)."""
    u = A.matvec(v).astype(dtype) - alpha * u
    beta = _norm(u)
    if beta > 0:
        u = u * (1.0 / beta)
        v = A.rmatvec(u).astype(dtype) - beta * v
        alpha = _norm(v)
        if alpha > 0:
            v = v * (1.0 / alpha)
    return u, v, alpha, beta


def _least_squares_stop(itn, limit, rnorm, bnorm, anorm, xnorm, test2, test3, atol, btol, ctol):
    """Paige and Saunders' stopping code shared by LSQR and LSMR (0: go on;
    7 steps spent, 6/5/4 machine precision reached for cond(A), ||A^H r||
    and ||r||, 3 cond(A) over conlim, 2 ||A^H r|| within atol, 1 ||r||
    within btol + atol ||A|| ||x|| / ||b||), the later tests taking
    precedence, as SciPy checks them. test2 and test3 differ between the two."""
    test1 = rnorm / bnorm
    t1 = test1 / (1 + anorm * xnorm / bnorm)
    rtol = btol + atol * anorm * xnorm / bnorm
    istop = 0
    if itn >= limit:
        istop = 7
    if 1 + test3 <= 1:
        istop = 6
    if 1 + test2 <= 1:
        istop = 5
    if 1 + t1 <= 1:
        istop = 4
    if test3 <= ctol:
        istop = 3
    if test2 <= atol:
        istop = 2
    if test1 <= rtol:
        istop = 1
    return istop


def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None, show=False, calc_var=False, x0=None):
    """Least squares of any m x n A by Paige and Saunders' LSQR (Golub-Kahan
    bidiagonalisation, one product with A and one with A^H a step), as
    SciPy's: min ||A x - b||^2 + damp^2 ||x||^2. Returns SciPy's tuple
    (x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var); the
    vectors stay on b's device, the scalars of the recurrence on the host."""
    A = aslinearoperator(A)
    m, n = A.shape
    b = asarray(b)
    if b.shape not in ((m,), (m, 1)):
        raise ValueError(f"b has incompatible dimensions {tuple(b.shape)} for A of {A.shape}")
    # SciPy's lsqr computes in at least double precision
    np = _np()
    dtype = str(np.result_type(A.dtype, np.dtype(str(b.dtype)), np.float64))
    b = b.reshape(-1).astype(dtype)
    iter_lim = 2 * n if iter_lim is None else iter_lim
    eps = float(_np().finfo(dtype).eps)
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    dampsq = damp * damp
    var = zeros(n, dtype=str(_np().finfo(dtype).dtype), device=b.device)
    x = zeros(n, dtype=dtype, device=b.device) if x0 is None else asarray(x0).reshape(-1).astype(dtype)
    # SciPy updates a given x0 in place, so x keeps x0's (floating) dtype
    x_dtype = str(asarray(x0).dtype) if x0 is not None and asarray(x0).dtype.kind in "fc" else dtype
    u = b - A.matvec(x) if x0 is not None else b.copy()
    bnorm, beta = _norm(b), _norm(u)
    u, v, alfa = _golub_kahan_start(A, u, beta, n, dtype)
    w = v.copy()
    rhobar, phibar = alfa, beta
    anorm = acond = ddnorm = res2 = xnorm = xxnorm = z = 0.0
    cs2, sn2 = -1.0, 0.0
    rnorm = r1norm = r2norm = beta
    arnorm = alfa * beta
    if arnorm == 0:
        return x.astype(x_dtype), 0, 0, beta, beta, anorm, acond, arnorm, xnorm, var
    istop = itn = 0
    while itn < iter_lim:
        itn += 1
        previous = alfa
        u, v, alfa, beta = _golub_kahan_step(A, u, v, alfa, dtype)
        if beta > 0:
            anorm = math.sqrt(anorm * anorm + previous * previous + beta * beta + dampsq)
        # Rotations: eliminate the damping, then the subdiagonal beta.
        rhobar1 = math.sqrt(rhobar * rhobar + dampsq)
        cs1, sn1 = rhobar / rhobar1, damp / rhobar1
        psi, phibar = sn1 * phibar, cs1 * phibar
        rho = math.hypot(rhobar1, beta)
        cs, sn = rhobar1 / rho, beta / rho
        theta, rhobar = sn * alfa, -cs * alfa
        phi, phibar = cs * phibar, sn * phibar
        tau = sn * phi
        dk = w * (1.0 / rho)
        x = x + (phi / rho) * w
        w = v - (theta / rho) * w
        ddnorm += _norm(dk) ** 2
        # ||x|| from the rotated lower bidiagonal system, as Paige and Saunders estimate it.
        delta, gambar = sn2 * rho, -cs2 * rho
        rhs = phi - delta * z
        zbar = rhs / gambar
        xnorm = math.sqrt(xxnorm + zbar * zbar)
        gamma = math.hypot(gambar, theta)
        cs2, sn2 = gambar / gamma, theta / gamma
        z = rhs / gamma
        xxnorm += z * z
        acond = anorm * math.sqrt(ddnorm)
        res2 += psi * psi
        rnorm = math.sqrt(phibar * phibar + res2)
        arnorm = alfa * abs(tau)
        r1sq = rnorm * rnorm - dampsq * xxnorm
        r1norm = math.copysign(math.sqrt(abs(r1sq)), r1sq)
        r2norm = rnorm
        istop = _least_squares_stop(itn, iter_lim, rnorm, bnorm, anorm, xnorm, arnorm / (anorm * rnorm + eps),
                                    1.0 / (acond + eps), atol, btol, ctol)
        if istop:
            break
    return x.astype(x_dtype), istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var



def _sym_ortho(a, b):
    """The plane rotation (c, s, r) with [c s; -s c] [a; b] = [r; 0], r >= 0,
    computed without overflow as Paige and Saunders' SymOrtho."""
    if b == 0:
        return math.copysign(1.0, a) if a else 0.0, 0.0, abs(a)
    if a == 0:
        return 0.0, math.copysign(1.0, b), abs(b)
    if abs(b) > abs(a):
        tau = a / b
        s = math.copysign(1.0, b) / math.sqrt(1 + tau * tau)
        return s * tau, s, b / s
    tau = b / a
    c = math.copysign(1.0, a) / math.sqrt(1 + tau * tau)
    return c, c * tau, a / c


def lsmr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None, show=False, x0=None):
    """Least squares of any m x n A by Fong and Saunders' LSMR (MINRES on the
    normal equations through Golub-Kahan bidiagonalisation), as SciPy's:
    min ||A x - b||^2 + damp^2 ||x||^2. Returns SciPy's tuple (x, istop,
    itn, normr, normar, norma, conda, normx); the vectors stay on b's
    device, the rotations and stopping tests (SciPy's, in its order) run on
    the host."""
    np = _np()
    A = aslinearoperator(A)
    m, n = A.shape
    b = asarray(b)
    if b.ndim > 1:
        b = b.reshape([d for d in b.shape if d != 1] or [1])
    if b.shape != (m,):
        raise ValueError(f"b has incompatible dimensions {tuple(b.shape)} for A of {A.shape}")
    kinds = [A.dtype, np.dtype(str(b.dtype)), np.float64]
    if x0 is not None:
        x0 = asarray(x0)
        if tuple(x0.shape) not in ((n,), (n, 1)):
            raise ValueError(f"shapes of A {A.shape} and x0 {tuple(x0.shape)} are incompatible")
        kinds.append(np.dtype(str(x0.dtype)))
    dtype = str(np.result_type(*kinds))
    b = b.astype(dtype)
    maxiter = min(m, n) if maxiter is None else maxiter
    normb = _norm(b)
    if x0 is None:
        x, u, beta = zeros(n, dtype=dtype, device=b.device), b, normb
    else:
        x = x0.reshape(-1).astype(dtype)
        u = b - A.matvec(x).astype(dtype)
        beta = _norm(u)
    u, v, alpha = _golub_kahan_start(A, u, beta, n, dtype)
    zetabar, alphabar, rho, rhobar, cbar, sbar = alpha * beta, alpha, 1.0, 1.0, 1.0, 0.0
    h, hbar = v.copy(), zeros(n, dtype=dtype, device=b.device)
    # The estimate of ||r||: betadd, betad, rhodold, tautildeold, thetatilde, zeta, d.
    betadd, betad, rhodold, tautildeold, thetatilde, zeta, d = beta, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0
    norma2 = alpha * alpha
    maxrbar, minrbar = 0.0, 1e100
    norma, conda, normx = math.sqrt(norma2), 1.0, 0.0
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    normr, normar = beta, alpha * beta
    istop = itn = 0
    if normar == 0:
        return x, istop, itn, normr, normar, norma, conda, normx
    if normb == 0:
        return zeros(n, dtype=dtype, device=b.device), istop, itn, normr, normar, norma, conda, normx
    while itn < maxiter:
        itn += 1
        u, v, alpha, beta = _golub_kahan_step(A, u, v, alpha, dtype)
        # Rotations: eliminate the damping, then the subdiagonal, then the
        # new superdiagonal of the second bidiagonal factor.
        chat, shat, alphahat = _sym_ortho(alphabar, damp)
        rhoold = rho
        c, s, rho = _sym_ortho(alphahat, beta)
        thetanew = s * alpha
        alphabar = c * alpha
        rhobarold, zetaold = rhobar, zeta
        thetabar = sbar * rho
        rhotemp = cbar * rho
        cbar, sbar, rhobar = _sym_ortho(cbar * rho, thetanew)
        zeta = cbar * zetabar
        zetabar = -sbar * zetabar
        # x along the updated directions h and hbar.
        hbar = h - (thetabar * rho / (rhoold * rhobarold)) * hbar
        x = x + (zeta / (rho * rhobar)) * hbar
        h = v - (thetanew / rho) * h
        # ||r|| by the rotations of the estimate.
        betaacute = chat * betadd
        betacheck = -shat * betadd
        betahat = c * betaacute
        betadd = -s * betaacute
        thetatildeold = thetatilde
        ctildeold, stildeold, rhotildeold = _sym_ortho(rhodold, thetabar)
        thetatilde = stildeold * rhobar
        rhodold = ctildeold * rhobar
        betad = -stildeold * betad + ctildeold * betahat
        tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold
        taud = (zeta - thetatilde * tautildeold) / rhodold
        d += betacheck * betacheck
        normr = math.sqrt(d + (betad - taud) ** 2 + betadd * betadd)
        # ||A||, cond(A), ||A^H r||, ||x|| and the stopping tests.
        norma2 += beta * beta
        norma = math.sqrt(norma2)
        norma2 += alpha * alpha
        maxrbar = max(maxrbar, rhobarold)
        if itn > 1:
            minrbar = min(minrbar, rhobarold)
        conda = max(maxrbar, rhotemp) / min(minrbar, rhotemp)
        normar = abs(zetabar)
        normx = _norm(x)
        istop = _least_squares_stop(itn, maxiter, normr, normb, norma, normx,
                                    normar / (norma * normr) if norma * normr != 0 else math.inf, 1.0 / conda,
                                    atol, btol, ctol)
        if istop:
            break
    return x, istop, itn, normr, normar, norma, conda, normx

def minres(A, b, x0=None, *, shift=0.0, rtol=1e-5, maxiter=None, M=None, callback=None, show=False, check=False,
           tol=None):
    """MINRES (Paige and Saunders) for a symmetric, possibly indefinite A -
    shift I, with a positive definite preconditioner M: (x, info), info
    maxiter when the steps ran out. The Lanczos vectors stay on b's device;
    the plane rotations and the stopping tests run on the host, in the order
    SciPy's minres takes them. ``tol`` is CuPy's older name for rtol."""
    rtol = rtol if tol is None else tol
    b = asarray(b)
    b = b.astype(str(_np().result_type(_np().dtype(str(b.dtype)), _np().float64)))  # double at least, as SciPy's
    limit = maxiter
    A, b, x, M, _, _, answer = _operands(A, b, x0, M, rtol, 0.0, maxiter)
    n = b.shape[0]
    maxiter = 5 * n if limit is None else limit  # SciPy's minres default, not the other solvers' 10 n
    eps = float(_np().finfo(str(b.dtype)).eps)
    r1 = b - A.matvec(x) if x0 is not None else b
    y = M(r1)
    beta1 = _dot(r1, y).real if b.dtype.kind == "c" else _dot(r1, y)
    if beta1 < 0:
        raise ValueError("indefinite preconditioner")
    if beta1 == 0:
        return x, 0
    beta1 = math.sqrt(beta1)
    oldb, beta, dbar, epsln, phibar, rhs1, rhs2 = 0.0, beta1, 0.0, 0.0, beta1, beta1, 0.0
    tnorm2, gmax, gmin, cs, sn = 0.0, 0.0, float("inf"), -1.0, 0.0
    w = w2 = zeros(n, dtype=str(b.dtype), device=b.device)
    r2 = r1
    istop = itn = 0
    while itn < maxiter:
        itn += 1
        # The next Lanczos vector v and the tridiagonal's alfa, beta.
        v = y * (1.0 / beta)
        y = A.matvec(v)
        if shift:
            y = y - shift * v
        if itn >= 2:
            y = y - (beta / oldb) * r1
        alfa = _dot(v, y)
        alfa = alfa.real if isinstance(alfa, complex) else alfa
        y = y - (alfa / beta) * r2
        r1, r2 = r2, y
        y = M(r2)
        oldb = beta
        beta = _dot(r2, y)
        beta = beta.real if isinstance(beta, complex) else beta
        if beta < 0:
            raise ValueError("non-symmetric matrix")
        beta = math.sqrt(beta)
        tnorm2 += alfa * alfa + oldb * oldb + beta * beta
        if itn == 1 and beta / beta1 <= 10 * eps:
            istop = -1  # b is an eigenvector: the first step solves it
        # The previous plane rotation, then the next one.
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        root = math.hypot(gbar, dbar)
        gamma = max(math.hypot(gbar, beta), eps)
        cs, sn = gbar / gamma, beta / gamma
        phi = cs * phibar
        phibar = sn * phibar
        # x along the new search direction w.
        w1, w2 = w2, w
        w = (v - oldeps * w1 - delta * w2) * (1.0 / gamma)
        x = x + phi * w
        gmax, gmin = max(gmax, gamma), min(gmin, gamma)
        z = rhs1 / gamma
        rhs1 = rhs2 - delta * z
        rhs2 = -epsln * z
        # The stopping tests.
        anorm = math.sqrt(tnorm2)
        ynorm = _norm(x)
        epsx = anorm * ynorm * eps
        rnorm = phibar
        test1 = math.inf if ynorm == 0 or anorm == 0 else rnorm / (anorm * ynorm)
        test2 = math.inf if anorm == 0 else root / anorm
        acond = gmax / gmin
        if istop == 0:
            if 1 + test2 <= 1:
                istop = 2
            if 1 + test1 <= 1:
                istop = 1
            if itn >= maxiter:
                istop = 6
            if acond >= 0.1 / eps:
                istop = 4
            if epsx >= beta1:
                istop = 3
            if test2 <= rtol:
                istop = 2
            if test1 <= rtol:
                istop = 1
        if callback is not None:
            callback(x)
        if istop != 0:
            break
    return x, (maxiter if istop == 6 else 0)


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """x with A x = b for a square sparse A: the matrix densified on its
    device and solved by LU (cuSOLVER's on a GPU), so for n up to what n^2
    values take; b a vector (x of shape (n,)), a dense matrix, or a sparse
    matrix of several columns (x sparse too, in A's format). A singular A
    gives NaNs with SciPy's MatrixRankWarning."""
    import warnings

    from ...linalg import LinAlgError, solve

    if not isinstance(A, _spbase):
        raise TypeError("spsolve: A must be a sparse matrix")
    n = A.shape[0]
    if A.shape[1] != n:
        raise ValueError(f"matrix must be square (has shape {A.shape})")
    sparse_b = isinstance(b, _spbase)
    rhs = b.toarray() if sparse_b else asarray(b)
    if rhs.shape[0] != n:
        raise ValueError(f"matrix - rhs dimension mismatch ({A.shape} - {rhs.shape[0]})")
    vector = rhs.ndim == 1 or rhs.shape[1] == 1  # a one-column b gives (n,), as SciPy's
    dtype = str(_np().promote_types(A.dtype, _np().dtype(str(rhs.dtype))))
    if dtype not in ("float32", "float64", "complex64", "complex128"):
        dtype = "float64"
    dense = A.toarray().astype(dtype)
    rhs = rhs.reshape(n, -1).astype(dtype)
    try:
        x = solve(dense, rhs)
    except LinAlgError:
        warnings.warn("Matrix is exactly singular", _matrix_rank_warning(), stacklevel=2)
        x = zeros(rhs.shape, dtype=dtype, device=rhs.device) + float("nan")
    if vector:
        return x.reshape(-1)
    if sparse_b:
        return A._family["csr"](x).asformat(A.format)  # in A's format and kind, as SciPy's
    return x


def _matrix_rank_warning():
    """SciPy's MatrixRankWarning where SciPy is installed, else a UserWarning."""
    try:
        from scipy.sparse.linalg import MatrixRankWarning
    except ImportError:
        return UserWarning
    return MatrixRankWarning


def matrix_power(A, power):
    """A to an integer power >= 0 by repeated squaring, as sparse products
    (SciPy's; the 0th power is the identity, in A's kind and format)."""
    from ._construct import eye, eye_array
    from ._base import sparray

    if not isinstance(A, _spbase):
        raise TypeError("matrix_power: A must be a sparse matrix or array")
    m, n = A.shape
    if m != n:
        raise TypeError("sparse matrix is not square")
    if int(power) != power:
        raise ValueError("exponent must be an integer")
    power = int(power)
    if power < 0:
        raise ValueError("exponent must be >= 0")
    if power == 0:
        identity = eye_array if isinstance(A, sparray) else eye
        return identity(m, dtype=A.dtype, format=A.format, device=A.device)
    result, square = None, A
    while True:
        if power & 1:
            result = square.copy() if result is None else result @ square
        power >>= 1
        if not power:
            return result
        square = square @ square


__all__ = ["LinearOperator", "aslinearoperator", "bicgstab", "cg", "cgs", "eigsh", "gmres", "lsmr", "lsqr",
           "matrix_power", "minres", "norm", "spsolve", "svds"]
