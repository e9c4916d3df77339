"""CuPy's ReductionKernel on every device present, compared with NumPy."""
import numpy as np
import pytest

import kiln
from conftest import random_array, tolerance


def l2norm():
    return kiln.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (2, 0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_axis_and_keepdims(device, axis, keepdims):
    rng = np.random.default_rng(3)
    x = random_array((4, 5, 6), "float64", rng)
    got = l2norm()(kiln.asarray(x, device=device), axis=axis, keepdims=keepdims)
    expected = np.sqrt((x * x).sum(axis=axis if not isinstance(axis, list) else tuple(axis), keepdims=keepdims))
    assert got.shape == expected.shape
    np.testing.assert_allclose(kiln.asnumpy(got), expected, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
                                   "float64", "complex64", "complex128"])
def test_type_placeholders_over_dtypes(device, dtype):
    rng = np.random.default_rng(4)
    x = random_array((7, 33), dtype, rng)
    total = kiln.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "generic_sum")
    got = total(kiln.asarray(x, device=device), axis=1)
    assert got.dtype == dtype
    # float16 sums in float16 here, each addition rounded: compare with float32's sum.
    expected = x.sum(axis=1, dtype="float32" if dtype == "float16" else dtype)
    np.testing.assert_allclose(kiln.asnumpy(got), expected, rtol=tolerance(dtype) * 10, atol=0.1 if dtype == "float16" else 0)


def test_long_reductions_split_into_runs(device):
    rng = np.random.default_rng(5)
    x = random_array((3, 200_001), "float64", rng)
    total = kiln.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "long_sum")
    kx = kiln.asarray(x, device=device)
    np.testing.assert_allclose(float(kiln.asnumpy(total(kx))), x.sum(), rtol=1e-12)
    np.testing.assert_allclose(kiln.asnumpy(total(kx, axis=1)), x.sum(axis=1), rtol=1e-12)
    # A column reduction of a transposed view.
    np.testing.assert_allclose(kiln.asnumpy(total(kx.T, axis=0)), x.sum(axis=1), rtol=1e-12)


def test_broadcast_inputs_scalars_and_reduce_type(device):
    rng = np.random.default_rng(6)
    x, w = random_array((3, 5), "float32", rng), random_array((5,), "float32", rng)
    weighted = kiln.ReductionKernel("T x, T w, float64 scale", "T y", "x * w", "a + b", "y = a * scale", "0",
                                    "weighted", reduce_type="double")
    got = weighted(kiln.asarray(x, device=device), kiln.asarray(w, device=device), 0.5, axis=1)
    np.testing.assert_allclose(kiln.asnumpy(got), (x * w).astype(np.float64).sum(axis=1) * 0.5, rtol=1e-6, atol=1e-6)
    biggest = kiln.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", "-1e300", "biggest")
    np.testing.assert_array_equal(kiln.asnumpy(biggest(kiln.asarray(x, device=device), axis=0)), x.max(axis=0))


def test_out_empty_reductions_and_errors(device):
    total = kiln.ReductionKernel("T x", "T y", "x", "a + b", "y = a + 1", "0", "sum_plus_one")
    x = kiln.asarray(np.ones((4, 3)), device=device)
    out = kiln.empty(3, dtype="float64", device=device)
    assert total(x, axis=0, out=out) is out
    np.testing.assert_array_equal(kiln.asnumpy(out), [5, 5, 5])
    np.testing.assert_array_equal(kiln.asnumpy(total(kiln.zeros((0, 3), device=device), axis=0)), [1, 1, 1])
    assert total(kiln.zeros((0, 3), device=device), axis=1).shape == (0,)
    with pytest.raises(ValueError, match="output 'y' has shape"):
        total(x, axis=0, out=kiln.empty(4, dtype="float64", device=device))
    with pytest.raises(ValueError, match="axis 2 is out of bounds"):
        total(x, axis=2)
    with pytest.raises(ValueError, match="appears twice"):
        total(x, axis=(0, -2))
