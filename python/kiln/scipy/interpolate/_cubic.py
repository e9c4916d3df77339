"""The cubic interpolants (CubicHermiteSpline, CubicSpline,
PchipInterpolator, Akima1DInterpolator): PPoly objects whose coefficients
SciPy computes on the host (a tridiagonal solve or local slopes, linear in
the number of data points) and which evaluate on the data's device."""
from .._host_arrays import device_of, to_host, to_kiln
from ._host import scipy_interpolate
from ._ppoly import PPoly


class _HostFitted(PPoly):
    """A PPoly fitted by SciPy's class of the same name."""

    def _fit(self, *args, **kwargs):
        device = device_of(args)
        fitted = getattr(scipy_interpolate(), type(self).__name__)(*to_host(args), **to_host(kwargs))
        self.c, self.x = to_kiln(fitted.c, device), to_kiln(fitted.x, device)
        self.axis, self.extrapolate = fitted.axis, fitted.extrapolate


class CubicHermiteSpline(_HostFitted):
    def __init__(self, x, y, dydx, axis=0, extrapolate=None):
        self._fit(x, y, dydx, axis=axis, extrapolate=extrapolate)


class CubicSpline(_HostFitted):
    def __init__(self, x, y, axis=0, bc_type="not-a-knot", extrapolate=None):
        self._fit(x, y, axis=axis, bc_type=bc_type, extrapolate=extrapolate)


class PchipInterpolator(_HostFitted):
    def __init__(self, x, y, axis=0, extrapolate=None):
        self._fit(x, y, axis=axis, extrapolate=extrapolate)


class Akima1DInterpolator(_HostFitted):
    def __init__(self, x, y, axis=0, *, method="akima", extrapolate=None):
        self._fit(x, y, axis=axis, method=method, extrapolate=extrapolate)


def pchip_interpolate(xi, yi, x, der=0, axis=0):
    """PchipInterpolator(xi, yi, axis) at x: its value, or its der-th
    derivative, or a list of them for a list of orders."""
    p = PchipInterpolator(xi, yi, axis=axis)
    if der == 0:
        return p(x)
    if isinstance(der, int):
        return p.derivative(der)(x)
    return [p.derivative(nu)(x) for nu in der]

