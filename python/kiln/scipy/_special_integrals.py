"""scipy.special's beta family (beta, betaln, binom) and exponential
integrals (exp1, expi, expn), composed from kiln's ops in double precision,
vectorised with fixed iteration counts (masked where an element needs none),
for kiln.scipy.special's ufuncs. The algorithms are the classical ones
(Cephes' beta and lbeta with their large-argument asymptotics, the
multiplication formula of binomial coefficients for small integer k; the
power series below 1 and the continued fraction above it for E_n, the
power series and the asymptotic series for Ei)."""
import math

from .. import _core

_EULER = 0.5772156649015329
_MAXGAM = 171.624376956302725
_ASYMP_FACTOR = 1e6


def _where(condition, x, y):
    return _core._where(condition, x, y)


def _is_integer(x):
    return x == _core.floor(x)


def _gamma_sign(x):
    """The sign of Gamma(x): +1 above 0, alternating between the negative integers."""
    return _where(x > 0, 1.0, _where(_core.remainder(_core.floor(x), 2.0) == 0, 1.0, -1.0))


def _log_beta_parts(a, b, gammaln):
    """(log|B(a, b)|, sign of B(a, b)) for a, b away from the poles, |a| >= |b|."""
    asymptotic = (_core.abs(a) > _ASYMP_FACTOR * _core.abs(b)) & (a > _ASYMP_FACTOR)
    # log B ~ lgamma(b) - b log a + b(1-b)/(2a) + b(1-b)(1-2b)/(12a^2) - b^2 (1-b)^2 / (12 a^3)
    safe_a = _where(asymptotic, a, 1.0)
    tail = (gammaln(b) - b * _core.log(safe_a) + b * (1 - b) / (2 * safe_a)
            + b * (1 - b) * (1 - 2 * b) / (12 * safe_a * safe_a)
            - b * b * (1 - b) * (1 - b) / (12 * safe_a * safe_a * safe_a))
    general = gammaln(a) + gammaln(b) - gammaln(a + b)
    sign = _gamma_sign(a) * _gamma_sign(b) * _gamma_sign(a + b)
    return _where(asymptotic, tail, general), _where(asymptotic, _gamma_sign(b), sign)


def _ordered(a, b):
    swap = _core.abs(a) < _core.abs(b)
    return _where(swap, b, a), _where(swap, a, b)


def _negative_integer_pole(a, b, other):
    """Cephes' beta at a non-positive integer a: +-B(1 - a - b, b) when b is a
    finite integer with 1 - a - b > 0 (infinite if b is a pole too), else
    infinite (a = -inf included)."""
    finite = _is_integer(b) & _core.isfinite(b) & _core.isfinite(a) & (1 - a - b > 0)
    sign = _where(_core.remainder(b, 2.0) == 0, 1.0, -1.0)
    regular = finite & (b > 0)
    # where b is a non-positive integer too, B(1 - a - b, b) is itself at a pole: infinite
    inner = _where(regular, other(_where(regular, 1 - a - b, 1.0), _where(regular, b, 1.0)), math.inf)
    return _where(finite, sign * inner, math.inf)


def beta(a, b, gamma, gammaln):
    def regular(a, b):
        a, b = _ordered(a, b)
        log_value, sign = _log_beta_parts(a, b, gammaln)
        y = a + b
        small = (_core.abs(y) < _MAXGAM) & (_core.abs(a) < _MAXGAM) & (_core.abs(b) < _MAXGAM) & \
            ~((_core.abs(a) > _ASYMP_FACTOR * _core.abs(b)) & (a > _ASYMP_FACTOR))
        ga, gb, gy = gamma(_where(small, a, 1.0)), gamma(_where(small, b, 1.0)), gamma(_where(small, y, 1.0))
        direct = _where(_core.abs(_core.abs(ga) - _core.abs(gy)) > _core.abs(_core.abs(gb) - _core.abs(gy)),
                        gb / gy * ga, ga / gy * gb)
        direct = _where(gy == 0, math.inf, direct)
        return _where(small, direct, sign * _core.exp(log_value))

    a_pole = (a <= 0) & _is_integer(a)
    b_pole = (b <= 0) & _is_integer(b)
    clean_a, clean_b = _where(a_pole | b_pole, 0.5, a), _where(a_pole | b_pole, 0.5, b)
    result = regular(clean_a, clean_b)
    result = _where(a_pole, _negative_integer_pole(a, b, regular), result)
    result = _where(b_pole & ~a_pole, _negative_integer_pole(b, a, regular), result)
    # Cephes looks for a pole first (-inf counts as one): NaN only without one
    return _where((_core.isnan(a) | _core.isnan(b)) & ~(a_pole | b_pole), math.nan, result)


def betaln(a, b, gamma, gammaln):
    value = beta(a, b, gamma, gammaln)
    a2, b2 = _ordered(a, b)
    log_value, _ = _log_beta_parts(a2, b2, gammaln)
    # where B itself over- or underflows, its logarithm from the log-gamma parts
    tiny = (value == 0) | _core.isinf(value)
    poles = ((a <= 0) & _is_integer(a)) | ((b <= 0) & _is_integer(b))
    return _where(tiny & ~poles, log_value, _core.log(_core.abs(value)))


def binom(n, k, gamma, gammaln):
    """Binomial coefficients of real n and k: the multiplication formula for
    integer 0 <= k < 20 (after k -> n - k for integer n), else 1 / ((n + 1) B(1 + n - k, 1 + k))."""
    integer_k = _is_integer(k) & ((_core.abs(n) > 1e-8) | (n == 0))
    kx = _core.floor(k)
    kx = _where(_is_integer(n) & (kx > n / 2) & (n > 0), n - kx, kx)
    product_case = integer_k & (kx >= 0) & (kx < 20)
    numerator, denominator = 1.0, 1.0
    for i in range(1, 20):
        live = product_case & (i <= kx)
        numerator = _where(live, numerator * (i + n - kx), numerator)
        denominator = _where(live, denominator * i, denominator)
    product = numerator / denominator
    general = 1 / (n + 1) / beta(1 + n - k, 1 + k, gamma, gammaln)
    result = _where(product_case, product, general)
    undefined = (n < 0) & _is_integer(n)
    return _where(undefined | _core.isnan(n) | _core.isnan(k), math.nan, result)


def expn(n, x, digamma):
    """E_n(x) for n >= 0 (truncated to an integer) and x >= 0: exp(-x)/x for n = 0; the power
    series for x <= 1; the continued fraction (modified Lentz) above."""
    n = _core.trunc(n)  # SciPy's loop takes an integer n: a float one is truncated
    bad = (n < 0) | (x < 0) | _core.isnan(n) | _core.isnan(x)
    m = n - 1
    small = x <= 1
    xs = _where(small & (x > 0), x, 0.5)
    # power series: 1/(n-1) (or -ln x - gamma for n = 1), then the terms, the one at i = n-1 special
    series = _where(m != 0, 1 / _where(m != 0, m, 1.0), -_core.log(xs) - _EULER)
    psi = digamma(_where(n > 0, n, 1.0))
    factor = 1.0
    for i in range(1, 60):
        factor = factor * (-xs / i)
        term = _where(m != i, -factor / _where(m != i, i - m, 1.0), factor * (-_core.log(xs) + psi))
        series = series + term
    # continued fraction
    xl = _where(small, 2.0, x)
    b = xl + n
    c = 1e300
    d = 1 / b
    h = d
    for i in range(1, 120):
        an = -i * (m + i)
        b = b + 2
        d = 1 / (an * d + b)
        c = b + an / c
        h = h * (c * d)
    fraction = h * _core.exp(-xl)
    result = _where(small, series, fraction)
    result = _where(n == 0, _core.exp(-x) / x, result)
    at_zero = _where(n <= 1, math.inf, 1 / _where(n > 1, m, 1.0))
    result = _where(x == 0, at_zero, result)
    result = _where(_core.isinf(x) & (x > 0), 0.0, result)
    return _where(bad, math.nan, result)


def exp1(x, digamma):
    return expn(_where(x == x, 1.0, x), x, digamma)  # n = 1 (NaN where x is)


def expi(x, digamma):
    """Ei(x): -E_1(-x) below 0; the power series gamma + ln x + sum x^k/(k k!)
    up to 40, the asymptotic series e^x/x sum k!/x^k above."""
    positive = x > 0
    xs = _where(positive & (x <= 40), x, 1.0)
    total, term = 0.0, 1.0
    for k in range(1, 140):
        term = term * xs / k
        total = total + term / k
    series = _EULER + _core.log(xs) + total
    xl = _where(x > 40, x, 41.0)
    asymptotic, term = 1.0, 1.0
    for k in range(1, 25):
        term = term * k / xl
        asymptotic = asymptotic + term
    asymptotic = _core.exp(xl) / xl * asymptotic
    negative = -exp1(_where(x < 0, -x, 1.0), digamma)
    xl = _where(_core.isinf(x), 41.0, xl)
    result = _where(x <= 40, series, asymptotic)
    result = _where(x < 0, negative, result)
    result = _where(x == 0, -math.inf, _where(x == math.inf, math.inf, result))
    return _where(_core.isnan(x), math.nan, result)


_TINY = 1e-300  # the modified Lentz method's stand-in for a zero denominator


def _lentz_step(numerator, denominator, c, d, h):
    """The continued fraction's next term numerator / (denominator + ...) by
    the modified Lentz method: the updated (c, d, h), h the value so far."""
    d = numerator * d + denominator
    d = 1.0 / _where(_core.abs(d) < _TINY, _TINY, d)
    c = denominator + numerator / c
    c = _where(_core.abs(c) < _TINY, _TINY, c)
    return c, d, h * d * c


def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (DLMF 8.17.22) by the modified
    Lentz method, a fixed 300 pairs of terms: converges fast for
    x < (a + 1) / (a + b + 2), where it is used."""
    c = 1.0 + 0 * x
    d = 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / _where(_core.abs(d) < _TINY, _TINY, d)
    h = d
    for m in range(1, 301):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            c, d, h = _lentz_step(numerator, 1.0, c, d, h)
    return h


def betainc(a, b, x, betaln):
    """The regularised incomplete beta function I_x(a, b): x^a (1 - x)^b /
    (a B(a, b)) times the continued fraction, or 1 - I_(1-x)(b, a) above
    x = (a + 1) / (a + b + 2); SciPy's limits at a or b zero or infinite,
    0 at x = 0 and 1 at x = 1, NaN outside a, b >= 0 and 0 <= x <= 1."""
    flip = x * (a + b + 2) > a + 1
    inner = (a > 0) & (b > 0) & _core.isfinite(a) & _core.isfinite(b) & (x > 0) & (x < 1)
    p = _where(inner, _where(flip, b, a), 1.0)
    q = _where(inner, _where(flip, a, b), 1.0)
    y = _where(inner, _where(flip, 1 - x, x), 0.5)
    front = _core.exp(p * _core.log(y) + q * _core.log1p(-y) - betaln(p, q)) / p
    value = front * _beta_fraction(p, q, y)
    result = _where(flip, 1 - value, value)
    # The limits: a = 0 or b = inf puts all the mass at 0 (I = 1 for x > 0);
    # b = 0 or a = inf at 1 (I = 0 for x < 1).
    result = _where((a == 0) | (b == math.inf), 1.0, _where((b == 0) | (a == math.inf), 0.0, result))
    result = _where(x == 0, 0.0, _where(x == 1, 1.0, result))
    invalid = ((a < 0) | (b < 0) | (x < 0) | (x > 1) | ((a == 0) & (b == 0))
               | ((a == math.inf) & (b == math.inf)) | _core.isnan(a) | _core.isnan(b) | _core.isnan(x))
    return _where(invalid, math.nan, result)


def bracketed_newton(residual, density, x, high, steps):
    """The root of residual(x) (increasing in x, density its derivative)
    above 0 and below `high` (inf for an open bracket): Newton's steps, each
    kept inside the bracket that the signs of the residuals narrow, a
    bisection where a step would leave it (a doubling while the bracket is
    still open), until no x moves or `steps` run out."""
    low, high = 0.0 * x, high + 0.0 * x
    for step in range(steps):
        r = residual(x)
        low = _where(r < 0, x, low)
        high = _where(r > 0, x, high)
        newton = x - r / density(x)
        inside = (newton > low) & (newton < high) & _core.isfinite(newton)
        fallback = _where(_core.isinf(high), 2.0 * x + 1.0, 0.5 * (low + high))
        moved = _where(r == 0, x, _where(inside, newton, fallback))
        # (an open bracket, high = inf, has not narrowed to anything)
        settled = (_core.abs(moved - x) <= 4e-16 * _core.abs(x)) | (_core.isfinite(high) & (high - low <= 4e-16 * high))
        x = moved
        if step % 5 == 4 and bool(settled.all()):
            break
    return x


def betaincinv(a, b, y, betaln):
    """The x with I_x(a, b) = y: bracketed Newton steps on betainc (whose
    derivative is x^(a-1) (1-x)^(b-1) / B(a, b)) within [0, 1]; SciPy's 0
    at y = 0 and 1 at y = 1, NaN outside a, b > 0 and 0 <= y <= 1 and for
    an infinite a or b."""
    inner = (a > 0) & (b > 0) & _core.isfinite(a) & _core.isfinite(b) & (y > 0) & (y < 1)
    p = _where(inner, a, 1.0)
    q = _where(inner, b, 1.0)
    target = _where(inner, y, 0.5)
    log_beta = betaln(p, q)
    x = bracketed_newton(lambda x: betainc(p, q, x, betaln) - target,
                         lambda x: _core.exp((p - 1) * _core.log(x) + (q - 1) * _core.log1p(-x) - log_beta),
                         p / (p + q), 1.0, 100)
    result = _where(inner, x, math.nan)
    valid = (a > 0) & (b > 0)
    result = _where((y == 0) & valid, 0.0, _where((y == 1) & valid, 1.0, result))
    return _where(_core.isnan(a) | _core.isnan(b) | _core.isnan(y), math.nan, result)
