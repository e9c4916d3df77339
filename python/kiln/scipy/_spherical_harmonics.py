"""scipy.special's spherical harmonics, sph_harm_y(n, m, theta, phi) (theta
the polar angle) and the older sph_harm(m, n, theta, phi) (theta the
azimuth), on kiln arrays of either device.

Y_n^m = sqrt((2n+1)/(4 pi) (n-m)!/(n+m)!) P_n^m(cos theta) e^(i m phi),
with the Condon-Shortley phase in P_n^m, as SciPy's. The normalised
Legendre functions come from the stable recurrences (first up the diagonal,
with sin(theta) taken as |sin(theta)| as SciPy does,
to P_|m|^|m|, then up the degree), one array step per degree, every element
walking its own (n, |m|); Y_n^-m = (-1)^m conj(Y_n^m)."""
import math

from .. import _core
from .._numpy.creation import asarray, zeros
from .._numpy.manipulation.shape import broadcast_arrays
from .._numpy.statistics.reductions import max as maximum


def _integers(value, name):
    value = asarray(value)
    if value.dtype.kind not in "biu":
        raise TypeError(f"{name}: the degree and order must be integers, got {value.dtype}")
    return value.astype("int64")


def sph_harm_y(n, m, theta, phi, *, diff_n=0):
    """The spherical harmonic of degree n and order m at polar angle theta
    and azimuth phi (complex128); 0 where ``|m| > n``."""
    if diff_n != 0:
        raise ValueError(f"diff_n: only 0 (the harmonic itself) is supported, got {diff_n}")
    n, m = _integers(n, "n"), _integers(m, "m")
    theta, phi = (asarray(a, device=n.device).astype("float64") for a in (theta, phi))
    n, m, theta, phi = broadcast_arrays(n, m, theta, phi)
    order = _core.abs(m)
    x, s = _core.cos(theta), _core.abs(_core.sin(theta))  # SciPy takes sin(theta) as sqrt(1 - x^2)
    top = max(int(maximum(n)), 0) if n.size else 0  # the deepest recurrence (one read to the host)
    legendre = zeros(n.shape, dtype="float64", device=n.device) + math.sqrt(1 / (4 * math.pi))
    for k in range(1, top + 1):  # P_k^k = -sqrt((2k+1)/(2k)) sin(theta) P_(k-1)^(k-1)
        legendre = _core._where(order >= k, legendre * (-math.sqrt((2 * k + 1) / (2 * k))) * s, legendre)
    previous = zeros(n.shape, dtype="float64", device=n.device)
    order_squared = (order * order).astype("float64")
    for degree in range(1, top + 1):  # P_l^m from P_(l-1)^m and P_(l-2)^m, for |m| < l <= n
        step = (order < degree) & (degree <= n)
        a = _core.sqrt(_core._where(step, (4.0 * degree * degree - 1) / (degree * degree - order_squared), 0.0))
        b = _core.sqrt(_core._where(step, ((degree - 1.0) ** 2 - order_squared) / (4.0 * (degree - 1) ** 2 - 1),
                                    0.0))
        following = a * (x * legendre - b * previous)
        previous, legendre = _core._where(step, legendre, previous), _core._where(step, following, legendre)
    legendre = _core._where(order > n, 0.0, legendre)
    sign = _core._where((m < 0) & (_core.remainder(order, 2) == 1), -1.0, 1.0)
    return (legendre * sign) * _core.exp(1j * (m.astype("float64") * phi))


def sph_harm(m, n, theta, phi):
    """SciPy's older spelling: order m first, theta the azimuth, phi the
    polar angle (sph_harm_y(n, m, phi, theta))."""
    return sph_harm_y(n, m, phi, theta)
