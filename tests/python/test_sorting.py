"""sort, argsort, lexsort, partition, searchsorted, unique, isin, histogram
and digitize against NumPy on every device present: every dtype, ties (for
stability), NaN, infinities and signed zeros, several axes, views, 0-d and
empty arrays."""
import numpy as np
import pytest

import kiln
from conftest import ALL_DTYPES, assert_matches, random_array


def _keys(shape, dtype, rng):
    """Random keys with many ties, and NaN, infinities and -0.0 among floats."""
    x = random_array(shape, dtype, rng)
    flat = x.reshape(-1)
    if x.dtype.kind == "f" and flat.size >= 6:
        flat[:: 5] = np.round(flat[:: 5])
        flat[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.0, np.nan]
    if x.dtype.kind == "c" and flat.size >= 6:
        flat[:6] = [complex(np.nan, 1), complex(1, np.nan), complex(np.nan, np.nan), 1 + 0j, complex(np.nan, -1),
                    complex(1, -np.inf)]
        flat[6::4] = flat[6::4].real.round()
    rng.shuffle(flat)
    return x


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(0,), (1,), (37,), (4, 9), (3, 0, 5), (2, 3, 50)])
def test_sort_and_argsort_match_numpy(device, dtype, shape, rng):
    x = _keys(shape, dtype, rng)
    k = kiln.asarray(x, device=device)
    for axis in {-1, 0}:
        assert_matches(kiln.sort(k, axis=axis), np.sort(x, axis=axis, kind="stable"))
        assert_matches(kiln.argsort(k, axis=axis), np.argsort(x, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint32", "int64", "float16", "float32", "float64", "complex64",
                                   "complex128"])
@pytest.mark.parametrize("shape", [(300_007,), (3, 40_001), (5_000, 7)])  # 300,007: one row over several threads
def test_long_rows_and_many_rows(device, dtype, shape, rng):
    x = _keys(shape, dtype, rng)
    k = kiln.asarray(x, device=device)
    assert_matches(kiln.sort(k), np.sort(x, kind="stable"))
    assert_matches(kiln.argsort(k), np.argsort(x, kind="stable"))
    assert_matches(kiln.argsort(k, axis=0), np.argsort(x, axis=0, kind="stable"))


def test_views_flattening_and_descending(device, rng):
    x = _keys((6, 8), "float32", rng)
    k = kiln.asarray(x, device=device)
    assert_matches(kiln.sort(k[::-1, ::3]), np.sort(x[::-1, ::3]))
    assert_matches(kiln.argsort(k.T, axis=1), np.argsort(x.T, axis=1, kind="stable"))
    assert_matches(kiln.sort(k, axis=None), np.sort(x, axis=None))
    assert_matches(kiln.argsort(k, axis=None), np.argsort(x, axis=None, kind="stable"))
    assert_matches(kiln.sort(kiln.asarray(2.5, device=device), axis=None), np.sort(np.array(2.5), axis=None))
    ties = np.array([2, 1, 2, 3, 1, 2])
    t = kiln.asarray(ties, device=device)
    assert_matches(kiln.sort(t, descending=True), np.array([3, 2, 2, 2, 1, 1]))
    # Descending keeps equal elements in their original order too.
    assert_matches(kiln.argsort(t, descending=True), np.array([3, 0, 2, 5, 1, 4]))
    assert_matches(kiln.argsort(k, axis=0, descending=True),
                   np.flip(np.argsort(np.flip(x, 0), axis=0, kind="stable"), 0).__rsub__(5))


def test_in_place_methods_and_numpy_dispatch(device, rng):
    x = _keys((5, 6), "int32", rng)
    k = kiln.asarray(x, device=device)
    assert_matches(k.argsort(axis=0), np.argsort(x, axis=0, kind="stable"))
    k.sort(axis=0)
    assert_matches(k, np.sort(x, axis=0))
    s = np.sort(x[0])
    assert_matches(kiln.asarray(s, device=device).searchsorted(3, side="right"), np.searchsorted(s, 3, side="right"))
    if device.type == "cpu":
        assert isinstance(np.sort(k), kiln.ndarray)
        assert_matches(np.unique(k), np.unique(x))


def test_bad_input(device):
    k = kiln.asarray([3.0, 1.0], device=device)
    with pytest.raises(ValueError, match="sort kind"):
        kiln.sort(k, kind="bogo")
    with pytest.raises(ValueError, match="order"):
        kiln.argsort(k, order="f0")
    with pytest.raises(IndexError, match="axis 1 is out of bounds"):
        kiln.sort(k, axis=1)
    with pytest.raises(IndexError, match="dimension 0"):
        kiln.sort(kiln.asarray(1.0, device=device))
    with pytest.raises(ValueError, match="side"):
        kiln.searchsorted(k, 1.0, side="middle")
    with pytest.raises(ValueError, match="1-D"):
        kiln.searchsorted(kiln.ones((2, 2), device=device), 1.0)
    with pytest.raises(ValueError, match=r"kth\(=2\) out of bounds \(2\)"):
        kiln.partition(k, 2)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_searchsorted(device, dtype, rng):
    a = np.sort(_keys((50,), dtype, rng), kind="stable")
    v = _keys((4, 9), dtype, rng)
    ka, kv = kiln.asarray(a, device=device), kiln.asarray(v, device=device)
    for side in ("left", "right"):
        assert_matches(kiln.searchsorted(ka, kv, side=side), np.searchsorted(a, v, side=side))
    order = np.argsort(a[::-1], kind="stable")
    assert_matches(kiln.searchsorted(ka[::-1], kv, sorter=kiln.asarray(order, device=device)),
                   np.searchsorted(a[::-1], v, sorter=order))
    assert_matches(kiln.searchsorted(ka, kv[0, 0]), np.asarray(np.searchsorted(a, v[0, 0])))
    assert_matches(kiln.searchsorted(ka[:0], kv), np.searchsorted(a[:0], v))


def test_searchsorted_mixed_dtypes(device):
    a = np.array([1, 3, 5, 7], dtype=np.int16)
    v = np.array([0.5, 3.0, 3.5, np.nan, 8.0])
    assert_matches(kiln.searchsorted(kiln.asarray(a, device=device), kiln.asarray(v, device=device)),
                   np.searchsorted(a, v))


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_partition_and_lexsort(device, dtype, rng):
    x = _keys((4, 30), dtype, rng)
    k = kiln.asarray(x, device=device)
    for kth in (0, 7, -1, [3, 20]):
        got = kiln.asnumpy(kiln.partition(k, kth, axis=1))
        idx = kiln.asnumpy(kiln.argpartition(k, kth, axis=1))
        for j in np.atleast_1d(kth):
            # The kth element is where a sort puts it; smaller before, larger after.
            np.testing.assert_array_equal(got[:, j], np.sort(x, axis=1)[:, j])
            np.testing.assert_array_equal(np.take_along_axis(x, idx, 1)[:, j], np.sort(x, axis=1)[:, j])
    a, b = _keys((40,), dtype, rng), random_array((40,), "int8", rng, -2, 2)
    assert_matches(kiln.lexsort([kiln.asarray(a, device=device), kiln.asarray(b, device=device)]),
                   np.lexsort([a, b]))
    assert_matches(kiln.lexsort(kiln.asarray(np.stack([b, b[::-1]]), device=device)),
                   np.lexsort(np.stack([b, b[::-1]])))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(0,), (1,), (3, 17), (2000,)])
def test_unique(device, dtype, shape, rng):
    x = _keys(shape, dtype, rng)
    if x.dtype.kind == "f" and x.size > 9:
        x.reshape(-1)[7:10] = np.nan  # several NaNs: one value with equal_nan, each its own without
    k = kiln.asarray(x, device=device)
    assert_matches(kiln.unique(k), np.unique(x))
    for got, want in zip(kiln.unique(k, return_index=True, return_inverse=True, return_counts=True),
                         np.unique(x, return_index=True, return_inverse=True, return_counts=True)):
        assert_matches(got, want.astype(np.int64) if want.dtype == np.intp else want)
    assert_matches(kiln.unique(k, equal_nan=False), np.unique(x, equal_nan=False))
    # Each NaN is its own value here, and which of them NumPy lists first is
    # its sort's choice: the indices are checked by what they select.
    got, want = kiln.unique_all(k), np.unique_all(x)
    assert got._fields == want._fields
    assert_matches(got.values, want.values)
    assert_matches(got.counts, want.counts)
    assert got.inverse_indices.shape == x.shape and got.indices.shape == want.indices.shape
    values = kiln.asnumpy(got.values)
    np.testing.assert_array_equal(values[kiln.asnumpy(got.inverse_indices)], x)
    np.testing.assert_array_equal(x.reshape(-1)[kiln.asnumpy(got.indices)], values)
    assert kiln.unique_counts(k)._fields == np.unique_counts(x)._fields
    assert_matches(kiln.unique_counts(k).counts, want.counts)
    assert_matches(kiln.unique_inverse(k).inverse_indices, got.inverse_indices.get())
    # NumPy's unique_values may come in any order (a hash table's, for integers).
    assert_matches(kiln.unique_values(k), np.sort(np.unique_values(x)))


def test_unique_along_an_axis(device, rng):
    x = random_array((7, 3), "int16", rng, -1, 1)
    k = kiln.asarray(x, device=device)
    for axis in (0, 1, -1):
        for got, want in zip(kiln.unique(k, return_index=True, return_inverse=True, return_counts=True, axis=axis),
                             np.unique(x, return_index=True, return_inverse=True, return_counts=True, axis=axis)):
            assert_matches(got, want)
    assert_matches(kiln.unique(kiln.asarray(x[:0], device=device), axis=0), np.unique(x[:0], axis=0))
    assert_matches(kiln.unique(kiln.asarray(5, device=device)), np.unique(5))


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64"])
def test_isin(device, dtype, rng):
    x = _keys((5, 6), dtype, rng)
    t = np.concatenate([x.reshape(-1)[::4], random_array((5,), dtype, rng)])
    k, kt = kiln.asarray(x, device=device), kiln.asarray(t, device=device)
    assert_matches(kiln.isin(k, kt), np.isin(x, t))
    assert_matches(kiln.isin(k, kt, invert=True), np.isin(x, t, invert=True))
    assert_matches(kiln.isin(k, kt[:0]), np.isin(x, t[:0]))


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64"])
def test_histogram(device, dtype, rng):
    x = random_array((1000,), dtype, rng, -3, 9)
    w = rng.random(1000)
    k, kw = kiln.asarray(x, device=device), kiln.asarray(w, device=device)
    for bins, range_ in ((10, None), (7, (0, 5)), (np.array([-3.0, 0.0, 0.5, 4.0, 9.0]), None)):
        kb = kiln.asarray(bins, device=device) if isinstance(bins, np.ndarray) else bins
        counts, edges = kiln.histogram(k, bins=kb, range=range_)
        want_counts, want_edges = np.histogram(x, bins=bins, range=range_)
        assert_matches(counts, want_counts.astype(np.int64))
        assert_matches(edges, want_edges, rtol=1e-6)
        assert_matches(kiln.histogram_bin_edges(k, bins=kb, range=range_), want_edges, rtol=1e-6)
        assert_matches(kiln.histogram(k, bins=kb, range=range_, weights=kw)[0],
                       np.histogram(x, bins=bins, range=range_, weights=w)[0], rtol=1e-12)
        assert_matches(kiln.histogram(k, bins=kb, range=range_, density=True)[0],
                       np.histogram(x, bins=bins, range=range_, density=True)[0], rtol=1e-6)
    assert_matches(kiln.histogram(kiln.asarray(x[:0], device=device))[0], np.histogram(x[:0])[0].astype(np.int64))
    assert_matches(kiln.histogram(kiln.full(4, 2.0, device=device), bins=3)[1], np.histogram(np.full(4, 2.0), 3)[1])


def test_histogram_bad_input(device):
    k = kiln.asarray([1.0, np.nan], device=device)
    with pytest.raises(ValueError, match="not finite"):
        kiln.histogram(k)
    with pytest.raises(ValueError, match="monotonically"):
        kiln.histogram(kiln.asarray([1.0], device=device), bins=kiln.asarray([0.0, 2.0, 1.0], device=device))
    with pytest.raises(ValueError, match="positive"):
        kiln.histogram(kiln.asarray([1.0], device=device), bins=0)
    with pytest.raises(TypeError, match="estimator"):
        kiln.histogram(kiln.asarray([1.0], device=device), bins="auto")
    with pytest.raises(ValueError, match="same shape"):
        kiln.histogram(kiln.asarray([1.0], device=device), weights=kiln.asarray([1.0, 2.0], device=device))


def test_digitize(device, rng):
    x = rng.uniform(-1, 11, 200)
    x[:3] = [np.nan, 0.0, 10.0]
    for bins in (np.array([0.0, 1.0, 2.5, 4.0, 10.0]), np.array([10.0, 4.0, 2.5, 1.0, 0.0])):
        for right in (False, True):
            assert_matches(kiln.digitize(kiln.asarray(x, device=device), kiln.asarray(bins, device=device), right),
                           np.digitize(x, bins, right))
    with pytest.raises(ValueError, match="monotonically"):
        kiln.digitize(kiln.asarray(x, device=device), kiln.asarray([0.0, 2.0, 1.0], device=device))
