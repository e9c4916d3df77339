"""Reading and writing through integer-array and boolean indices, and put,
against NumPy on every device present."""
import numpy as np
import pytest

import kiln

X = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
KEYS = {
    "list": [1, 0],
    "array": np.array([1, 0, 1]),
    "negative": (np.array([-1, 0]),),
    "two arrays": (np.array([1, 0]), np.array([2, 1])),
    "slice then list": (slice(None), [2, 0]),
    "ellipsis then list": (Ellipsis, [4, 0]),
    "int beside list": (0, [1, 2]),
    "separated by a slice": ([1], slice(1, 3), [3]),
    "adjacent after a slice": (slice(None), [0, 2], [1, 3]),
    "broadcast arrays": ([[0], [1]], [0, 2]),
    "newaxis before": (slice(None), None, [1, 2]),
    "newaxis between": ([0, 1], None, [1, 2]),
    "full mask": X % 3 == 0,
    "leading mask": X[:, :, 0, 0] > 5,
    "mask after a slice": (slice(None), X[0, :, :, 0] % 2 == 0),
    "ints around a list": (1, slice(None), [0, -1], 2),
    "empty list": ([],),
    "2-d index with slices": (slice(None), [[1, 2], [0, 0]], slice(1, 3)),
}


@pytest.mark.parametrize("name", list(KEYS))
@pytest.mark.parametrize("dtype", ["int64", "float32", "bool", "complex128"])
def test_reading_matches_numpy(device, name, dtype):
    x = X.astype(dtype)
    key = KEYS[name]
    got = kiln.asarray(x, device=device)[key]
    want = x[key]
    assert isinstance(got, kiln.ndarray) and got.device == device
    np.testing.assert_array_equal(kiln.asnumpy(got), want)
    assert kiln.asnumpy(got).shape == want.shape


def test_kiln_arrays_as_keys_and_errors(device):
    k = kiln.asarray(X, device=device)
    idx = kiln.asarray(np.array([1, 0]), device=device)
    np.testing.assert_array_equal(kiln.asnumpy(k[idx, idx]), X[[1, 0], [1, 0]])
    np.testing.assert_array_equal(kiln.asnumpy(k[k > 100]), X[X > 100])
    with pytest.raises(IndexError, match="out of bounds"):
        k[[5]]
    with pytest.raises(IndexError, match="out of bounds"):
        k[0, [0], [7]]
    with pytest.raises(IndexError, match="boolean index did not match"):
        k[np.ones(3, bool)]
    with pytest.raises(IndexError, match="integer"):
        k[np.array([0.5])]
    with pytest.raises(IndexError, match="too many indices"):
        k[0, 0, 0, 0, [0]]


def test_take_reports_the_first_index_out_of_bounds(device):
    k = kiln.asarray(np.arange(5.0), device=device)
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 5"):
        kiln.take(k, kiln.asarray(np.array([1, 9, -20, 11]), device=device))
    with pytest.raises(IndexError, match="index -6 is out of bounds for axis 1 with size 5"):
        kiln.take(kiln.reshape(kiln.tile(k, 2), (2, 5)), kiln.asarray(np.array([0, -6]), device=device), axis=1)
    big = np.arange(1 << 20) % 1000
    big[777_777] = 1000
    with pytest.raises(IndexError, match="index 1000 is out of bounds"):
        kiln.take(kiln.asarray(np.arange(1000.0), device=device), kiln.asarray(big, device=device))
    assert kiln.asnumpy(k).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]  # the array is still usable


def test_large_masks_and_gathers(device, rng):
    x = rng.standard_normal(3_000_017).astype("float32")
    k = kiln.asarray(x, device=device)
    np.testing.assert_array_equal(kiln.asnumpy(k[k > 0.5]), x[x > 0.5])
    np.testing.assert_array_equal(kiln.asnumpy(kiln.flatnonzero(k > 3.0)), np.flatnonzero(x > 3.0))
    assert kiln.flatnonzero(k > 100).shape == (0,)
    np.testing.assert_array_equal(kiln.asnumpy(kiln.flatnonzero(k == k)), np.arange(x.size))
    idx = rng.integers(-x.size, x.size, 1_000_003)
    np.testing.assert_array_equal(kiln.asnumpy(k[kiln.asarray(idx, device=device)]), x[idx])


REPEATING = {"array", "2-d index with slices"}  # keys that select a position twice
ASSIGNABLE = ["list", "array", "negative", "two arrays", "slice then list", "int beside list",
              "separated by a slice", "adjacent after a slice", "broadcast arrays", "full mask", "leading mask",
              "mask after a slice", "ints around a list", "empty list", "2-d index with slices"]


@pytest.mark.parametrize("name", ASSIGNABLE)
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128"])
def test_writing_matches_numpy(device, name, dtype):
    key = KEYS[name]
    want = X.astype(dtype)
    k = kiln.asarray(want.copy(), device=device)
    k[key] = 7  # a scalar, broadcast
    want[key] = 7
    np.testing.assert_array_equal(kiln.asnumpy(k), want)
    if device.type == "cuda" and name in REPEATING:
        return  # which of a repeated position's values stays is unspecified on the GPU (as in CuPy)
    shape = want[key].shape
    values = (np.arange(int(np.prod(shape))) * 3 + 1).reshape(shape).astype(dtype)
    k[key] = kiln.asarray(values, device=device)  # values of the selection's shape
    want[key] = values
    np.testing.assert_array_equal(kiln.asnumpy(k), want)


def test_writing_into_views_and_put(device):
    want = np.arange(20.0).reshape(4, 5)
    k = kiln.asarray(want.copy(), device=device)
    k.T[[1, 3]] = -1.0  # a non-contiguous target
    want.T[[1, 3]] = -1.0
    np.testing.assert_array_equal(kiln.asnumpy(k), want)
    k[k > 10] = k[k > 10] * 2
    want[want > 10] = want[want > 10] * 2
    np.testing.assert_array_equal(kiln.asnumpy(k), want)
    a, b = kiln.zeros(6, device=device), np.zeros(6)
    kiln.put(a, [0, -1, 2], [1.0, 2.0])
    np.put(b, [0, -1, 2], [1.0, 2.0])
    np.testing.assert_array_equal(kiln.asnumpy(a), b)
    kiln.put(a, [7, -8], [5.0], mode="wrap")
    np.put(b, [7, -8], [5.0], mode="wrap")
    np.testing.assert_array_equal(kiln.asnumpy(a), b)
    with pytest.raises(IndexError, match="out of bounds"):
        kiln.put(a, [6], [1.0])
    with pytest.raises(ValueError):
        k[[0, 1]] = kiln.ones(3, device=device)  # does not broadcast to (2, 5)
    if device.type == "cpu":  # a repeated index keeps the last value, as NumPy's
        c, d = kiln.zeros(3, device=device), np.zeros(3)
        c[[1, 1, 1]] = kiln.asarray(np.array([4.0, 5.0, 6.0]))
        d[[1, 1, 1]] = [4.0, 5.0, 6.0]
        np.testing.assert_array_equal(kiln.asnumpy(c), d)


def test_zero_d_boolean_masks(device):
    """A 0-d mask adds an axis it selects from (length 1 where True, 0 where
    False), reading and writing, as NumPy's does."""
    for value in (3.0, -1.0):
        x, k = np.asarray(value), kiln.asarray(value, device=device)
        np.testing.assert_array_equal(kiln.asnumpy(k[k > 0]), x[x > 0])
        x[x > 0], k[k > 0] = np.inf, np.inf
        np.testing.assert_array_equal(kiln.asnumpy(k), x)
    m = np.arange(6).reshape(2, 3)
    km = kiln.asarray(m, device=device)
    np.testing.assert_array_equal(kiln.asnumpy(km[kiln.asarray(True), 1]), m[np.True_, 1])
    assert km[..., kiln.asarray(False)].shape == m[..., np.False_].shape


def test_python_bools_beside_index_arrays(device):
    """Beside index arrays a Python bool is a 0-d mask, as in NumPy."""
    x = np.arange(24).reshape(2, 3, 4)
    k = kiln.asarray(x, device=device)
    for key in [(True, [0, 1]), (True, [1], slice(None), True), (False, [[0]])]:
        np.testing.assert_array_equal(kiln.asnumpy(k[key]), x[key])
    x[True, [0, 1]] = 7
    k[True, [0, 1]] = 7
    np.testing.assert_array_equal(kiln.asnumpy(k), x)
