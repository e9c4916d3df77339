"""kiln.bincount against NumPy, on every device present."""
import numpy as np
import pytest

import kiln

from conftest import INT_DTYPES

WEIGHT_DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float32", "float64"]


def _values(dtype, n, high, rng):
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    return rng.integers(0, min(high, np.iinfo(dtype).max), n).astype(dtype)


@pytest.mark.parametrize("dtype", ["bool"] + [d for d in INT_DTYPES if d != "uint64"])
@pytest.mark.parametrize("n, high", [(1, 5), (1000, 7), (100_000, 300), (300_000, 20_000)])
def test_counts_match_numpy(device, dtype, n, high):
    x = _values(dtype, n, high, np.random.default_rng(n + high))
    got = kiln.bincount(kiln.asarray(x, device=device))
    assert got.dtype == kiln.int64 and got.device == device
    np.testing.assert_array_equal(kiln.asnumpy(got), np.bincount(x))


@pytest.mark.parametrize("weight_dtype", WEIGHT_DTYPES)
@pytest.mark.parametrize("n, high", [(1000, 7), (200_000, 9000)])
def test_weight_sums_match_numpy(device, weight_dtype, n, high):
    rng = np.random.default_rng(n)
    x = rng.integers(0, high, n)
    w = (rng.standard_normal(n) * 10).astype(weight_dtype)
    got = kiln.bincount(kiln.asarray(x, device=device), weights=kiln.asarray(w, device=device))
    assert got.dtype == kiln.float64
    # CPU: NumPy's order, so exactly; GPU: atomics in any order.
    np.testing.assert_allclose(kiln.asnumpy(got), np.bincount(x, weights=w), rtol=1e-12, atol=1e-9)


def test_minlength_views_and_lists(device):
    x = np.array([3, 1, 1, 4, 0, 9, 2, 2, 2], dtype=np.int32)
    a = kiln.asarray(x, device=device)
    np.testing.assert_array_equal(kiln.asnumpy(kiln.bincount(a, minlength=20)), np.bincount(x, minlength=20))
    np.testing.assert_array_equal(kiln.asnumpy(kiln.bincount(a, minlength=3)), np.bincount(x, minlength=3))
    np.testing.assert_array_equal(kiln.asnumpy(kiln.bincount(a[::-2])), np.bincount(x[::-2]))
    w = np.linspace(0, 1, 9)
    np.testing.assert_allclose(kiln.asnumpy(kiln.bincount(a[1::2], weights=kiln.asarray(w, device=device)[::2][:4])),
                               np.bincount(x[1::2], weights=w[::2][:4]))
    np.testing.assert_array_equal(kiln.asnumpy(kiln.bincount([0, 2, 2])), np.bincount([0, 2, 2]))


def test_empty_input(device):
    empty = kiln.asarray(np.zeros(0, dtype=np.int64), device=device)
    assert kiln.asnumpy(kiln.bincount(empty)).tolist() == []
    got = kiln.bincount(empty, minlength=4)
    assert got.dtype == kiln.int64 and kiln.asnumpy(got).tolist() == [0, 0, 0, 0]
    got = kiln.bincount(empty, weights=kiln.asarray(np.zeros(0), device=device), minlength=2)
    assert got.dtype == kiln.float64 and kiln.asnumpy(got).tolist() == [0.0, 0.0]


def test_bad_input_raises_what_numpy_raises(device):
    def on(a):
        return kiln.asarray(np.asarray(a), device=device)

    with pytest.raises(ValueError, match="negative"):
        kiln.bincount(on([1, -1, 2]))
    with pytest.raises(ValueError, match="1-D"):
        kiln.bincount(on([[1, 2]]))
    with pytest.raises(ValueError, match="1-D"):
        kiln.bincount(on(3))
    with pytest.raises(TypeError, match="x must hold integers"):
        kiln.bincount(on([1.0, 2.0]))
    with pytest.raises(TypeError, match="x must hold integers"):
        kiln.bincount(on(np.array([1, 2], dtype=np.uint64)))
    with pytest.raises(ValueError, match="minlength"):
        kiln.bincount(on([1, 2]), minlength=-1)
    with pytest.raises(ValueError, match="weights must have x's shape"):
        kiln.bincount(on([1, 2]), weights=on([1.0]))
    with pytest.raises(TypeError, match="weights must cast safely"):
        kiln.bincount(on([1, 2]), weights=on([1j, 2j]))
    for call in (lambda: np.bincount([1, -1]), lambda: np.bincount(np.array([1.0])), lambda: np.bincount([[1]]),
                 lambda: np.bincount([1], minlength=-1), lambda: np.bincount([1, 2], weights=[1.0])):
        with pytest.raises((ValueError, TypeError)):  # NumPy raises the same kinds
            call()


@pytest.mark.skipif(not kiln.cuda.is_available(), reason="needs a GPU")
def test_weights_on_another_device_are_refused():
    with pytest.raises(TypeError, match="weights are on"):
        kiln.bincount(kiln.asarray([1, 2], device="cuda"), weights=kiln.asarray([1.0, 2.0], device="cpu"))
