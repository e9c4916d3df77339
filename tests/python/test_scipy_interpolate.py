"""kiln.scipy.interpolate against scipy.interpolate on every device: the
piecewise polynomials (PPoly, BPoly) and the cubic interpolants built on
them, B-splines from make_interp_spline with derivatives and periodic
extrapolation, interp1d of every kind with its bounds handling, and
RegularGridInterpolator/interpn; values, and results on the data's device."""
import numpy as np
import pytest

import kiln

si = pytest.importorskip("scipy.interpolate")
import kiln.scipy.interpolate as ki  # noqa: E402


def _same(got, want, device, rtol=1e-10, atol=1e-12):
    assert isinstance(got, kiln.ndarray) and got.device == device
    np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=rtol, atol=atol, equal_nan=True)


@pytest.fixture
def data(rng):
    x = np.sort(rng.uniform(0, 10, 12))
    return x, rng.standard_normal((12, 3)), np.linspace(-1, 11, 57)


@pytest.mark.parametrize("name", ["CubicSpline", "PchipInterpolator", "Akima1DInterpolator"])
def test_cubic_interpolants(device, data, name):
    x, y, xs = data
    got = getattr(ki, name)(kiln.asarray(x, device=device), kiln.asarray(y, device=device))
    want = getattr(si, name)(x, y)
    for nu in (0, 1, 2):
        _same(got(kiln.asarray(xs, device=device), nu), want(xs, nu), device, atol=1e-9)
    _same(got.antiderivative()(kiln.asarray(xs, device=device)), want.antiderivative()(xs), device, atol=1e-9)


@pytest.mark.parametrize("cls", ["PPoly", "BPoly"])
@pytest.mark.parametrize("extrapolate", [True, False, "periodic"])
def test_piecewise_polynomials(device, rng, cls, extrapolate):
    c = rng.standard_normal((4, 5, 2))
    for breaks in (np.array([0, 1, 2.5, 3, 4.5, 6.0]), np.array([6, 4.5, 3, 2.5, 1, 0.0])):
        got = getattr(ki, cls)(kiln.asarray(c, device=device), kiln.asarray(breaks, device=device), extrapolate)
        want = getattr(si, cls)(c, breaks, extrapolate)
        xs = np.linspace(-2, 8, 41)
        _same(got(kiln.asarray(xs, device=device)), want(xs), device)
        _same(got(kiln.asarray(xs, device=device), 1), want(xs, 1), device, atol=1e-9)
        if extrapolate != "periodic" or breaks[0] < breaks[-1]:  # SciPy integrates periodic ones ascending only
            _same(got.integrate(0.5, 5.0), want.integrate(0.5, 5.0), device)
    with pytest.raises(ValueError):
        getattr(ki, cls)(kiln.ones((3, 2)), kiln.asarray([0.0, 2.0, 1.0]))


@pytest.mark.parametrize("k", [0, 1, 3, 5])
def test_bsplines(device, data, k):
    x, y, xs = data
    got = ki.make_interp_spline(kiln.asarray(x, device=device), kiln.asarray(y, device=device), k=k)
    want = si.make_interp_spline(x, y, k=k)
    for nu in range(min(k, 2) + 1):
        _same(got(kiln.asarray(xs, device=device), nu), want(xs, nu), device, rtol=1e-9, atol=1e-9)
    periodic = ki.BSpline(got.t, got.c, k, extrapolate="periodic")
    _same(periodic(kiln.asarray(xs, device=device)),
          si.BSpline(want.t, want.c, k, extrapolate="periodic")(xs), device, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("kind", ["linear", "nearest", "nearest-up", "previous", "next", "zero", "slinear",
                                  "quadratic", "cubic"])
def test_interp1d(device, data, kind):
    x, y, xs = data
    for fill in (np.nan, (-1.0, 2.0), "extrapolate"):
        got = ki.interp1d(kiln.asarray(x, device=device), kiln.asarray(y.T, device=device), kind=kind,
                          bounds_error=False, fill_value=fill)
        want = si.interp1d(x, y.T, kind=kind, bounds_error=False, fill_value=fill)
        _same(got(kiln.asarray(xs, device=device)), want(xs), device, rtol=1e-9, atol=1e-9)
    with pytest.raises(ValueError, match="below"):
        ki.interp1d(kiln.asarray(x, device=device), kiln.asarray(y.T, device=device), kind=kind)(
            kiln.asarray([-5.0], device=device))
    with pytest.raises(ValueError, match="all-nan"):
        ki.interp1d(kiln.full(10, np.nan, device=device), kiln.arange(10.0, device=device), kind="cubic")


@pytest.mark.parametrize("method", ["linear", "nearest", "cubic"])
def test_regular_grids(device, rng, method):
    grid = (np.linspace(0, 1, 5), np.linspace(2, 0, 7), np.array([0.0, 0.5, 1.5, 3.0]))
    values = rng.standard_normal((5, 7, 4, 2))
    points = rng.uniform(0, 1, (30, 3)) * [1, 2, 3]
    got = ki.RegularGridInterpolator([kiln.asarray(g, device=device) for g in grid],
                                     kiln.asarray(values, device=device), method=method)
    want = si.RegularGridInterpolator(grid, values, method=method)
    _same(got(kiln.asarray(points, device=device)), want(points), device)
    outside = np.array([[2.0, 1.0, 1.0]])
    with pytest.raises(ValueError, match="out of bounds"):
        got(kiln.asarray(outside, device=device))
    _same(ki.interpn([kiln.asarray(g, device=device) for g in grid], kiln.asarray(values, device=device),
                     kiln.asarray(outside, device=device), method=method, bounds_error=False),
          si.interpn(grid, values, outside, method=method, bounds_error=False), device)
