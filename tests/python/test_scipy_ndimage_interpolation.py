"""kiln.scipy.ndimage's spline interpolation against SciPy's on every
device: map_coordinates, affine_transform (each matrix form), shift, zoom
(grid_mode too), rotate, geometric_transform and the spline prefilter, at
every order and boundary mode; float, integer (SciPy's rounding and
clipping) and complex inputs, the output argument, and the errors SciPy
raises.

SciPy 1.17.1 and older read one coefficient it had already overwritten
when prefiltering a short line in the 'reflect' mode (fixed in SciPy
#24615); kiln computes the fixed result, so the images here are long
enough (axes of 40 and more) for the two to agree in that mode."""
import numpy as np
import pytest

import kiln
import kiln.scipy.ndimage as kn

nd = pytest.importorskip("scipy.ndimage")
MODES = ["constant", "nearest", "mirror", "reflect", "grid-mirror", "wrap", "grid-wrap", "grid-constant"]


def _check(got, want, tol=1e-9):
    g = kiln.asnumpy(got)
    assert g.dtype == want.dtype and g.shape == want.shape
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol)


@pytest.fixture
def image(rng):
    return rng.random((40, 44))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", range(6))
def test_each_transform_matches_scipy(device, image, rng, order, mode):
    k = kiln.asarray(image, device=device)
    coordinates = rng.random((2, 7, 9)) * 60 - 10  # inside and outside the image
    _check(kn.map_coordinates(k, kiln.asarray(coordinates, device=device), order=order, mode=mode, cval=0.7),
           nd.map_coordinates(image, coordinates, order=order, mode=mode, cval=0.7))
    matrix = np.array([[0.9, 0.2], [-0.3, 1.1]])
    for m, offset in ((matrix, (1.5, -2.0)), (np.array([1.2, 0.7]), 0.3),
                      (np.array([[0.9, 0.2, 1.0], [-0.3, 1.1, -3.0], [0, 0, 1]]), 0.0)):
        _check(kn.affine_transform(k, kiln.asarray(m, device=device), offset=offset, order=order, mode=mode),
               nd.affine_transform(image, m, offset=offset, order=order, mode=mode))
    _check(kn.shift(k, (2.3, -4.6), order=order, mode=mode, cval=-1.0),
           nd.shift(image, (2.3, -4.6), order=order, mode=mode, cval=-1.0))
    for grid_mode in (False, True):
        with pytest.warns(UserWarning) if grid_mode and mode in ("constant", "wrap") else _no_warning():
            got = kn.zoom(k, (1.6, 0.55), order=order, mode=mode, grid_mode=grid_mode)
        with np.testing.suppress_warnings() as sup:
            sup.filter(UserWarning)
            want = nd.zoom(image, (1.6, 0.55), order=order, mode=mode, grid_mode=grid_mode)
        _check(got, want)
    _check(kn.rotate(k, 33, order=order, mode=mode), nd.rotate(image, 33, order=order, mode=mode))
    if order > 1:
        _check(kn.spline_filter(k, order, mode=mode), nd.spline_filter(image, order, mode=mode))
        _check(kn.spline_filter1d(k, order, axis=0, mode=mode), nd.spline_filter1d(image, order, axis=0, mode=mode))


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "float32"])
def test_integer_outputs_round_and_clip_as_scipy(device, rng, dtype):
    image = (rng.random((40, 41)) * 120).astype(dtype)
    k = kiln.asarray(image, device=device)
    for order in range(6):
        got, want = kn.rotate(k, 20, order=order), nd.rotate(image, 20, order=order)
        assert kiln.asnumpy(got).dtype == want.dtype
        # SciPy rounds halves away from zero: where the double result is a
        # half to rounding, the two may round apart; nowhere else.
        exact = nd.rotate(image.astype(np.float64), 20, order=order)
        near_half = np.isclose(exact % 1, 0.5, atol=1e-6)
        np.testing.assert_array_equal(kiln.asnumpy(got)[~near_half], want[~near_half])
    big = np.array([[0.0, 250.0], [250.0, 0.0]])
    _check(kn.zoom(kiln.asarray(big, device=device), 3, output=np.uint8), nd.zoom(big, 3, output=np.uint8))
    _check(kn.zoom(kiln.asarray(-big, device=device), 3, output=np.uint8), nd.zoom(-big, 3, output=np.uint8))


def test_complex_short_three_d_and_callable_transforms(device, rng):
    z = rng.random((9, 8)) + 1j * rng.random((9, 8))
    _check(kn.zoom(kiln.asarray(z, device=device), 1.5), nd.zoom(z, 1.5))
    _check(kn.shift(kiln.asarray(z, device=device), 0.5, cval=1 + 2j, mode="grid-constant"),
           nd.shift(z, 0.5, cval=1 + 2j, mode="grid-constant"))
    small = rng.random((3, 4))
    for mode in ("constant", "mirror", "wrap", "grid-wrap", "nearest", "grid-constant"):
        _check(kn.zoom(kiln.asarray(small, device=device), 2.5, mode=mode), nd.zoom(small, 2.5, mode=mode))
    line = rng.random(1)
    _check(kn.zoom(kiln.asarray(line, device=device), 3), nd.zoom(line, 3))
    volume = rng.random((4, 6, 7))
    _check(kn.rotate(kiln.asarray(volume, device=device), 25, axes=(0, 2)), nd.rotate(volume, 25, axes=(0, 2)))
    image = rng.random((12, 10))
    _check(kn.rotate(kiln.asarray(image, device=device), 90), nd.rotate(image, 90))
    _check(kn.rotate(kiln.asarray(image, device=device), -270, reshape=False), nd.rotate(image, -270, reshape=False))

    def mapping(o, scale, step=0.0):
        return o[0] * scale, o[1] + step

    _check(kn.geometric_transform(kiln.asarray(image, device=device), mapping, (6, 9), extra_arguments=(0.5,),
                                  extra_keywords={"step": 0.25}),
           nd.geometric_transform(image, mapping, (6, 9), extra_arguments=(0.5,), extra_keywords={"step": 0.25}))


def test_output_argument_and_errors(device, rng):
    image = rng.random((8, 9))
    k = kiln.asarray(image, device=device)
    out = kiln.empty((8, 9), dtype="float32", device=device)
    assert kn.shift(k, 1.5, output=out) is out
    _check(out, nd.shift(image, 1.5, output=np.float32), tol=1e-6)
    _check(kn.zoom(k, 2, output="f"),
           nd.zoom(image, 2, output="f"), tol=1e-6)
    with pytest.raises(RuntimeError, match="order"):
        kn.shift(k, 1, order=6)
    with pytest.raises(RuntimeError, match="mode"):
        kn.zoom(k, 2, mode="bogus")
    with pytest.raises(RuntimeError, match="coordinate"):
        kn.map_coordinates(k, kiln.ones((3, 4), device=device))
    with pytest.raises(RuntimeError, match="output shape"):
        kn.zoom(k, 2, output=kiln.empty((8, 9), device=device))
    with pytest.raises(RuntimeError, match="rows"):
        kn.affine_transform(k, np.eye(3)[:1])
    with pytest.raises(ValueError, match="bottom row"):
        kn.affine_transform(k, np.ones((3, 3)))
    with pytest.raises(RuntimeError, match="complex"):
        kn.shift(kiln.asarray(image + 1j, device=device), 1, output=kiln.empty((8, 9), device=device))
    with pytest.raises(NotImplementedError, match="cval"):
        kn.shift(kiln.asarray(image.astype(np.int32), device=device), 1, cval=np.nan)
    with pytest.raises(ValueError, match="2D"):
        kn.rotate(kiln.ones(5, device=device), 10)
    with pytest.raises(RuntimeError, match="spline order"):
        kn.spline_filter(k, 1)
    with pytest.raises(ValueError, match="float32"):
        kn.affine_transform(k, np.eye(3), texture_memory=True)
    image32 = kiln.asarray(image.astype(np.float32), device=device)
    turn = np.array([[0.0, -1.0, 8.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    _check(kn.affine_transform(image32, turn, order=1, texture_memory=True),
           nd.affine_transform(image.astype(np.float32), turn, order=1), tol=1e-6)
