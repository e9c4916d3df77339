"""Reductions and scans against NumPy over axes, keepdims, dtype=, views, 0-d and empty."""
import math
import warnings

import numpy as np
import pytest

import kiln
from conftest import ALL_DTYPES, assert_matches, random_array

AXES = [None, 0, 1, -1, (0, 2), (1, 2), (0, 1, 2), ()]


def np_reduce(name, x, **kw):
    fn = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max, "mean": np.mean,
          "any": np.any, "all": np.all}[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(fn(x, **kw))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["sum", "prod", "min", "max", "mean", "any", "all"])
def test_reductions_all_dtypes(name, dtype, device, rng):
    low, high = (0, 3) if name == "prod" else (-5, 5)
    x = random_array((4, 5, 6), dtype, rng, low, high)
    k = kiln.asarray(x, device=device)
    for axis in AXES:
        for keepdims in (False, True):
            if name == "mean" and dtype == "bool":
                continue  # NumPy's mean of bool is float64, as kiln's; covered below
            expected = np_reduce(name, x, axis=axis, keepdims=keepdims)
            result = getattr(kiln, name)(k, axis=axis, keepdims=keepdims)
            rtol = 1e-2 if dtype == "float16" else None
            assert_matches(result, expected, rtol)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float32", "float16"])
def test_sum_dtype_argument(dtype, device, rng):
    x = random_array((30, 7), dtype, rng, 0, 100)
    k = kiln.asarray(x, device=device)
    for out_dtype in ("int64", "float64", "int16", "float32"):
        assert_matches(kiln.sum(k, axis=0, dtype=out_dtype), np.sum(x, axis=0, dtype=out_dtype), 1e-3)
    assert_matches(kiln.mean(k, axis=1, dtype="float64"), np.mean(x, axis=1, dtype="float64"))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64", "float16"])
@pytest.mark.parametrize("correction", [0, 1])
def test_var_std(dtype, correction, device, rng):
    x = random_array((6, 8, 3), dtype, rng)
    k = kiln.asarray(x, device=device)
    for axis in (None, 0, (1, 2)):
        for keepdims in (False, True):
            rtol = 5e-3 if dtype == "float16" else 1e-5
            assert_matches(kiln.var(k, axis=axis, correction=correction, keepdims=keepdims),
                           np.var(x, axis=axis, ddof=correction, keepdims=keepdims), rtol)
            assert_matches(kiln.std(k, axis=axis, ddof=correction, keepdims=keepdims),
                           np.std(x, axis=axis, ddof=correction, keepdims=keepdims), rtol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64", "bool", "float16"])
def test_var_over_every_kernel_shape(dtype, device, rng):
    """Long rows (split over blocks), columns walked by a thread each, many
    short rows, strided and reversed views: each way the reduction kernels
    split the work merges the running mean and squared deviations."""
    rtol = 5e-3 if dtype == "float16" else 1e-4 if dtype == "float32" else 1e-9
    for shape, axis in [((70001,), None), ((300, 2000), 0), ((2000, 300), 1), ((4, 50000), 1),
                        ((64, 3, 257), (0, 2)), ((5000, 7), 0), ((1,), None)]:
        x = random_array(shape, dtype, rng, -20, 20)
        k = kiln.asarray(x, device=device)
        # NumPy sums float16's squared deviations in float16 (inf past 65504);
        # kiln in float32, as NumPy's float16 mean does
        wide = x.astype("float32") if dtype == "float16" else x
        assert_matches(kiln.var(k, axis=axis), np.var(wide, axis=axis).astype(np.var(x[:1]).dtype), rtol)
        view = (slice(None, None, -2),) * len(shape)
        assert_matches(kiln.std(k[view], axis=axis, correction=1),
                       np.std(wide[view], axis=axis, ddof=1).astype(np.var(x[:1]).dtype), rtol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_var_of_values_far_from_zero(dtype, device, rng):
    """A mean a million times the spread: the one-pass accumulator must keep
    NumPy's two-pass accuracy (a sum of squares minus the squared sum would
    lose every digit in float32)."""
    x = (1e4 + rng.standard_normal(200_000) * 1e-2).astype(dtype)
    got = float(kiln.var(kiln.asarray(x, device=device)))
    want = float(np.var(x.astype("float64")))
    assert abs(got - want) <= (2e-2 if dtype == "float32" else 1e-8) * want


def test_var_special_values(device):
    x = np.array([[1.0, np.nan, 3.0], [np.inf, 2.0, 2.0], [np.inf, -np.inf, 0.0], [5.0, 5.0, 5.0],
                  [1.0, 2.0, np.inf], [np.inf, np.inf, np.inf]])
    k = kiln.asarray(x, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_matches(kiln.var(k, axis=1), np.var(x, axis=1))
        assert_matches(kiln.var(kiln.asarray(np.zeros((0, 3)), device=device), axis=0), np.var(np.zeros((0, 3)), axis=0))
        assert_matches(kiln.var(kiln.asarray(np.ones(3), device=device), correction=5), np.var(np.ones(3), ddof=5))
        assert_matches(kiln.var(kiln.asarray(np.array([np.inf], "float32"), device=device)),
                       np.var(np.array([np.inf], "float32")))
    # dtype= other than the computation's own: the two-pass way, same answer
    y = np.arange(12, dtype="float32").reshape(3, 4)
    assert_matches(kiln.var(kiln.asarray(y, device=device), axis=1, dtype="float64"),
                   np.var(y, axis=1, dtype="float64"))


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex128", "bool"])
def test_argmin_argmax(dtype, device, rng):
    x = random_array((5, 7, 4), dtype, rng, -3, 3)  # small range: many ties, first wins
    k = kiln.asarray(x, device=device)
    for axis in (None, 0, 1, -1):
        for keepdims in (False, True):
            assert_matches(kiln.argmin(k, axis=axis, keepdims=keepdims), np.argmin(x, axis=axis, keepdims=keepdims))
            assert_matches(kiln.argmax(k, axis=axis, keepdims=keepdims), np.argmax(x, axis=axis, keepdims=keepdims))


def test_nan_propagation(device):
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, -np.inf]])
    k = kiln.asarray(x, device=device)
    for name in ("min", "max", "sum", "prod", "mean"):
        for axis in (None, 0, 1):
            assert_matches(getattr(kiln, name)(k, axis=axis), np_reduce(name, x, axis=axis))
    assert_matches(kiln.argmax(k, axis=1), np.argmax(x, axis=1))
    assert_matches(kiln.argmin(k), np.argmin(x))


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "uint8", "bool"])
def test_cumulative(dtype, device, rng):
    x = random_array((4, 6), dtype, rng, 0, 3)
    k = kiln.asarray(x, device=device)
    for axis in (0, 1, -1):
        rtol = None if dtype != "float32" else 1e-5
        assert_matches(kiln.cumulative_sum(k, axis=axis), np.cumulative_sum(x, axis=axis), rtol)
        assert_matches(kiln.cumulative_prod(k, axis=axis), np.cumulative_prod(x, axis=axis), rtol)
        assert_matches(kiln.cumulative_sum(k, axis=axis, include_initial=True),
                       np.cumulative_sum(x, axis=axis, include_initial=True), rtol)
    assert_matches(kiln.cumsum(k), np.cumsum(x), 1e-5)
    assert_matches(kiln.cumprod(k, axis=1), np.cumprod(x, axis=1), 1e-5)
    assert_matches(kiln.cumulative_sum(k[:, 0], dtype="float64"), np.cumulative_sum(x[:, 0], dtype="float64"))


def test_cumulative_needs_axis_for_nd(device):
    with pytest.raises(ValueError, match="axis"):
        kiln.cumulative_sum(kiln.ones((2, 2), device=device))


@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((3, 0), 1), ((0, 3), 1), ((), None)])
def test_empty_and_0d(shape, axis, device, rng):
    x = random_array(shape, "float64", rng)
    k = kiln.asarray(x, device=device)
    for name in ("sum", "prod", "any", "all", "mean"):
        assert_matches(getattr(kiln, name)(k, axis=axis), np_reduce(name, x, axis=axis))
    if x.size == 0 and (axis is None or x.shape[axis] == 0):
        with pytest.raises(ValueError, match="identity"):
            kiln.max(k, axis=axis)
    else:
        assert_matches(kiln.max(k, axis=axis), np.max(x, axis=axis))


def test_views_and_strides(device, rng):
    x = random_array((10, 12, 8), "float64", rng)
    k = kiln.asarray(x, device=device)
    for view in (lambda a: a[::-1, ::2], lambda a: a.transpose(1, 2, 0), lambda a: a[:, 3, ::-3]):
        for axis in (None, 0, 1, (0, -1)):
            if view(x).ndim < 3 and axis == (0, -1) and view(x).ndim < 2:
                continue
            assert_matches(kiln.sum(view(k), axis=axis), np.sum(view(x), axis=axis))
            assert_matches(kiln.max(view(k), axis=axis), np.max(view(x), axis=axis))


def test_pairwise_sum_accuracy(device):
    """float32 sum of many values stays close to the exact sum, as NumPy's pairwise sum does."""
    rng = np.random.default_rng(0)
    x = rng.random(1 << 22, dtype=np.float32)
    exact = math.fsum(x.astype(np.float64))
    ours = float(kiln.sum(kiln.asarray(x, device=device)))
    theirs = float(np.sum(x))
    naive_bound = 1e-3 * exact  # a naive running float32 sum is off by about this much
    assert abs(ours - exact) <= max(2 * abs(theirs - exact), 1e-6 * exact)
    assert abs(ours - exact) < naive_bound


def test_large_reduction_uses_threads_consistently(device):
    x = np.arange(1 << 20, dtype=np.int64)
    k = kiln.asarray(x, device=device)
    assert int(kiln.sum(k)) == int(x.sum())
    assert_matches(kiln.sum(k.reshape(1024, 1024), axis=0), x.reshape(1024, 1024).sum(axis=0))
    assert_matches(kiln.sum(k.reshape(1024, 1024), axis=1), x.reshape(1024, 1024).sum(axis=1))


def test_bad_axis(device):
    k = kiln.ones((2, 3), device=device)
    with pytest.raises(IndexError, match="axis"):
        kiln.sum(k, axis=2)
    with pytest.raises(ValueError, match="duplicate"):
        kiln.sum(k, axis=(0, 0))
    with pytest.raises(TypeError, match="axis"):
        kiln.sum(k, axis="x")


def test_methods(device, rng):
    x = random_array((3, 4), "float64", rng)
    k = kiln.asarray(x, device=device)
    assert_matches(k.sum(axis=0), x.sum(axis=0))
    assert_matches(k.mean(), x.mean())
    assert_matches(k.std(ddof=1), x.std(ddof=1))
    assert_matches(k.argmax(axis=1), x.argmax(axis=1))
    assert_matches(k.cumsum(), x.cumsum())
    assert_matches(k.max(keepdims=True), x.max(keepdims=True))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint64", "int64", "float32", "float64", "bool"])
@pytest.mark.parametrize("n", [63, 64, 65, 79, 1000, 100_003])
def test_min_max_of_long_contiguous_runs(device, dtype, n):
    # Long contiguous runs take a many-lane path on the CPU: every position
    # of the extreme and of a NaN (the first NaN is the result) against NumPy.
    rng = np.random.default_rng(n)
    base = random_array((n,), dtype, rng, -50, 50)
    for where in (0, 15, 16, n // 2, n - 1):
        a = base.copy()
        if a.dtype.kind == "f":
            a[where] = np.inf if where % 2 else -np.inf
        x = kiln.asarray(a, device=device)
        np.testing.assert_array_equal(kiln.asnumpy(kiln.max(x)), a.max())
        np.testing.assert_array_equal(kiln.asnumpy(kiln.min(x)), a.min())
        if a.dtype.kind == "f":
            a[where] = np.nan
            x = kiln.asarray(a, device=device)
            assert np.isnan(float(kiln.max(x))) and np.isnan(float(kiln.min(x)))
            np.testing.assert_array_equal(kiln.asnumpy(kiln.max(x.reshape(1, n), axis=1)), [np.nan])


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint64", "float32", "float64", "bool"])
@pytest.mark.parametrize("n", [63, 64, 100, 4099, 200_003])  # the last: split over threads on the CPU
def test_argmin_argmax_of_long_contiguous_runs(device, dtype, n):
    # The first extreme (ties: the first of them) or the first NaN, as NumPy,
    # for whole arrays and for each row of a 2-D array.
    rng = np.random.default_rng(n)
    a = random_array((3, n), dtype, rng, -4, 4)  # few distinct values: many ties
    if a.dtype.kind == "f":
        a[1, n // 3] = np.nan
        a[1, n - 2] = np.nan
        a[2, 7] = np.inf
        a[2, n - 1] = -np.inf
    x = kiln.asarray(a, device=device)
    for fn in ("argmax", "argmin"):
        np.testing.assert_array_equal(kiln.asnumpy(getattr(kiln, fn)(x, axis=1)), getattr(np, fn)(a, axis=1))
        for row in range(3):
            assert int(getattr(kiln, fn)(x[row])) == int(getattr(np, fn)(a[row]))
