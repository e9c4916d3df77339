"""numpy.polynomial.polynomial's power-series functions kiln offers:
polyvander and polycompanion, with NumPy's results and errors."""
from .. import _core
from .._numpy.creation import asarray, empty, zeros
from .._numpy.manipulation.shape import moveaxis
from . import polyutils


def polyvander(x, deg):
    """The Vandermonde matrix of powers 0..deg of ``x``: shape x.shape + (deg + 1,)."""
    degree = polyutils.as_int(deg, "deg")
    if degree < 0:
        raise ValueError("deg must be non-negative")
    x = asarray(x)
    x = (x.reshape(1) if x.ndim == 0 else x) + 0.0
    v = empty((degree + 1,) + x.shape, dtype=x.dtype, device=x.device)
    v[0] = x * 0 + 1
    if degree > 0:
        v[1] = x
        for i in range(2, degree + 1):
            v[i] = v[i - 1] * x
    return moveaxis(v, 0, -1)


def polycompanion(c):
    """The companion matrix of the power series ``c`` (its eigenvalues are
    the series' roots)."""
    [c] = polyutils.as_series([c])
    if len(c) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if len(c) == 2:
        return asarray([[-c[0] / c[1]]])
    n = len(c) - 1
    mat = zeros((n, n), dtype=c.dtype, device=c.device)
    mat.reshape(-1)[n::n + 1] = 1
    mat[:, -1] -= _core.divide(c[:-1], c[-1])
    return mat
