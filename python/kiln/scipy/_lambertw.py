"""scipy.special.lambertw for kiln.scipy.special: branch k of the Lambert W
function (w e^w = z) of complex z, composed from kiln's complex ops.

Each element starts from the asymptotic expansion log z + 2 pi i k -
log(log z + 2 pi i k), or for branch 0 near the origin from z itself, and
near the branch point -1/e (branches 0 and -1) from the series in
p = sqrt(2 (e z + 1)); Halley's iteration (Corless et al., "On the Lambert W
function", 1996), in the form that keeps e^w or e^-w from overflowing for
w's half-plane, then runs to convergence. SciPy's values at z = 0, at the
infinities and for NaN."""
import math

from .. import _core
from .._numpy.creation import asarray
from .._numpy.math.elementwise import imag, real
from ._special_integrals import _where

_EXP_MINUS_ONE = math.exp(-1.0)


def lambertw(z, k=0, tol=1e-8):
    """W_k(z), complex128 (scipy.special.lambertw)."""
    from .._numpy.manipulation.shape import broadcast_arrays

    z = asarray(z)
    k = asarray(k, device=z.device)
    if k.dtype.kind not in "biu":
        raise TypeError("k: the branch must be an integer")
    z, k = broadcast_arrays(z.astype("complex128"), k.astype("float64"))
    finite = _core.isfinite(z) & (z != 0)
    zs = _where(finite, z, 1.0 + 0j)
    turn = 2j * math.pi * k
    log_z = _core.log(zs) + turn
    w = log_z - _core.log(_where(log_z != 0, log_z, 1.0 + 0j))
    near_origin = (k == 0) & (_core.abs(zs) < 1)
    w = _where(near_origin, zs, w)
    p = _core.sqrt(2.0 * (math.e * zs + 1.0))
    branch_point = -1.0 + p - p * p / 3.0 + 11.0 / 72.0 * p * p * p
    near_point = _core.abs(zs + _EXP_MINUS_ONE) < 0.3
    w = _where(near_point & (k == 0), branch_point, w)
    # branch -1 from on and above the real axis (branch 1 from below) also
    # meets the branch point: the series with the other root of p
    lower = -1.0 - p - p * p / 3.0 - 11.0 / 72.0 * p * p * p
    w = _where(near_point & (k == -1) & (imag(zs) >= 0), lower, w)
    w = _where(near_point & (k == 1) & (imag(zs) < 0), lower, w)
    for _ in range(60):
        # Halley's step; e^-w where Re w >= 0, e^w elsewhere
        positive = real(w) >= 0
        ew_neg = _core.exp(_where(positive, -w, 0j))
        residual_pos = w - zs * ew_neg
        step_pos = residual_pos / (w + 1 - (w + 2) * residual_pos / (2 * w + 2))
        ew = _core.exp(_where(positive, 0j, w))
        wew = w * ew
        residual_neg = wew - zs
        step_neg = residual_neg / (wew + ew - (w + 2) * residual_neg / (2 * w + 2))
        step = _where(positive, step_pos, step_neg)
        w = _where(_core.isfinite(step), w - step, w)
    # SciPy's special values
    w = _where(z == 0, _where(k == 0, 0j, complex(-math.inf, 0)), w)
    infinite = _core.isinf(real(z)) & _core.isfinite(imag(z))
    w = _where(infinite & (real(z) > 0), z + turn, w)
    w = _where(infinite & (real(z) < 0), -z + (turn + 1j * math.pi), w)
    return _where(_core.isnan(z), complex(math.nan, math.nan), w)
