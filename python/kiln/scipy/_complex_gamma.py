"""scipy.special's gamma family of complex arguments: loggamma (the
principal branch, analytic off the negative real axis), gamma, rgamma and
digamma, on complex128 kiln arrays of either device.

Every element is moved right by the same N until Re z + N >= 10, where
Stirling's series (and psi's asymptotic series) converge to rounding in
eight terms; the recurrences bring it back: log Gamma(z) = log Gamma(z + N)
- sum_k log(z + k) with each log principal, so the sum is analytic wherever
every z + k is off the negative real axis, i.e. off that axis for z: the
principal branch, as SciPy's (-3 pi i at -2.5 + 0i). gamma and rgamma are
exp(+-loggamma) as SciPy's; the values at the poles and infinities are
SciPy's."""
import math

from .. import _core
from .._numpy.math.elementwise import imag as _imag, real as _real
from .._numpy.statistics.reductions import min as minimum

# B_2k / (2k (2k - 1)) (Stirling) and B_2k / 2k (psi), k = 1..8
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)
_FAR_ENOUGH = 10.0


def _where(condition, x, y):
    return _core._where(condition, x, y)


def _shift(z):
    """The N that takes every finite element's real part to 10 or more."""
    real = _real(z)
    lowest = float(minimum(_where(_core.isfinite(real), real, _FAR_ENOUGH))) if z.size else _FAR_ENOUGH
    return max(0, math.ceil(_FAR_ENOUGH - lowest))


def _pole(z):
    return (_imag(z) == 0) & (_real(z) <= 0) & (_core.floor(_real(z)) == _real(z))


def _finite(z):
    return _core.isfinite(_real(z)) & _core.isfinite(_imag(z))


def _safe(z):
    """z where it is finite and not a pole, 1 elsewhere (values fixed later)."""
    return _where(_finite(z) & ~_pole(z), z, 1.0 + 0j)


def _loggamma_finite(z):
    n = _shift(z)
    w = z + n
    inverse = 1 / w
    square = inverse * inverse
    series = 0.0 * w
    for k in range(len(_BERNOULLI), 0, -1):
        series = series * square + _BERNOULLI[k - 1] / (2 * k * (2 * k - 1))
    value = (w - 0.5) * _core.log(w) - w + 0.5 * math.log(2 * math.pi) + series * inverse
    for k in range(n):
        value = value - _core.log(z + k)
    return value


def loggamma(z):
    nan = complex(math.nan, math.nan)
    return _where(_finite(z) & ~_pole(z), _loggamma_finite(_safe(z)), nan)


def gamma(z):
    nan = complex(math.nan, math.nan)
    return _where(_finite(z) & ~_pole(z), _core.exp(_loggamma_finite(_safe(z))), nan)


def rgamma(z):
    """1/Gamma(z): 0 at the poles and at -inf, NaN at +inf and NaN."""
    nan = complex(math.nan, math.nan)
    value = _core.exp(-_loggamma_finite(_safe(z)))
    zero = _pole(z) | ((_real(z) == -math.inf) & (_imag(z) == 0))
    return _where(zero, 0j, _where(_finite(z), value, nan))


def digamma(z):
    """psi(z): psi(z + N) - sum_k 1/(z + k), with psi's asymptotic series;
    NaN at the poles and -inf, inf at +inf."""
    nan = complex(math.nan, math.nan)
    safe = _safe(z)
    n = _shift(safe)
    w = safe + n
    square = 1 / (w * w)
    series = 0.0 * w
    for k in range(len(_BERNOULLI), 0, -1):
        series = series * square + _BERNOULLI[k - 1] / (2 * k)
    value = _core.log(w) - 0.5 / w - series * square
    for k in range(n):
        value = value - 1 / (safe + k)
    infinite = (_real(z) == math.inf) & (_imag(z) == 0)
    return _where(infinite, complex(math.inf, 0), _where(_finite(z) & ~_pole(z), value, nan))
