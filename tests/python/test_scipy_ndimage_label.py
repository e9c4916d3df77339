"""kiln.scipy.ndimage's label, find_objects and order-statistic measurements
against SciPy's on every device: random images of 1 to 4 dimensions at
several densities and connectivities (labels equal SciPy's exactly, numbered
in raster order), the swirl that defeats propagation one step a round,
output arrays and dtypes, 0-d and empty inputs; minimum, maximum, median,
variance, standard_deviation, the extremes' positions and extrema for no
labels, labels without an index, a scalar index and index sequences with
absent labels."""
import numpy as np
import pytest

import kiln
import kiln.scipy.ndimage as kn

nd = pytest.importorskip("scipy.ndimage")

SWIRL = np.array([[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
                  [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1],
                  [1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1], [1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1],
                  [1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1], [1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1],
                  [1, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1], [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1],
                  [1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                  [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]])


@pytest.mark.parametrize("ndim", [1, 2, 3, 4])
def test_label_matches_scipy(device, rng, ndim):
    shape = tuple(range(5 + (4 - ndim) * 6, 5 + (4 - ndim) * 6 + ndim))
    for density in (0.2, 0.45, 0.7):
        image = rng.random(shape) < density
        for connectivity in range(1, ndim + 1):
            structure = nd.generate_binary_structure(ndim, connectivity)
            got, count = kn.label(kiln.asarray(image, device=device), structure=structure)
            want, want_count = nd.label(image, structure=structure)
            assert count == want_count and kiln.asnumpy(got).dtype == want.dtype
            np.testing.assert_array_equal(kiln.asnumpy(got), want)


def test_label_special_cases_outputs_and_find_objects(device, rng):
    got, count = kn.label(kiln.asarray(SWIRL, device=device))
    np.testing.assert_array_equal(kiln.asnumpy(got), nd.label(SWIRL)[0])
    assert count == 1
    for value in (np.zeros(()), np.ones(()), np.empty(0), np.empty((0, 3))):
        got, count = kn.label(kiln.asarray(value, device=device))
        want, want_count = nd.label(value)
        assert count == want_count and kiln.asnumpy(got).shape == want.shape
        np.testing.assert_array_equal(kiln.asnumpy(got), want)
    image = rng.random((9, 12)) < 0.5
    want, want_count = nd.label(image)
    out = kiln.empty((9, 12), dtype="int64", device=device)
    assert kn.label(kiln.asarray(image, device=device), output=out) == want_count
    np.testing.assert_array_equal(kiln.asnumpy(out), want)
    got, _ = kn.label(kiln.asarray(image.astype(np.float32), device=device), output=np.float32)
    assert str(got.dtype) == "float32"
    np.testing.assert_array_equal(kiln.asnumpy(got), want)
    with pytest.raises(RuntimeError, match="rank"):
        kn.label(kiln.asarray(image, device=device), structure=np.ones((3, 3, 3)))
    with pytest.raises(ValueError, match="equal to 3"):
        kn.label(kiln.asarray(image, device=device), structure=np.ones((3, 5)))
    with pytest.raises(TypeError, match="complex"):
        kn.label(kiln.asarray(image + 0j, device=device))
    labelled = kiln.asarray(want, device=device)
    assert kn.find_objects(labelled) == nd.find_objects(want)
    assert kn.find_objects(labelled, max_label=want_count + 2) == nd.find_objects(want, max_label=want_count + 2)
    assert kn.find_objects(labelled, max_label=2) == nd.find_objects(want, max_label=2)


def _same(got, want, rtol=1e-12):
    if isinstance(want, list):
        assert got == [tuple(int(v) for v in w) for w in want]
    elif isinstance(want, tuple):
        assert got == tuple(int(v) for v in want)
    else:
        np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=rtol, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "uint8"])
def test_order_statistics_and_spread_match_scipy(device, rng, dtype):
    shape = (14, 17)
    values = rng.permutation(np.arange(np.prod(shape)) % 200).reshape(shape)  # few repeats
    if dtype.startswith("float"):
        values = rng.random(shape)
    image = values.astype(dtype)
    labels = rng.integers(0, 5, shape)
    k_image, k_labels = kiln.asarray(image, device=device), kiln.asarray(labels, device=device)
    unique_values = np.unique(image).size == image.size
    # SciPy sums a float32 image's deviations in float32, kiln in double
    rtol = 1e-6 if dtype == "float32" else 1e-12
    for name in ("minimum", "maximum", "median", "variance", "standard_deviation", "minimum_position",
                 "maximum_position"):
        ours, theirs = getattr(kn, name), getattr(nd, name)
        _same(ours(k_image), theirs(image), rtol)
        for index in (None, 2, [1, 2, 3], np.arange(1, 5)):
            if "position" in name and not unique_values and index is not None and not np.isscalar(index):
                continue  # SciPy's position among equal values is its sort's choice
            given = kiln.asarray(index, device=device) if isinstance(index, np.ndarray) else index
            _same(ours(k_image, k_labels, given), theirs(image, labels, index), rtol)
    # an index that names absent labels: 0 for the order statistics, NaN for the spread
    got = kn.minimum(k_image, k_labels, [1, 9])
    assert float(kiln.asnumpy(got)[1]) == 0
    assert np.isnan(kiln.asnumpy(kn.variance(k_image, k_labels, [1, 9]))[1])
    low, high, low_at, high_at = kn.extrema(k_image, k_labels, [1, 3])
    want = nd.extrema(image, labels, [1, 3])
    _same(low, want[0])
    _same(high, want[1])
    if unique_values:
        assert low_at == [tuple(int(v) for v in w) for w in want[2]]
        assert high_at == [tuple(int(v) for v in w) for w in want[3]]


def test_labeled_comprehension_histogram_and_value_indices(device, rng):
    image = rng.random((16, 20)) * 100
    labels = rng.integers(0, 5, (16, 20))
    k_image, k_labels = kiln.asarray(image, device=device), kiln.asarray(labels, device=device)
    for index in (None, 2, [3, 1, 0], [0, 7]):
        given = kiln.asarray(np.array(index), device=device) if isinstance(index, list) else index
        for positions in (False, True):
            ours = (lambda x, p: (x + p > 50).sum()) if positions else (lambda x: x.sum())
            theirs = (lambda x, p: np.sum(x + p > 50)) if positions else np.sum
            got = kn.labeled_comprehension(k_image, k_labels, given, ours, np.float64, 3, positions)
            np.testing.assert_allclose(kiln.asnumpy(got), nd.labeled_comprehension(image, labels, index, theirs,
                                                                                     np.float64, 3, positions))
        got = kn.histogram(k_image, 0, 100, 5, k_labels, given)
        want = nd.histogram(image, 0, 100, 5, labels, index)
        if isinstance(index, list):
            assert len(got) == len(want)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(kiln.asnumpy(g), w)
        else:
            np.testing.assert_array_equal(kiln.asnumpy(got), want)
    with pytest.raises(ValueError, match="index"):
        kn.labeled_comprehension(k_image, None, [1], np.sum, np.float64, 0)
    volume = rng.integers(0, 8, (6, 7, 5)).astype(np.int16)
    for ignore in (None, 0, 5):
        got = kn.value_indices(kiln.asarray(volume, device=device), ignore_value=ignore)
        want = nd.value_indices(volume, ignore_value=ignore)
        assert got.keys() == want.keys()
        for key, places in want.items():
            for g, w in zip(got[key], places):
                np.testing.assert_array_equal(kiln.asnumpy(g), w)
    small = kn.value_indices(kiln.asarray(volume, device=device), adaptive_index_dtype=True)
    assert all(str(c.dtype) == "int8" for places in small.values() for c in places)
    with pytest.raises(ValueError, match="integer"):
        kn.value_indices(kiln.ones(3, device=device))
