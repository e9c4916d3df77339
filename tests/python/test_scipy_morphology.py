"""kiln.scipy.ndimage's mathematical morphology against SciPy's on every
device: binary erosion and dilation with structures, origins, border values,
masks, iterations (to convergence too) and axes; opening, closing,
hit-or-miss, propagation and hole filling; the grey operations with
footprints and structuring functions in every boundary mode; the tophats,
gradient and Laplace with dtype and array outputs; empty, 0-d-structure and
view inputs; SciPy's errors."""
import warnings

import numpy as np
import pytest

import kiln
import kiln.scipy.ndimage as kn

nd = pytest.importorskip("scipy.ndimage")
MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]
BINARY = ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"]
GREY = ["grey_erosion", "grey_dilation", "grey_opening", "grey_closing", "morphological_gradient",
        "morphological_laplace", "white_tophat", "black_tophat"]


def _same(got, want):
    g = kiln.asnumpy(got)
    assert g.dtype == want.dtype and g.shape == want.shape
    np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("shape", [(40,), (9, 8), (4, 5, 6)])
@pytest.mark.parametrize("name", BINARY)
def test_binary_structures_origins_borders_iterations(device, rng, shape, name):
    image = rng.standard_normal(shape) > 0.2
    k = kiln.asarray(image, device=device)
    for connectivity in (1, len(shape)):
        structure = nd.generate_binary_structure(len(shape), connectivity)
        for border in (0, 1):
            for origin in (0, -1):
                for iterations in (1, 2, 0):
                    _same(getattr(kn, name)(k, structure, iterations=iterations, border_value=border, origin=origin),
                          getattr(nd, name)(image, structure, iterations=iterations, border_value=border,
                                            origin=origin))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float32", "float64"])
def test_binary_even_and_uncentred_structures_of_any_dtype(device, dtype):
    image = np.array([1, 1, 0, 1, 1, 0, 0, 1], dtype=dtype)
    k = kiln.asarray(image, device=device)
    for structure in ([1, 0, 1], [1, 1, 0], [0, 0, 1], [1, 1], [1, 0, 0, 1]):
        for border in (0, 1):
            for origin in (-1, 0, 1):
                if not -(len(structure) // 2) <= origin <= (len(structure) - 1) // 2:
                    continue
                for name in ("binary_erosion", "binary_dilation"):
                    _same(getattr(kn, name)(k, structure, border_value=border, origin=origin),
                          getattr(nd, name)(image, structure, border_value=border, origin=origin))


def test_binary_masks_propagation_fill_holes_and_hit_or_miss(device, rng):
    for shape in ((12, 11), (5, 6, 7)):
        image = rng.standard_normal(shape) > 0.3
        mask = rng.standard_normal(shape) > 0
        k, m = kiln.asarray(image, device=device), kiln.asarray(mask, device=device)
        structure = nd.generate_binary_structure(len(shape), 1)
        for name in ("binary_erosion", "binary_dilation"):
            for iterations in (1, 3, -1):
                _same(getattr(kn, name)(k, structure, iterations=iterations, mask=m),
                      getattr(nd, name)(image, structure, iterations=iterations, mask=mask))
        _same(kn.binary_propagation(k, mask=m), nd.binary_propagation(image, mask=mask))
        _same(kn.binary_fill_holes(k), nd.binary_fill_holes(image))
        _same(kn.binary_fill_holes(k, nd.generate_binary_structure(len(shape), 2)),
              nd.binary_fill_holes(image, nd.generate_binary_structure(len(shape), 2)))
        corner = np.zeros_like(structure)
        corner.flat[0] = True
        for origin in (0, 1):
            _same(kn.binary_hit_or_miss(k, structure, origin1=origin), nd.binary_hit_or_miss(image, structure,
                                                                                                origin1=origin))
            _same(kn.binary_hit_or_miss(k, structure, corner, origin1=origin, origin2=-origin),
                  nd.binary_hit_or_miss(image, structure, corner, origin1=origin, origin2=-origin))


def test_binary_axes_outputs_and_views(device, rng):
    image = rng.standard_normal((5, 7, 9)) > 0.3
    k = kiln.asarray(image, device=device)
    for axes in ((0, 1), (0, -1), (1,)):
        structure = nd.generate_binary_structure(len(axes), 1)
        for name in BINARY + ["binary_propagation", "binary_fill_holes"]:
            _same(getattr(kn, name)(k, structure, axes=axes), getattr(nd, name)(image, structure, axes=axes))
    view = image[::2, 1::3]
    _same(kn.binary_erosion(k[::2, 1::3], iterations=2), nd.binary_erosion(view, iterations=2))
    out = kiln.zeros(image.shape, dtype="float32", device=device)
    assert kn.binary_dilation(k, output=out) is out
    _same(out, nd.binary_dilation(image).astype(np.float32))
    # A dtype output is not used, as in SciPy: the result is bool.
    _same(kn.binary_erosion(k, output=np.float32), nd.binary_erosion(image, output=np.float32))
    # CuPy's spelling of a box element: its side or its shape.
    _same(kn.binary_opening(k[0], 2), nd.binary_opening(image[0], np.ones((2, 2))))
    _same(kn.binary_closing(k[0], (3, 1)), nd.binary_closing(image[0], np.ones((3, 1))))
    empty = kiln.zeros((0, 4), dtype="bool", device=device)
    _same(kn.binary_dilation(empty), nd.binary_dilation(np.zeros((0, 4), bool)))


def test_structures(device):
    for rank in (0, 1, 2, 3):
        for connectivity in (0, 1, 2, 3, 500):
            _same(kn.generate_binary_structure(rank, connectivity), nd.generate_binary_structure(rank, connectivity))
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    for iterations in (1, 2, 3):
        _same(kn.iterate_structure(cross, iterations), nd.iterate_structure(cross, iterations))
    grown, origin = kn.iterate_structure(kiln.asarray(cross, device=device), 2, 1)
    want, want_origin = nd.iterate_structure(cross, 2, 1)
    _same(grown, want)
    assert origin == want_origin


def _element(rng, shape):
    footprint = np.where(rng.random(shape) < 0.5, 1, 0)
    if not footprint.any():
        footprint[...] = 1
    return footprint, (rng.random(shape) * 10).astype(np.int32)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", GREY)
def test_grey_morphology(device, rng, mode, name):
    for dtype in (np.int8, np.int32, np.float64):
        image = (rng.random((5, 6)) * 100).astype(dtype)
        k = kiln.asarray(image, device=device)
        for size in (3, (4, 3)):
            shape = (size, size) if isinstance(size, int) else size
            footprint, structure = _element(rng, shape)
            for fp, st in ((None, None), (footprint, None), (None, structure), (footprint, structure)):
                for origin in (0, (-1, 1)):
                    kwargs = dict(size=size, footprint=fp, structure=st, mode=mode, cval=1.0, origin=origin)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", UserWarning)  # size and footprint both given
                        want = getattr(nd, name)(image, **kwargs)
                        got = getattr(kn, name)(
                            k, **dict(kwargs, footprint=None if fp is None else kiln.asarray(fp, device=device)))
                    np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=1e-6, atol=1e-6)
                    assert kiln.asnumpy(got).dtype == want.dtype


@pytest.mark.parametrize("name", GREY)
def test_grey_outputs_and_axes(device, rng, name):
    image = (rng.random((3, 4, 6)) * 50).astype(np.int32)
    k = kiln.asarray(image, device=device)
    footprint, structure = _element(rng, (3, 3))
    for output in (np.float32, "array"):
        out = kiln.zeros(image.shape, dtype="float64", device=device) if output == "array" else output
        cube = _element(rng, (3, 3, 3))[1]
        got = getattr(kn, name)(k, 3, None, cube, output=out)
        want = getattr(nd, name)(image, 3, None, cube,
                                 output=np.zeros(image.shape) if output == "array" else output)
        if output == "array":
            assert got is out
        _same(got, want)
    for axes in ((0, 1), (-2, -1)):
        _same(getattr(kn, name)(k, footprint=footprint, structure=structure, axes=axes),
              getattr(nd, name)(image, footprint=footprint, structure=structure, axes=axes))


def test_errors(device):
    k = kiln.zeros((4, 4), dtype="bool", device=device)
    with pytest.raises(TypeError, match="iterations"):
        kn.binary_erosion(k, iterations=1.5)
    with pytest.raises(RuntimeError, match="dimensionality"):
        kn.binary_dilation(k, [1, 1, 1])
    with pytest.raises(RuntimeError, match="mask"):
        kn.binary_erosion(k, mask=kiln.zeros((3, 4), device=device))
    with pytest.raises(TypeError, match="Complex"):
        kn.binary_erosion(kiln.zeros((4, 4), dtype="complex64", device=device))
    with pytest.raises(ValueError, match="size, footprint, or structure"):
        kn.grey_erosion(k)
    with pytest.raises(ValueError, match="origin"):
        kn.grey_dilation(kiln.zeros((4, 4), device=device), 3, origin=2)
    with pytest.raises(TypeError):  # float64 - int32 into an int32 output, as NumPy's subtract refuses
        kn.white_tophat(kiln.zeros((4, 4), device=device), 3, output=kiln.zeros((4, 4), dtype="int32",
                                                                               device=device))
