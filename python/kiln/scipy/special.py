"""kiln.scipy.special: scipy.special's functions for code ported from
``cupyx.scipy.special``, as kiln ufuncs on every device.

erf, erfc, erfinv, erfcinv, gammaln, gamma, j0, j1, y0 and y1 are kiln ops
(include/kiln/device/special_functions.h: CUDA's math library on the GPU,
the C library's on the CPU). The others are composed from kiln's ops in
double precision, rounded once to the result type as SciPy's float32 loops
do; kiln's fusion merges their elementwise steps, though the long series
(gammainc, the Bessel functions, zeta) still cost many operations a call,
where a C++ op would cost one. Result types follow SciPy's loops:
float32 stays float32, and the other real dtypes go to float64, or to
float32 where SciPy lists its float32 loop first (erfinv, erfcinv, entr,
rel_entr, kl_div, huber, pseudo_huber, ndtri, zeta, exp1, expi, binom).
The beta family and the exponential integrals (beta, betaln, betainc,
betaincinv, binom, exp1, expi, expn) are in _special_integrals.py, the
Lambert W function (of complex z, every branch) in _lambertw.py, gamma,
loggamma, rgamma and digamma of complex z in _complex_gamma.py, the
spherical harmonics in _spherical_harmonics.py, lpmv in _legendre.py,
the elementary helpers (cbrt, exp10, cosm1, exprel, the degree
trigonometry, gammasgn, Box-Cox...) in _elementary.py, the distribution
functions (bdtr... pdtri) and gammaincinv/gammainccinv in _distributions.py. The Bessel functions of
real order (jv, yv, iv, kv, ive, kve, yn) are one kernel each call
(include/kiln/device/bessel_real_order.cuh), not fused. Complex
arguments are not supported elsewhere (expm1 and log1p take them as NumPy's)."""
import math

import numpy as np

from .. import _core
from .._numpy.creation import asarray
from .._numpy.math.elementwise import real as _real
from .._numpy.math.elementwise_composed import sinc  # noqa: F401  (scipy.special.sinc is NumPy's: sin(pi x) / (pi x))
from ._host_arrays import on_one_device
from ._lambertw import lambertw  # noqa: F401
from ._spherical_harmonics import sph_harm, sph_harm_y  # noqa: F401
from .._core import result_type
from .._numpy.math.ufunc import ufunc

_SQRT_HALF = math.sqrt(0.5)


def _op(name):
    return ufunc(name, getattr(_core, name), 1)


erf, erfc, erfinv, erfcinv, gammaln, j0, j1, y0, y1 = (
    _op(n) for n in ("erf", "erfc", "erfinv", "erfcinv", "gammaln", "j0", "j1", "y0", "y1"))


def _real_or_complex(real_body, complex_body):
    """A body for SciPy's functions that also take complex arguments:
    complex input goes to `complex_body`, the rest to `real_body`."""
    def function(x, /):
        x = asarray(x)
        return complex_body(x) if x.dtype.kind == "c" else real_body(x)
    return function


def _in_complex(name):
    """_complex_gamma.py's `name`, computed in complex128 and returned in the
    argument's complex type (SciPy's 'F->F' and 'D->D' loops)."""
    def function(z):
        from . import _complex_gamma

        return getattr(_complex_gamma, name)(z.astype(np.complex128)).astype(z.dtype)
    return function


gamma = ufunc("gamma", _real_or_complex(_core.gamma, _in_complex("gamma")), 1)


def _floats(name, args, float32_first=False):
    """The arguments as float64 kiln arrays, and SciPy's result type for
    them. As SciPy's float32 loops do, kiln computes in double precision and
    rounds the result once (the composed formulas cancel digits in float32)."""
    arrays = on_one_device(args)  # Python and NumPy scalars go where the kiln arrays are
    promoted = np.dtype(result_type(*args)) if len(args) > 1 else np.dtype(arrays[0].dtype)
    if promoted.kind == "c":
        raise TypeError(f"{name}: complex arguments are not supported")
    if promoted in (np.float32, np.float64):
        loop = promoted
    elif float32_first and np.can_cast(promoted, np.float32, "safe"):
        loop = np.dtype(np.float32)
    else:
        loop = np.dtype(np.float64)
    return [a.astype(np.float64, copy=False) for a in arrays] + [loop]


def _where(condition, x, y):
    return _core._where(condition, x, y)


def _expit(x, /):
    x, loop = _floats("expit", [x])
    return (1 / (1 + _core.exp(-x))).astype(loop)


def _logit(p, /):
    p, loop = _floats("logit", [p])
    return _core.log(p / (1 - p)).astype(loop)


def _log_expit(x, /):
    x, loop = _floats("log_expit", [x])
    # -log(1 + e^-x), computed where e^(-|x|) cannot overflow
    return _where(x >= 0, -_core.log1p(_core.exp(-x)), x - _core.log1p(_core.exp(x))).astype(loop)


def _xlogy(x, y, /):
    x, y, loop = _floats("xlogy", [x, y])
    return _where((x == 0) & ~_core.isnan(y), 0, x * _core.log(y)).astype(loop)


def _xlog1py(x, y, /):
    x, y, loop = _floats("xlog1py", [x, y])
    return _where((x == 0) & ~_core.isnan(y), 0, x * _core.log1p(y)).astype(loop)


def _entr(x, /):
    x, loop = _floats("entr", [x], float32_first=True)
    inside = _where(x > 0, -x * _core.log(_where(x > 0, x, 1)), _where(x == 0, 0, -math.inf))
    return _where(_core.isnan(x), x, inside).astype(loop)


def _rel_entr(x, y, /):
    x, y, loop = _floats("rel_entr", [x, y], float32_first=True)
    both = (x > 0) & (y > 0)
    safe_x, safe_y = _where(both, x, 1), _where(both, y, 1)
    inside = _where(both, x * _core.log(safe_x / safe_y), _where((x == 0) & (y >= 0), 0, math.inf))
    return _where(_core.isnan(x) | _core.isnan(y), math.nan, inside).astype(loop)


def _kl_div(x, y, /):
    x, y, loop = _floats("kl_div", [x, y], float32_first=True)
    both = (x > 0) & (y > 0)
    safe_x, safe_y = _where(both, x, 1), _where(both, y, 1)
    inside = _where(both, x * _core.log(safe_x / safe_y) - x + y, _where((x == 0) & (y >= 0), y, math.inf))
    return _where(_core.isnan(x) | _core.isnan(y), math.nan, inside).astype(loop)


def _huber(delta, r, /):
    delta, r, loop = _floats("huber", [delta, r], float32_first=True)
    size = _core.abs(r)
    inside = _where(size <= delta, r * r / 2, delta * (size - delta / 2))
    return _where(delta < 0, math.inf, inside).astype(loop)


def _pseudo_huber(delta, r, /):
    delta, r, loop = _floats("pseudo_huber", [delta, r], float32_first=True)
    scaled = r / _where(delta == 0, 1, delta)
    inside = delta * delta * _core.expm1(0.5 * _core.log1p(scaled * scaled))  # sqrt(1 + s^2) - 1 without cancellation
    return _where(delta < 0, math.inf, _where(delta == 0, 0, inside)).astype(loop)


def _ndtr(x, /):
    x, loop = _floats("ndtr", [x])
    return (0.5 * erfc(-x * _SQRT_HALF)).astype(loop)


def _log_ndtr(x, /):
    """log of the normal distribution function: log1p(-Q) above 0, log of
    erfc down to -20 (erfc underflows near -38), and below
    it the asymptotic series of the Mills ratio."""
    x, loop = _floats("log_ndtr", [x])
    low = -20.0
    upper = _core.log1p(-0.5 * erfc(_where(x > 0, x, 0) * _SQRT_HALF))
    middle = _core.log(0.5 * erfc(-_where((x <= 0) & (x >= low), x, 0) * _SQRT_HALF))
    far = _where(x < low, x, low)
    inverse_square = 1 / (far * far)
    series = 1 + inverse_square * (-1 + inverse_square * (3 + inverse_square * (-15 + inverse_square * 105)))
    tail = -far * far / 2 - _core.log(-far) - 0.5 * math.log(2 * math.pi) + _core.log(series)
    result = _where(x > 0, upper, _where(x >= low, middle, tail))
    return _where(_core.isnan(x), x, result).astype(loop)


def _ndtri(p, /):
    p, loop = _floats("ndtri", [p], float32_first=True)
    return (-math.sqrt(2) * erfcinv(2 * p)).astype(loop)


def _erfcx(x, /):
    """exp(x^2) erfc(x): the product up to 25, above it the asymptotic series
    1/(x sqrt(pi)) sum (-1)^n (2n-1)!! / (2x^2)^n (the product underflows)."""
    x, loop = _floats("erfcx", [x])
    near = _where(x < 25, x, 0)
    product = _core.exp(near * near) * erfc(near)
    far = _where(x >= 25, x, 25)
    half_inverse_square = 1 / (2 * far * far)
    series, term = 1.0, 1.0
    for n in range(1, 7):
        term = term * -(2 * n - 1) * half_inverse_square
        series = series + term
    asymptotic = series / (far * math.sqrt(math.pi))
    return _where(_core.isnan(x), x, _where(x < 25, product, asymptotic)).astype(loop)


def _digamma(x, /):
    """psi(x): shifted up past 10 by psi(y) = psi(y + 1) - 1/y, then the
    asymptotic series in 1/y^2; below 0, the reflection
    psi(x) = psi(1 - x) - pi / tan(pi x). SciPy's values at the poles:
    -inf at +0, inf at -0, NaN at the negative integers and -inf."""
    x, loop = _floats("digamma", [x])
    y = _where(x < 0, 1 - x, x)
    shifted, correction = y, 0.0
    for _ in range(10):
        small = shifted < 10
        correction = correction + _where(small, 1 / _where(small, shifted, 1), 0)
        shifted = _where(small, shifted + 1, shifted)
    inverse_square = 1 / (shifted * shifted)
    tail = inverse_square * (1 / 12 - inverse_square * (1 / 120 - inverse_square * (
        1 / 252 - inverse_square * (1 / 240 - inverse_square / 132))))
    positive = _core.log(shifted) - 0.5 / shifted - tail - correction
    reflected = positive - math.pi / _core.tan(math.pi * _where(x < 0, x, 0.5))
    result = _where(x < 0, reflected, positive)
    pole = (x < 0) & (_core.floor(x) == x)
    result = _where(pole | (x == -math.inf), math.nan, result)
    result = _where(x == 0, _where(_core.signbit(x), math.inf, -math.inf), result)
    return result.astype(loop)


def multigammaln(a, d):
    """The log of the multivariate gamma function of dimension d
    (scipy.special.multigammaln): d (d - 1) / 4 log(pi) + sum_j gammaln(a - (j - 1) / 2)."""
    from .._numpy.statistics.reductions import any as any_of

    a = asarray(a)
    if not np.isscalar(d) or math.floor(d) != d:
        raise ValueError("d should be a positive integer (dimension)")
    if bool(any_of(a <= 0.5 * (d - 1))):
        raise ValueError(f"condition a > 0.5 * (d-1) ({0.5 * (d - 1)}) not met")
    total = gammaln(a)
    for j in range(2, int(d) + 1):
        total = total + gammaln(a - (j - 1) / 2)
    return np.float64(d * (d - 1) * 0.25 * math.log(math.pi)) + total


def _rgamma(x, /):
    """1 / gamma(x): 0 at the poles (the non-positive integers and -inf)."""
    x, loop = _floats("rgamma", [x])
    pole = ((x <= 0) & (_core.floor(x) == x)) | (x == -math.inf)
    return _where(pole, 0, 1 / gamma(x)).astype(loop)


def _loggamma(x, /):
    """The principal branch of log(gamma(x)) for real x: gammaln above 0,
    inf at 0 and NaN below (where gamma's log is complex)."""
    x, loop = _floats("loggamma", [x])
    return _where(x < 0, math.nan, gammaln(x)).astype(loop)


_digamma = _real_or_complex(_digamma, _in_complex("digamma"))
_rgamma = _real_or_complex(_rgamma, _in_complex("rgamma"))
_loggamma = _real_or_complex(_loggamma, _in_complex("loggamma"))

# (2k)! / B_2k, the Euler-Maclaurin tail's coefficients (B the Bernoulli numbers).
_EULER_MACLAURIN = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1892437580.3183791606, 74724249600.0,
                    -2950130727918.164224, 116467828143500.67249, -4597978722407472.6105,
                    181521054019435467.73, -7166165256175667011.3)


def _zeta(x, q, /):
    """Hurwitz's zeta(x, q) = sum over k >= 0 of (k + q)^-x: the first terms
    until k + q > 9 (and at least nine), then the Euler-Maclaurin tail.
    inf at x = 1 and at the poles q = 0, -1, ...; NaN for x < 1, and for
    q < 0 with x not an integer, as SciPy's (Cephes's)."""
    x, q, loop = _floats("zeta", [x, q], float32_first=True)
    term = q ** -x
    total = term
    a = q
    for step in range(1, 60):  # the shift reaches past 9 for q down to -50
        more = (a <= 9) | (step <= 9)
        a = _where(more, a + 1, a)
        term = _where(more, a ** -x, term)
        total = _where(more, total + term, total)
    w = a
    total = total + term * w / (x - 1) - 0.5 * term
    factor, power = 1.0, term
    k = 0.0
    for coefficient in _EULER_MACLAURIN:
        factor = factor * (x + k)
        power = power / w
        total = total + factor * power / coefficient
        k += 1
        factor = factor * (x + k)
        power = power / w
        k += 1
    result = _where(x == 1, math.inf, total)
    result = _where(x < 1, math.nan, result)
    pole = (q <= 0) & (_core.floor(q) == q)
    result = _where(pole & (x >= 1), math.inf, _where((q < 0) & (_core.floor(x) != x), math.nan, result))
    result = _where(x == math.inf, _where(q == 1, 1.0, _where(q > 1, 0.0, result)), result)
    result = _where((q == math.inf) & (x > 1), 0.0, result)
    return _where(_core.isnan(x) | _core.isnan(q), math.nan, result).astype(loop)


def zeta(x, q=None, out=None):
    """Riemann's zeta(x), or Hurwitz's zeta(x, q) (scipy.special.zeta)."""
    value = _zeta_ufunc(x, 1.0 if q is None else q)
    if out is not None:
        out[...] = value
        return out
    return value


def polygamma(n, x):
    """The n-th derivative of digamma: (-1)^(n+1) n! zeta(n + 1, x) for n >= 1, digamma for n = 0."""
    n, x = (v.astype(np.float64) for v in on_one_device((n, x)))
    derivative = _where(_core.remainder(n, 2) == 0, -1.0, 1.0) * gamma(n + 1) * _zeta_ufunc(n + 1, x)
    return _where(n == 0, digamma(x), derivative)  # noqa: F821


def _incomplete_gamma(a, x, upper):
    """P(a, x) (or Q = 1 - P): the series sum x^n / ((a+1)...(a+n)) below
    x = a + 1, the continued fraction for Q above it (modified Lentz), each
    times e^(-x) x^a / gamma(a) taken through logarithms; SciPy's values at
    a = 0, at the infinities and outside the domain (NaN)."""
    # The series where it converges fast; for Q also the fraction where a
    # is small, since 1 - P would cancel (P is then within 1e-10 of 1).
    below = (x < a + 1) & ~(upper & (a < 1) & (x >= 0.5))
    # Series for P, where it converges fast.
    sa = _where(below & (a > 0), a, 1.0)
    sx = _where(below & (x > 0), x, 0.0)
    term = 1 / sa
    total = term
    for n in range(1, 500):
        term = term * sx / (sa + n)
        total = total + term
    series_p = total * _core.exp(-sx + sa * _core.log(_where(sx > 0, sx, 1)) - gammaln(sa))
    series_p = _where(sx > 0, series_p, 0.0)
    # Continued fraction for Q.
    ca = _where(~below & (a > 0), a, 1.0)
    cx = _where(~below & _core.isfinite(x), x, 2.0)
    b = cx + 1 - ca
    c = 1 / _integrals()._TINY + 0 * b  # the modified Lentz method's start
    d = 1 / b
    h = d
    for i in range(1, 300):
        b = b + 2
        c, d, h = _integrals()._lentz_step(-i * (i - ca), b, c, d, h)
    fraction_q = _core.exp(-cx + ca * _core.log(cx) - gammaln(ca)) * h
    result = _where(below, 1 - series_p, fraction_q) if upper else _where(below, series_p, 1 - fraction_q)
    # SciPy's edges: a = 0 is the limit (P = 1 for x > 0); x = inf gives P = 1;
    # a = inf gives P = 0 for finite x; NaN outside a >= 0, x >= 0 and at (0, 0).
    one, zero = (0.0, 1.0) if upper else (1.0, 0.0)
    result = _where((a == 0) & (x > 0), one, result)
    result = _where((x == math.inf) & _core.isfinite(a), one, result)
    result = _where((x == 0) & (a > 0), zero, result)
    result = _where((a == math.inf) & _core.isfinite(x), zero, result)
    invalid = (a < 0) | (x < 0) | _core.isnan(a) | _core.isnan(x) | ((a == 0) & (x == 0))
    invalid = invalid | ((a == math.inf) & (x == math.inf))
    return _where(invalid, math.nan, result)


def _hankel_sum(x, order, alternating):
    """Hankel's series sum over k of (+-1)^k a_k(v) / x^k, a_k(v) =
    prod_j (4 v^2 - (2j - 1)^2) / (k! 8^k), to 25 terms (x > 20): I_v's
    expansion alternates, K_v's does not."""
    term = x * 0 + 1
    total = term
    for k in range(1, 26):
        term = term * (4 * order * order - (2 * k - 1) ** 2) / (k * 8 * x) * (-1 if alternating else 1)
        total = total + term
    return total


def _bessel_i(x, order, scaled):
    """I_0 or I_1 (times e^-|x| when scaled): the power series
    sum (x/2)^(2k+v) / (k! (k+v)!) up to |x| = 20, above it Hankel's
    expansion e^x / sqrt(2 pi x) sum (-1)^k a_k(v) / x^k; I_1 is odd.
    SciPy's values at the infinities: NaN unscaled, 0 scaled."""
    size = _core.abs(x)
    small = _where(size <= 20, size, 0.0)
    quarter_square = small * small / 4
    term = small / 2 if order else small * 0 + 1
    series = term
    for k in range(1, 60):
        term = term * quarter_square / (k * (k + order))
        series = series + term
    if scaled:
        series = series * _core.exp(-small)
    large = _where(size > 20, size, 21.0)
    asymptotic = _hankel_sum(large, order, alternating=True) / _core.sqrt(2 * math.pi * large)
    if not scaled:
        asymptotic = asymptotic * _core.exp(large)
    result = _where(size <= 20, series, asymptotic)
    if order:
        result = _where(x < 0, -result, result)
    infinite = size == math.inf
    at_infinity = (_where(x < 0, -0.0, 0.0) if order else 0.0) if scaled else math.nan
    return _where(infinite, at_infinity, _where(_core.isnan(x), x, result))


def _bessel_k(x, order, scaled):
    """K_0 or K_1 (times e^x when scaled): up to x = 20 the trapezoidal rule
    over K_v(x) = integral over t > 0 of e^(-x cosh t) cosh(v t), which
    converges geometrically for an integrand analytic in a strip (step 0.05
    to t = 30), above it Hankel's expansion;
    below x = 1e-9 the leading terms of the series about 0. SciPy's values:
    inf at 0, NaN below, 0 at inf."""
    gamma_euler = 0.5772156649015329
    positive = _where(x > 0, x, 1.0)
    step = 0.05
    total = positive * 0 + 0.5  # the t = 0 node, half of e^(-x (cosh 0 - 1)) = 1
    for j in range(1, 601):
        t = j * step
        total = total + _core.exp(-positive * (math.cosh(t) - 1)) * math.cosh(order * t)
    integral = total * step  # e^x K_v(x)
    log_half = _core.log(positive / 2)
    if order == 0:
        near_zero = -(log_half + gamma_euler) * (1 + positive * positive / 4) + positive * positive / 4
    else:
        near_zero = 1 / positive + positive / 2 * (log_half + gamma_euler - 0.5)
    # Above 20 Hankel's expansion sqrt(pi / 2x) sum a_k(v) / x^k (the peak at
    # t = 0 grows narrower than the step).
    large = _where(positive > 20, positive, 21.0)
    asymptotic = _hankel_sum(large, order, alternating=False) * _core.sqrt(math.pi / (2 * large))  # e^x K_v(x)
    scaled_value = _where(positive > 20, asymptotic, integral)
    small = positive < 1e-9  # where the nodes up to t = 30 no longer reach the decay
    value = _where(small, near_zero * (_core.exp(positive) if scaled else 1.0),
                   scaled_value if scaled else scaled_value * _core.exp(-positive))
    value = _where(x == 0, math.inf, value)
    value = _where(x == math.inf, 0.0, value)
    return _where((x < 0) | _core.isnan(x), math.nan, value)


def _in_loop(name, compute, float32_first=False):
    """The ufunc body that computes `compute` on float64 arguments and
    returns it in SciPy's result type for them (`float32_first`: SciPy lists
    the float32 loop first, or decides by the arguments when callable)."""
    def function(*args):
        first = float32_first(*args) if callable(float32_first) else float32_first
        *values, loop = _floats(name, args, float32_first=first)
        return compute(*values).astype(loop)
    return function


# Functions that are one computation with parameters: name -> body.
_gammainc = _in_loop("gammainc", lambda a, x: _incomplete_gamma(a, x, False))
_gammaincc = _in_loop("gammaincc", lambda a, x: _incomplete_gamma(a, x, True))
_i0 = _in_loop("i0", lambda x: _bessel_i(x, 0, False))
_i0e = _in_loop("i0e", lambda x: _bessel_i(x, 0, True))
_i1 = _in_loop("i1", lambda x: _bessel_i(x, 1, False))
_i1e = _in_loop("i1e", lambda x: _bessel_i(x, 1, True))
_k0 = _in_loop("k0", lambda x: _bessel_k(x, 0, False))
_k0e = _in_loop("k0e", lambda x: _bessel_k(x, 0, True))
_k1 = _in_loop("k1", lambda x: _bessel_k(x, 1, False))
_k1e = _in_loop("k1e", lambda x: _bessel_k(x, 1, True))


def _integrals():
    from . import _special_integrals

    return _special_integrals


_beta = _in_loop("beta", lambda a, b: _integrals().beta(a, b, gamma, gammaln))
_betaln = _in_loop("betaln", lambda a, b: _integrals().betaln(a, b, gamma, gammaln))
_betainc = _in_loop("betainc", lambda a, b, x: _integrals().betainc(a, b, x, betaln), float32_first=True)  # noqa: F821
_betaincinv = _in_loop("betaincinv", lambda a, b, y: _integrals().betaincinv(a, b, y, betaln),  # noqa: F821
                       float32_first=True)
_binom = _in_loop("binom", lambda n, k: _integrals().binom(n, k, gamma, gammaln), float32_first=True)
# expn's loops: (integer n, double x) first, then float32, then double
_expn = _in_loop("expn", lambda n, x: _integrals().expn(n, x, _digamma),
                 float32_first=lambda n, x: asarray(n).dtype.kind not in "biu")
_exp1 = _in_loop("exp1", lambda x: _integrals().exp1(x, _digamma), float32_first=True)
_expi = _in_loop("expi", lambda x: _integrals().expi(x, _digamma), float32_first=True)


def _bessel_real_order(which):
    """The body computing one of include/kiln/device/bessel_real_order.cuh's
    functions of (order v, x), numbered as its KILN_BESSEL_* are, on the
    device of the arrays (one kernel, not fused)."""
    def compute(v, x):
        from .._numpy.creation import ascontiguousarray, empty
        from .._numpy.manipulation.shape import broadcast_arrays
        from .._cupy_kernels.raw import header_kernels, launch_size

        device = next((a.device for a in (x, v) if a.ndim), x.device)
        v, x = (ascontiguousarray(asarray(a, device=device)) for a in broadcast_arrays(v, x))
        out = empty(v.shape, dtype=np.float64, device=device)
        if out.size:
            kernel, = header_kernels("bessel_real_order.cuh", ("kiln_bessel_real_order",))
            kernel(*launch_size(out.size), (v, x, out, np.int64(out.size), np.int32(which)))
        return out
    return compute


_jv = _in_loop("jv", _bessel_real_order(0))
_yv = _in_loop("yv", _bessel_real_order(1))
_iv = _in_loop("iv", _bessel_real_order(2))
_kv = _in_loop("kv", _bessel_real_order(3))
_ive = _in_loop("ive", _bessel_real_order(4))
_kve = _in_loop("kve", _bessel_real_order(5))
# yn's loops: (integer n, double x) first; a real n is truncated, as SciPy's cast
_yn = _in_loop("yn", lambda n, x: _bessel_real_order(1)(_core.trunc(n), x),
               float32_first=lambda n, x: asarray(n).dtype.kind not in "biu")


def _elementary():
    from . import _elementary

    return _elementary


_cbrt = _in_loop("cbrt", _core.cbrt)
_exp2 = _in_loop("exp2", _core.exp2)
_exp10 = _in_loop("exp10", lambda x: _elementary().exp10(x))
# complex input goes to kiln's own op, as SciPy's complex loops are NumPy's functions
_expm1 = _real_or_complex(_in_loop("expm1", _core.expm1), _core.expm1)
_log1p = _real_or_complex(_in_loop("log1p", _core.log1p), _core.log1p)
_cosm1 = _in_loop("cosm1", lambda x: _elementary().cosm1(x))
_exprel = _in_loop("exprel", lambda x: _elementary().exprel(x))
_round = _in_loop("round", _core.rint, float32_first=True)
_radian = _in_loop("radian", lambda d, m, s: _elementary().radian(d, m, s))
_cosdg = _in_loop("cosdg", lambda x: _elementary().cosdg(x))
_sindg = _in_loop("sindg", lambda x: _elementary().sindg(x))
_tandg = _in_loop("tandg", lambda x: _elementary().tandg(x))
_cotdg = _in_loop("cotdg", lambda x: _elementary().cotdg(x))
_gammasgn = _in_loop("gammasgn", lambda x: _elementary().gammasgn(x))
_boxcox = _in_loop("boxcox", lambda x, lmbda: _elementary().boxcox(x, lmbda), float32_first=True)
_boxcox1p = _in_loop("boxcox1p", lambda x, lmbda: _elementary().boxcox1p(x, lmbda), float32_first=True)
_inv_boxcox = _in_loop("inv_boxcox", lambda y, lmbda: _elementary().inv_boxcox(y, lmbda), float32_first=True)
_inv_boxcox1p = _in_loop("inv_boxcox1p", lambda y, lmbda: _elementary().inv_boxcox1p(y, lmbda),
                         float32_first=True)


def _distributions():
    from . import _distributions

    return _distributions


def _lower_gamma(a, x):
    return _incomplete_gamma(a, x, False)


def _upper_gamma(a, x):
    return _incomplete_gamma(a, x, True)


def _beta_inc(a, b, x):
    return _integrals().betainc(a, b, x, betaln)  # noqa: F821


def _beta_inc_inv(a, b, y):
    return _integrals().betaincinv(a, b, y, betaln)  # noqa: F821


def _gamma_inc_inv(a, y):
    return _distributions().gammaincinv(a, y, _lower_gamma, gammaln)


def _gamma_incc_inv(a, y):
    return _distributions().gammaincinv(a, y, _upper_gamma, gammaln, upper=True)


def _counts_loop(name, compute, counts):
    """The body for SciPy's functions whose first loop takes `counts`
    integer arguments and doubles (nbdtr's 'lld->d', pdtri's 'ld->d'):
    integer counts give float64 whatever the rest; otherwise float32
    arguments keep float32."""
    in_loop = _in_loop(name, compute, float32_first=True)

    def function(*args):
        if all(asarray(a).dtype.kind in "biu" for a in args[:counts]):
            return compute(*(asarray(a).astype(np.float64) for a in args))
        return in_loop(*args)
    return function


_gammaincinv = _in_loop("gammaincinv", _gamma_inc_inv)
_gammainccinv = _in_loop("gammainccinv", _gamma_incc_inv)
# the binomial family's loops: float32 first, so small integers go to float32
_bdtr = _in_loop("bdtr", lambda k, n, p: _distributions().bdtr(k, n, p, _beta_inc), float32_first=True)
_bdtrc = _in_loop("bdtrc", lambda k, n, p: _distributions().bdtrc(k, n, p, _beta_inc), float32_first=True)
_bdtri = _in_loop("bdtri", lambda k, n, y: _distributions().bdtri(k, n, y, _beta_inc_inv), float32_first=True)
_nbdtr = _counts_loop("nbdtr", lambda k, n, p: _distributions().nbdtr(k, n, p, _beta_inc), 2)
_nbdtrc = _counts_loop("nbdtrc", lambda k, n, p: _distributions().nbdtrc(k, n, p, _beta_inc), 2)
_nbdtri = _counts_loop("nbdtri", lambda k, n, y: _distributions().nbdtri(k, n, y, _beta_inc_inv), 2)
_fdtr = _in_loop("fdtr", lambda a, b, x: _distributions().fdtr(a, b, x, _beta_inc), float32_first=True)
_fdtrc = _in_loop("fdtrc", lambda a, b, x: _distributions().fdtrc(a, b, x, _beta_inc), float32_first=True)
_fdtri = _in_loop("fdtri", lambda a, b, y: _distributions().fdtri(a, b, y, _beta_inc_inv), float32_first=True)
_gdtr = _in_loop("gdtr", lambda a, b, x: _distributions().gdtr(a, b, x, _lower_gamma), float32_first=True)
_gdtrc = _in_loop("gdtrc", lambda a, b, x: _distributions().gdtrc(a, b, x, _upper_gamma), float32_first=True)
_chdtr = _in_loop("chdtr", lambda v, x: _distributions().chdtr(v, x, _lower_gamma), float32_first=True)
_chdtrc = _in_loop("chdtrc", lambda v, x: _distributions().chdtrc(v, x, _upper_gamma), float32_first=True)
_chdtri = _in_loop("chdtri", lambda v, y: _distributions().chdtri(v, y, _gamma_incc_inv), float32_first=True)
_pdtr = _in_loop("pdtr", lambda k, m: _distributions().pdtr(k, m, _upper_gamma), float32_first=True)
_pdtrc = _in_loop("pdtrc", lambda k, m: _distributions().pdtrc(k, m, _lower_gamma), float32_first=True)
_pdtri = _counts_loop("pdtri", lambda k, y: _distributions().pdtri(k, y, _gamma_incc_inv), 1)


def _legendre():
    from . import _legendre

    return _legendre


_lpmv = _in_loop("lpmv", lambda m, v, x: _legendre().lpmv(m, v, x), float32_first=True)


# The composed functions as ufuncs: name -> number of arguments.
_COMPOSED = {"expit": 1, "logit": 1, "log_expit": 1, "xlogy": 2, "xlog1py": 2, "entr": 1, "rel_entr": 2,
             "kl_div": 2, "huber": 2, "pseudo_huber": 2, "ndtr": 1, "log_ndtr": 1, "ndtri": 1, "erfcx": 1,
             "digamma": 1, "rgamma": 1, "loggamma": 1, "gammainc": 2, "gammaincc": 2, "i0": 1, "i0e": 1, "i1": 1,
             "i1e": 1, "k0": 1, "k0e": 1, "k1": 1, "k1e": 1, "beta": 2, "betaln": 2, "betainc": 3, "betaincinv": 3, "binom": 2, "expn": 2,
             "exp1": 1, "expi": 1, "jv": 2, "yv": 2, "iv": 2, "kv": 2, "ive": 2, "kve": 2, "yn": 2, "lpmv": 3,
             "cbrt": 1, "exp2": 1, "exp10": 1, "expm1": 1, "log1p": 1, "cosm1": 1, "exprel": 1, "round": 1,
             "radian": 3, "cosdg": 1, "sindg": 1, "tandg": 1, "cotdg": 1, "gammasgn": 1, "boxcox": 2, "boxcox1p": 2,
             "inv_boxcox": 2, "inv_boxcox1p": 2, "gammaincinv": 2, "gammainccinv": 2, "bdtr": 3, "bdtrc": 3,
             "bdtri": 3, "nbdtr": 3, "nbdtrc": 3, "nbdtri": 3, "fdtr": 3, "fdtrc": 3, "fdtri": 3, "gdtr": 3,
             "gdtrc": 3, "chdtr": 2, "chdtrc": 2, "chdtri": 2, "pdtr": 2, "pdtrc": 2, "pdtri": 2}
for _name, _nin in _COMPOSED.items():
    globals()[_name] = ufunc(_name, globals()["_" + _name], _nin)
psi = digamma  # noqa: F821  (SciPy's other name)
jn = jv  # noqa: F821  (SciPy's jn is jv)
_zeta_ufunc = ufunc("zeta", _zeta, 2)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) over `axis`, shifted by the largest finite real
    part so that exp cannot overflow (scipy.special.logsumexp). With
    return_sign, the log of the magnitude and the sign (a unit complex
    number for complex input)."""
    from .._numpy.manipulation.shape import broadcast_arrays
    from .._numpy.statistics.reductions import max as maximum, sum as total_of

    a = asarray(a)
    if a.dtype.kind in "biu":
        a = a.astype(np.float64)
    if b is not None:
        b = asarray(b, device=a.device)
        a, b = broadcast_arrays(a, b.astype(result_type(a, b), copy=False))
        a = _where(b == 0, -math.inf, a)
    real = _real(a) if a.dtype.kind == "c" else a
    if a.size:
        shift = maximum(_where(_core.isfinite(real), real, -math.inf), axis=axis, keepdims=True)
        shift = _where(_core.isfinite(shift), shift, 0).astype(real.dtype, copy=False)
    else:
        shift = asarray(0, dtype=real.dtype)
    terms = _core.exp(a - shift)
    if b is not None:
        terms = terms * b
    total = total_of(terms, axis=axis, keepdims=keepdims)
    shift = shift.reshape(total.shape) if a.size else shift
    if not return_sign:
        return _core.log(total) + shift
    magnitude = _core.abs(total)
    sign = (_where(magnitude == 0, 0, total / _where(magnitude == 0, 1, magnitude)) if total.dtype.kind == "c"
            else _core.sign(total))
    return _core.log(magnitude) + shift, sign


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) over `axis`, shifted by the maximum (scipy.special.softmax)."""
    from .._numpy.statistics.reductions import max as maximum, sum as total_of

    x = asarray(x)
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    shifted = _core.exp(x - maximum(x, axis=axis, keepdims=True))
    return shifted / total_of(shifted, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """x - logsumexp(x) over `axis` (scipy.special.log_softmax)."""
    x = asarray(x)
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    return x - logsumexp(x, axis=axis, keepdims=True)
