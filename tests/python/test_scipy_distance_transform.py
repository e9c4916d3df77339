"""kiln.scipy.ndimage.distance_transform_edt against SciPy's on every
device: ranks 1 to 4, isotropic and anisotropic sampling, sparse and dense
features, the nearest features' coordinates (equal distances, and equal
indices where no two features tie), arrays to write into, float32
distances, and the argument errors SciPy and CuPy raise."""
import numpy as np
import pytest

import kiln
import kiln.scipy.ndimage as kn

nd = pytest.importorskip("scipy.ndimage")


def _distance_to(indices, shape, sampling):
    """The distance from each place to the coordinates in `indices`."""
    spacing = np.ones(len(shape)) if sampling is None else np.asarray(sampling, float)
    offsets = (np.indices(shape) - indices) * spacing.reshape((-1,) + (1,) * len(shape))
    return np.sqrt((offsets ** 2).sum(axis=0))


@pytest.mark.parametrize("shape, sampling", [((60,), None), ((33, 20), None), ((33, 20), (1.5, 1.5)),
                                             ((33, 20), (2.25, 0.85)), ((9, 12, 7), (3, 1, 2)),
                                             ((4, 5, 3, 6), None)])
@pytest.mark.parametrize("density", [3, 50, 97])
def test_distances_and_indices(device, rng, shape, sampling, density):
    image = rng.integers(0, 100, size=shape) >= density
    image.flat[0] = False  # at least one feature
    want_distances, want_indices = nd.distance_transform_edt(image, sampling=sampling, return_indices=True)
    distances, indices = kn.distance_transform_edt(kiln.asarray(image, device=device), sampling=sampling,
                                                   return_indices=True)
    assert distances.dtype == kiln.float64 and indices.dtype == kiln.int32
    np.testing.assert_allclose(kiln.asnumpy(distances), want_distances, rtol=1e-12)
    got = kiln.asnumpy(indices)
    assert got.shape == want_indices.shape
    # Where features tie either is right: each index must be a nearest feature.
    assert not image[tuple(got)].any()
    np.testing.assert_allclose(_distance_to(got, shape, sampling), want_distances, rtol=1e-12)
    if sampling is None or len(set(sampling)) == 1:
        assert (got == want_indices).mean() > 0.95


def test_one_feature_and_other_dtypes(device):
    for dtype in ("uint8", "float32", "int64"):
        image = np.full((17, 23), 3, dtype=dtype)
        image[8, 11] = 0
        got = kn.distance_transform_edt(kiln.asarray(image, device=device))
        np.testing.assert_allclose(kiln.asnumpy(got), nd.distance_transform_edt(image), rtol=1e-12)
    empty = kn.distance_transform_edt(kiln.zeros((0, 3), device=device))
    assert empty.shape == (0, 3)


def test_outputs_float32_and_returns(device, rng):
    image = rng.random((16, 18)) > 0.2
    k = kiln.asarray(image, device=device)
    want_d, want_i = nd.distance_transform_edt(image, return_indices=True)
    distances = kiln.empty(image.shape, dtype="float64", device=device)
    indices = kiln.empty((2,) + image.shape, dtype="int64", device=device)
    assert kn.distance_transform_edt(k, return_indices=True, distances=distances, indices=indices) is None
    np.testing.assert_allclose(kiln.asnumpy(distances), want_d, rtol=1e-12)
    np.testing.assert_allclose(_distance_to(kiln.asnumpy(indices), image.shape, None), want_d, rtol=1e-12)
    only = kn.distance_transform_edt(k, return_distances=False, return_indices=True)
    assert only.shape == (2,) + image.shape
    single = kn.distance_transform_edt(k, float64_distances=False)
    assert single.dtype == kiln.float32
    np.testing.assert_allclose(kiln.asnumpy(single), want_d, rtol=1e-7)
    # CuPy's tuning of its own kernels changes nothing here.
    np.testing.assert_array_equal(kiln.asnumpy(kn.distance_transform_edt(k, block_params=(1, 1, 1))), want_d)


def test_errors(device):
    k = kiln.ones((8, 8), dtype="bool", device=device)
    with pytest.raises(RuntimeError, match="at least one"):
        kn.distance_transform_edt(k, return_distances=False)
    with pytest.raises(RuntimeError, match="return_distances must be True"):
        kn.distance_transform_edt(k, return_distances=False, return_indices=True,
                                  distances=kiln.empty((8, 8), device=device))
    with pytest.raises(RuntimeError, match="return_indices must be True"):
        kn.distance_transform_edt(k, indices=kiln.empty((2, 8, 8), dtype="int32", device=device))
    with pytest.raises(RuntimeError, match="wrong shape"):
        kn.distance_transform_edt(k, distances=kiln.empty((8, 9), device=device))
    with pytest.raises(RuntimeError, match="float32"):
        kn.distance_transform_edt(k, distances=kiln.empty((8, 8), device=device), float64_distances=False)
    for dtype in ("int8", "float64"):
        with pytest.raises(RuntimeError, match="integer dtype"):
            kn.distance_transform_edt(k, return_indices=True, indices=kiln.empty((2, 8, 8), dtype=dtype,
                                                                                 device=device))
    with pytest.raises(RuntimeError, match="length equal to input rank"):
        kn.distance_transform_edt(k, sampling=(1.0, 2.0, 3.0))
