"""flatnonzero, nonzero, argwhere, count_nonzero, compress and extract against
NumPy on every device present."""
import numpy as np
import pytest

import kiln

DTYPES = ["bool", "int8", "uint32", "int64", "float16", "float32", "float64", "complex64"]


def _same(got, want):
    g = kiln.asnumpy(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype, want.dtype)
    np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (0, 3), (100_003,)])
def test_finding_nonzeros(device, dtype, shape):
    rng = np.random.default_rng(sum(shape))
    x = (rng.random(shape) < 0.3).astype(dtype) * (2 if dtype != "bool" else 1)
    if dtype.startswith("float") and x.size:
        x.reshape(-1)[0] = np.nan  # NaN is nonzero
    k = kiln.asarray(x, device=device)
    _same(kiln.flatnonzero(k), np.flatnonzero(x))
    for got, want in zip(kiln.nonzero(k), np.nonzero(x)):
        _same(got, want.astype(np.int64))
    _same(kiln.argwhere(k), np.argwhere(x).astype(np.int64))
    _same(kiln.count_nonzero(k), np.asarray(np.count_nonzero(x), dtype=np.int64))
    if x.ndim > 1:
        _same(kiln.count_nonzero(k, axis=1), np.count_nonzero(x, axis=1).astype(np.int64))
    _same(kiln.extract(k != 0, k), np.extract(x != 0, x))


def test_compress_and_strided_input(device):
    x = np.arange(24).reshape(4, 6)
    k = kiln.asarray(x, device=device)
    _same(kiln.compress([True, False, True, True], k, axis=0), np.compress([True, False, True, True], x, axis=0))
    _same(kiln.compress([0, 1, 1], k, axis=1), np.compress([0, 1, 1], x, axis=1))
    _same(kiln.compress([1, 0, 1], k), np.compress([1, 0, 1], x))
    _same(kiln.flatnonzero(k[:, ::-2] % 3), np.flatnonzero(x[:, ::-2] % 3))
    _same(k.nonzero()[1], x.nonzero()[1].astype(np.int64))
    with pytest.raises(IndexError, match="out of bounds"):
        kiln.compress([0, 0, 0, 0, 1], k, axis=0)
    with pytest.raises(ValueError, match="1-d"):
        kiln.compress([[1]], k)
    with pytest.raises(ValueError, match="0d"):
        kiln.nonzero(kiln.asarray(1.0, device=device))
    assert kiln.argwhere(kiln.asarray(3.0, device=device)).shape == np.argwhere(np.array(3.0)).shape
    _same(kiln.flatnonzero(kiln.zeros(10, device=device)), np.flatnonzero(np.zeros(10)))


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "int32", "float64", "complex128"])
def test_selecting_by_a_mask_of_the_whole_shape(device, dtype, rng):
    """x[mask] with mask of x's shape and extract: the elements in one pass,
    each dtype's size, strided and reversed views, none or all kept."""
    from conftest import random_array
    for shape in [(7,), (40, 33), (3, 1, 50), (100_003,)]:
        x = random_array(shape, dtype, rng)
        mask = rng.random(shape) < 0.4
        k, km = kiln.asarray(x, device=device), kiln.asarray(mask, device=device)
        np.testing.assert_array_equal(kiln.asnumpy(k[km]), x[mask])
        np.testing.assert_array_equal(kiln.asnumpy(kiln.extract(km, k)), np.extract(mask, x))
        np.testing.assert_array_equal(kiln.asnumpy(k[::-1][km[::-1]]), x[::-1][mask[::-1]])
        assert kiln.asnumpy(k[kiln.zeros_like(km)]).shape == (0,)
        np.testing.assert_array_equal(kiln.asnumpy(k[kiln.ones_like(km)]), x.ravel())
        assert k[km].dtype == x.dtype
    x2 = random_array((6, 8), dtype, rng)
    k2 = kiln.asarray(x2, device=device)
    np.testing.assert_array_equal(kiln.asnumpy(k2.T[k2.T != k2.T[0, 0]]), x2.T[x2.T != x2.T[0, 0]])
    with pytest.raises(ValueError, match="condition has 3 elements"):
        kiln.extract(kiln.ones(3, dtype="bool", device=device), k2)


def test_where_with_the_condition_alone_is_nonzero(device):
    a = np.array([[0, 3, 0], [4, 0, 5]])
    got = kiln.where(kiln.asarray(a, device=device))
    want = np.where(a)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(kiln.asnumpy(g), w)
    with pytest.raises(ValueError, match="both or neither"):
        kiln.where(kiln.asarray(a, device=device), 1)
