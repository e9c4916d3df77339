"""scipy.special.lpmv: the associated Legendre function P_v^m(x) of integer
order m and real degree v, with the Condon-Shortley phase, as SciPy's, on
kiln arrays of either device (float64 arrays in; special.py rounds to
SciPy's result type).

A degree below -1/2 is reflected first (P_v = P_(-v-1)). Integer degrees
recur upward in the degree from P_a^a (a = |m|), as sph_harm_y does but
unnormalised: stable, and exact where the hypergeometric series would
cancel (near x = -1 its terms reach 1e58 for degree 50); they are
polynomials, so x outside [-1, 1] has a value for order 0. Other degrees
sum (1/2)^a (1 - x^2)^(a/2) times the a-th derivative of 2F1(-v, v + 1; 1;
z), z = (1 - x)/2, term by term until every element's next term is below
rounding (for order 0 also on 1 < x < 3, where it still converges); near x = -1, where that takes more than _TERMS terms, the value
is NaN rather than a wrong number (SciPy's own rule outside its domain).
A negative order is (-1)^a Gamma(v-a+1)/Gamma(v+a+1) P_v^a, NaN where
a > v for integer v (as SciPy's); an order that is not an integer gives
NaN."""
import math

from .. import _core
from .._numpy.creation import zeros_like
from .._numpy.statistics.reductions import max as maximum

_TERMS = 20_000


def _where(condition, x, y):
    return _core._where(condition, x, y)


def _recurrence(a, n, x):
    """Integer degree n >= 0, order 0 <= a: P_a^a = (-1)^a (2a-1)!!
    (1-x^2)^(a/2), then (l - a) P_l^a = (2l-1) x P_(l-1)^a - (l+a-1)
    P_(l-2)^a up to n; zero where a > n."""
    s = _core.sqrt(1.0 - x * x)
    top = int(maximum(n)) if n.size else 0
    value = zeros_like(x) + 1.0
    for k in range(1, top + 1):
        value = _where(a >= k, value * (-(2.0 * k - 1)) * s, value)
    previous = zeros_like(x)
    for level in range(1, top + 1):
        step = (a < level) & (level <= n)
        following = ((2.0 * level - 1) * x * value - (level + a - 1.0) * previous) / _where(step, level - a, 1.0)
        previous, value = _where(step, value, previous), _where(step, following, value)
    return _where(a > n, 0.0, value)


def _series(a, v, x):
    """Non-integer degree v, order a >= 0, -1 < x <= 1; NaN where the sum
    has not settled within _TERMS terms."""
    z = (1.0 - x) * 0.5
    # the first term (-v)_a (v+1)_a / a!, its sign from the factors of (-v)_a
    term = _core.exp(_core.gammaln(a - v) - _core.gammaln(-v) + _core.gammaln(a + v + 1) - _core.gammaln(v + 1)
                     - _core.gammaln(a + 1))
    top = int(maximum(a)) if a.size else 0
    for i in range(top):
        term = _where((i < a) & (i - v < 0), -term, term)
    total = term
    settled = False
    for j in range(_TERMS):
        term = term * ((a + j - v) * (a + j + v + 1.0) / ((a + j + 1.0) * (j + 1.0))) * z
        total = total + term
        if j % 16 == 15 and not bool(_core.any(_core.abs(term) > 1e-17 * _core.abs(total))):
            settled = True
            break
    if not settled:
        total = _where(_core.abs(term) > 1e-17 * _core.abs(total), math.nan, total)
    return total * _core.exp(-a * math.log(2.0)) * _core.power(1.0 - x * x, a * 0.5)


def lpmv(order, degree, x):
    """P_degree^order(x) of float64 kiln arrays (broadcast together)."""
    from .._numpy.manipulation.shape import broadcast_arrays

    order, degree, x = broadcast_arrays(order, degree, x)
    v = _where(degree < -0.5, -degree - 1.0, degree)
    integer_order = _core.floor(order) == order
    a = _core.abs(_where(integer_order, order, 0.0))
    integer_degree = _core.floor(v) == v
    value = zeros_like(x)
    if bool(_core.any(integer_degree)):
        value = _where(integer_degree, _recurrence(a, _where(integer_degree, v, 0.0), x), value)
    # the series converges for |z| < 1, -1 < x < 3; beyond x = 1 only order 0 is real
    other = ~integer_degree & (x > -1) & ((x <= 1) | ((x < 3) & (a == 0)))
    if bool(_core.any(other)):
        value = _where(other, _series(a, _where(other, v, 0.5), _where(other, x, 0.0)), value)
    # x = -1 for a degree that is not an integer: the logarithmic pole, with
    # SciPy's signs (-inf for order 0, inf for the others)
    pole = ~integer_degree & (x == -1)
    value = _where(pole, _where(a == 0, -math.inf, math.inf), value)
    negative = _where(integer_order, order, 0.0) < 0
    # (-1)^a Gamma(v-a+1) / Gamma(v+a+1); v + a + 1 > 0, so the sign is Gamma(v-a+1)'s
    factor = _core.exp(_core.gammaln(v - a + 1) - _core.gammaln(v + a + 1)) * _where(
        _core.remainder(a, 2) == 1, -1.0, 1.0) * _core.sign(_core.gamma(v - a + 1))
    value = _where(negative & ~pole, _where(integer_degree & (a > v), math.nan, factor * value), value)
    outside = (_core.abs(x) > 1) & ((a > 0) | ~integer_degree & ~other)  # (1 - x^2)^(a/2) is not real there
    return _where(~integer_order | _core.isnan(x) | _core.isnan(degree) | outside, math.nan, value)
