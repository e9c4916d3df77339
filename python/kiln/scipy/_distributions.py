"""scipy.special's distribution functions: the binomial (bdtr, bdtrc,
bdtri), negative binomial (nbdtr, nbdtrc, nbdtri), F (fdtr, fdtrc, fdtri),
gamma (gdtr, gdtrc), chi-square (chdtr, chdtrc, chdtri) and Poisson (pdtr,
pdtrc, pdtri) distributions, and the inverse regularised incomplete gamma
functions gammaincinv and gammainccinv, as Cephes relates them to the
incomplete beta and gamma functions; SciPy's values outside the domains.

The bodies take float64 kiln arrays and the incomplete functions they are
made of (special.py's), so this module imports nothing of special.py;
the inverses share _special_integrals.py's bracketed Newton iteration."""
import math

from .. import _core
from ._special_integrals import bracketed_newton


def _where(condition, x, y):
    return _core._where(condition, x, y)


def _nan_where(bad, value):
    return _where(bad, math.nan, value)


def bdtr(k, n, p, betainc):
    """P(X <= floor(k)) for X ~ Binomial(floor(n), p): I_(1-p)(n - k, k + 1)."""
    k, n = _core.floor(k), _core.floor(n)
    bad = (p < 0) | (p > 1) | (k < 0) | (n < k) | _core.isnan(p)
    inside = ~bad & (k < n)
    value = betainc(_where(inside, n - k, 1.0), k + 1, 1.0 - p)
    return _nan_where(bad | _core.isnan(k), _where(k == n, 1.0, value))


def bdtrc(k, n, p, betainc):
    """P(X > floor(k)): I_p(k + 1, n - k); 1 below k = 0, 0 from k = n."""
    k, n = _core.floor(k), _core.floor(n)
    bad = (p < 0) | (p > 1) | (n < k) | _core.isnan(p)
    inside = ~bad & (k >= 0) & (k < n)
    value = betainc(k + 1, _where(inside, n - k, 1.0), p)
    return _nan_where(bad | _core.isnan(k), _where(k < 0, 1.0, _where(k == n, 0.0, value)))


def bdtri(k, n, y, betaincinv):
    """The p with bdtr(k, n, p) = y: 1 - I^-1_y(n - k, k + 1)."""
    k, n = _core.floor(k), _core.floor(n)
    bad = (y < 0) | (y > 1) | (k < 0) | (n <= k)
    value = 1.0 - betaincinv(_where(bad, 1.0, n - k), k + 1, y)
    return _nan_where(bad | _core.isnan(k), value)


def nbdtr(k, n, p, betainc):
    """P(X <= floor(k)) for X failures before the floor(n)-th success: I_p(n, k + 1)."""
    k, n = _core.floor(k), _core.floor(n)
    bad = (p < 0) | (p > 1) | (k < 0) | (n <= 0)
    return _nan_where(bad | _core.isnan(k), betainc(_where(bad, 1.0, n), k + 1, p))


def nbdtrc(k, n, p, betainc):
    k, n = _core.floor(k), _core.floor(n)
    bad = (p < 0) | (p > 1) | (k < 0) | (n <= 0)
    return _nan_where(bad | _core.isnan(k), betainc(k + 1, _where(bad, 1.0, n), 1.0 - p))


def nbdtri(k, n, y, betaincinv):
    """The p with nbdtr(k, n, p) = y: I^-1_y(n, k + 1); 0 and 1 at the
    ends of y whatever n (SciPy's)."""
    k, n = _core.floor(k), _core.floor(n)
    bad = (y < 0) | (y > 1) | (k < 0) | _core.isnan(k) | _core.isnan(y)
    value = _nan_where(n <= 0, betaincinv(_where(n <= 0, 1.0, n), k + 1, y))
    return _nan_where(bad, _where(y == 0, 0.0, _where(y == 1, 1.0, value)))


def fdtr(a, b, x, betainc):
    """The F distribution's CDF: I_w(a/2, b/2), w = a x / (b + a x)."""
    bad = (a <= 0) | (b <= 0) | (x < 0)
    w = a * x / (b + a * x)
    return _nan_where(bad, _where(_core.isinf(x), 1.0, betainc(0.5 * a, 0.5 * b, _where(bad, 0.5, w))))


def fdtrc(a, b, x, betainc):
    bad = (a <= 0) | (b <= 0) | (x < 0)
    w = b / (b + a * x)
    return _nan_where(bad, _where(_core.isinf(x), 0.0, betainc(0.5 * b, 0.5 * a, _where(bad, 0.5, w))))


def fdtri(a, b, y, betaincinv):
    """The x with fdtr(a, b, x) = y."""
    bad = (a <= 0) | (b <= 0) | (y < 0) | (y > 1)
    w = betaincinv(0.5 * a, 0.5 * b, y)
    return _nan_where(bad, _where(y == 1, math.inf, b * w / (a * (1.0 - w))))


def gdtr(a, b, x, gammainc):
    """The gamma distribution's CDF (rate a, shape b): P(b, a x)."""
    return _nan_where(x < 0, gammainc(b, a * x))


def gdtrc(a, b, x, gammaincc):
    return _nan_where(x < 0, gammaincc(b, a * x))


def chdtr(v, x, gammainc):
    """The chi-square CDF with v degrees of freedom: P(v/2, x/2)."""
    return _nan_where((v < 0) | (x < 0), _where((v == 0) & (x > 0), 1.0, gammainc(0.5 * v, 0.5 * x)))


def chdtrc(v, x, gammaincc):
    return _nan_where((v < 0) | (x < 0), _where((v == 0) & (x > 0), 0.0, gammaincc(0.5 * v, 0.5 * x)))


def chdtri(v, y, gammainccinv):
    """The x with chdtrc(v, x) = y: 2 Q^-1(v/2, y)."""
    bad = (v < 0) | (y < 0) | (y > 1)
    return _nan_where(bad, 2.0 * gammainccinv(_where(bad, 1.0, 0.5 * v), y))


def pdtr(k, m, gammaincc):
    """P(X <= floor(k)) for X ~ Poisson(m): Q(floor(k) + 1, m)."""
    k = _core.floor(k)
    bad = (k < 0) | (m < 0)
    return _nan_where(bad | _core.isnan(k), _where(m == 0, 1.0, gammaincc(k + 1, m)))


def pdtrc(k, m, gammainc):
    k = _core.floor(k)
    bad = (k < 0) | (m < 0)
    return _nan_where(bad | _core.isnan(k), _where(m == 0, 0.0, gammainc(k + 1, m)))


def pdtri(k, y, gammainccinv):
    """The m with pdtr(k, m) = y: Q^-1(floor(k) + 1, y); NaN at y = 1 (SciPy's)."""
    k = _core.floor(k)
    bad = (k < 0) | (y < 0) | (y >= 1)
    return _nan_where(bad | _core.isnan(k), gammainccinv(k + 1, _where(bad, 0.5, y)))


def gammaincinv(a, y, incomplete, gammaln, upper=False):
    """The x with P(a, x) = y (Q(a, x) = y with `upper`; `incomplete` is the
    one of P and Q it inverts): bracketed Newton steps (_special_integrals)
    on the incomplete gamma function, whose derivative is x^(a-1) e^-x /
    Gamma(a), from x = a on the open bracket (0, inf); 0 and inf at the ends
    of [0, 1] (the other way round for Q), NaN outside a > 0, 0 <= y <= 1."""
    inner = (a > 0) & _core.isfinite(a) & (y > 0) & (y < 1)
    p = _where(inner, a, 1.0)
    target = _where(inner, y, 0.5)
    log_gamma = gammaln(p)
    sign = -1.0 if upper else 1.0  # Q falls as x grows
    x = bracketed_newton(lambda x: sign * (incomplete(p, x) - target),
                         lambda x: _core.exp((p - 1) * _core.log(x) - x - log_gamma), p, math.inf, 200)
    result = _where(inner, x, math.nan)
    zero_end, infinite_end = (y == 1, y == 0) if upper else (y == 0, y == 1)
    valid = a >= 0
    result = _where(zero_end & valid, 0.0, _where(infinite_end & valid, math.inf, result))
    return _where(_core.isnan(a) | _core.isnan(y), math.nan, result)
