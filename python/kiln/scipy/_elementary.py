"""scipy.special's elementary helpers (cbrt, exp2, exp10, expm1, log1p,
cosm1, exprel, round, radian, the trigonometric functions of degrees,
gammasgn and the Box-Cox transforms), as bodies over float64 kiln arrays
that special.py rounds to SciPy's result types; each is a few of kiln's
elementwise ops, so fusion runs it as one kernel. The degree functions
reduce modulo 360 first and are exact at multiples of 90, as SciPy's are
(SciPy's own polynomial for cotdg of tiny angles is off by 0.4%; kiln's
is not)."""
import math

from .. import _core

_DEGREE = math.pi / 180


def _where(condition, x, y):
    return _core._where(condition, x, y)


def cosm1(x):
    """cos(x) - 1 without cancellation near 0: -2 sin(x/2)^2."""
    half = _core.sin(x * 0.5)
    return -2.0 * half * half


def exp10(x):
    return _core.power(10.0, x)


def exprel(x):
    """(e^x - 1)/x, 1 at 0 (and below 1e-16 in size, as SciPy's)."""
    small = _core.abs(x) < 1e-16
    return _where(x == math.inf, math.inf, _where(small, 1.0, _core.expm1(x) / _where(small, 1.0, x)))


def radian(degrees, minutes, seconds):
    return (degrees + minutes / 60.0 + seconds / 3600.0) * _DEGREE


def _reduced(x):
    """The sine and cosine of x degrees: x modulo 360 (fmod is exact, and
    keeps the sign, so tiny angles stay tiny), exact at the multiples of 90."""
    r = _core.fmod(x, 360.0)
    s, c = _core.sin(r * _DEGREE), _core.cos(r * _DEGREE)
    s = _where((r == 0) | (_core.abs(r) == 180), 0.0,
               _where((r == 90) | (r == -270), 1.0, _where((r == -90) | (r == 270), -1.0, s)))
    c = _where((_core.abs(r) == 90) | (_core.abs(r) == 270), 0.0,
               _where(r == 0, 1.0, _where(_core.abs(r) == 180, -1.0, c)))
    return s, c


def _degrees(x, value):
    """SciPy's edges: 0 beyond |x| = 1e14 (and at the infinities), where no
    digit of the reduced angle is left; NaN stays NaN."""
    return _where(_core.abs(x) > 1e14, 0.0, value)


def sindg(x):
    return _degrees(x, _reduced(x)[0])


def cosdg(x):
    return _degrees(x, _reduced(x)[1])


def tandg(x):
    """tan of degrees; infinite (positive, as SciPy's) where the cosine is 0."""
    s, c = _reduced(x)
    return _degrees(x, _where(c == 0, math.inf, s / _where(c == 0, 1.0, c)))


def cotdg(x):
    s, c = _reduced(x)
    return _degrees(x, _where(s == 0, math.inf, c / _where(s == 0, 1.0, s)))


def gammasgn(x):
    """The sign of Gamma(x): 1 for x > 0 (and +0), -1 for -0, NaN at the
    poles and -inf, and (-1)^ceil(-x) between the negative integers."""
    negative_side = _where(_core.remainder(_core.ceil(-x), 2.0) == 1, -1.0, 1.0)
    value = _where(x > 0, 1.0, negative_side)
    value = _where(x == 0, _core.copysign(1.0, x), value)
    pole = (x < 0) & (_core.floor(x) == x)
    return _where(pole | _core.isnan(x), math.nan, value)


def boxcox(x, lmbda):
    """(x^l - 1)/l, log(x) at l = 0 (SciPy's expm1 form)."""
    logs = _core.log(x)
    return _where(lmbda == 0, logs, _core.expm1(lmbda * logs) / _where(lmbda == 0, 1.0, lmbda))


def boxcox1p(x, lmbda):
    logs = _core.log1p(x)
    return _where(lmbda == 0, logs, _core.expm1(lmbda * logs) / _where(lmbda == 0, 1.0, lmbda))


def inv_boxcox(y, lmbda):
    return _where(lmbda == 0, _core.exp(y), _core.exp(_core.log1p(lmbda * y) / _where(lmbda == 0, 1.0, lmbda)))


def inv_boxcox1p(y, lmbda):
    return _where(lmbda == 0, _core.expm1(y), _core.expm1(_core.log1p(lmbda * y) / _where(lmbda == 0, 1.0, lmbda)))
