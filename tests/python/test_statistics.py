"""Order statistics, moments, NaN-skipping reductions and scans, set
operations and kron, against NumPy on every device: dtypes, axes, keepdims,
NaNs, 0-d and empty arrays, and NumPy's exceptions for bad input."""
import warnings

import numpy as np
import pytest

import kiln
from conftest import assert_matches, random_array

AXES = [None, 0, -1, (0, 2)]
REAL = ["int32", "uint8", "float32", "float64"]


def _both(fn, x, device, *args, **kwargs):
    """NumPy's and kiln's ``fn`` of ``x`` (array keyword arguments go to the device)."""
    k_kwargs = {k: kiln.asarray(v, device=device) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's and kiln's all-NaN warnings
        want = getattr(np, fn)(x, *args, **kwargs)
        got = getattr(kiln, fn)(kiln.asarray(x, device=device), *args, **k_kwargs)
    return got, want


def _with_nans(x, rng):
    x = x.copy()
    if x.dtype.kind in "fc" and x.size:
        x.flat[rng.choice(x.size, max(1, x.size // 7), replace=False)] = np.nan
    return x


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("fn", ["median", "nanmedian"])
def test_median(device, rng, dtype, axis, fn):
    for shape in [(4, 5, 6), (3, 1, 2)]:
        x = random_array(shape, dtype, rng)
        for data in (x, _with_nans(x, rng)):
            for keepdims in (False, True):
                got, want = _both(fn, data, device, axis=axis, keepdims=keepdims)
                assert_matches(got, want)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("fn", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_quantiles(device, rng, dtype, fn):
    scale = 100 if "percentile" in fn else 1
    x = random_array((5, 4, 3), dtype, rng)
    qs = [0.5, 0, 1, 0.37, np.array([0.1, 0.5, 0.99]), np.array([[0.25], [0.75]]), np.float32(0.3)]
    for data in (x, _with_nans(x, rng)):
        for q in qs:
            q = q * scale if not isinstance(q, np.ndarray) else (q * scale).astype(q.dtype)
            for axis in (None, 1, (0, 2)):
                for keepdims in (False, True):
                    got, want = _both(fn, data, device, q, axis=axis, keepdims=keepdims)
                    if fn.startswith("nan") and np.ndim(q) > 1 and isinstance(axis, tuple):
                        # NumPy's nanquantile puts a 2-D q's axes last for a
                        # tuple axis, where its quantile (and kiln) put them
                        # first: compare with quantile over the non-NaN data.
                        if np.isnan(data).any():
                            continue
                        _, want = _both(fn[3:], data, device, q, axis=axis, keepdims=keepdims)
                    assert_matches(got, want)


def test_quantile_of_integer_q_takes_elements(device):
    x = np.array([[3, 1, 2], [9, 7, 8]], dtype=np.int16)
    for q in (0, 1, np.array([0, 1])):
        got, want = _both("quantile", x, device, q, axis=1)
        assert_matches(got, want)


def test_order_statistics_of_0d_and_empty(device):
    got, want = _both("median", np.float64(2.5), device)
    assert_matches(got, want)
    got, want = _both("quantile", np.float32(2.5), device, 0.25)
    assert_matches(got, want)
    got, want = _both("median", np.zeros((0, 3)), device, axis=0)
    assert_matches(got, want)
    with pytest.raises(IndexError):
        kiln.quantile(kiln.zeros((0,), device=device), 0.5)


def test_quantile_bad_input(device):
    k = kiln.arange(5.0, device=device)
    with pytest.raises(ValueError, match="Quantiles must be in the range"):
        kiln.quantile(k, 1.5)
    with pytest.raises(ValueError, match="Percentiles must be in the range"):
        kiln.percentile(k, -1)
    with pytest.raises(ValueError, match="out of bounds"):
        kiln.median(k, axis=3)
    with pytest.raises(ValueError, match="method 'nearer'"):
        kiln.quantile(k, 0.5, method="nearer")


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64"])
def test_average_and_ptp(device, rng, dtype):
    x = random_array((4, 5), dtype, rng)
    got, want = _both("average", x, device)
    assert_matches(got, want)
    for axis in (0, 1, -1):
        weights = rng.uniform(0.5, 2, x.shape[axis])
        got, want = _both("average", x, device, axis=axis, weights=weights)
        assert_matches(got, want)
        (got, got_sum), (want, want_sum) = _both("average", x, device, axis=axis, weights=weights, returned=True)
        assert_matches(got, want)
        assert_matches(got_sum, want_sum)
    got, want = _both("average", x, device, weights=rng.uniform(0, 1, x.shape), keepdims=True, axis=1)
    assert_matches(got, want)
    if dtype != "complex64":
        for axis in (None, 0, 1):
            got, want = _both("ptp", x, device, axis=axis)
            assert_matches(got, want)
    k = kiln.asarray(x, device=device)
    with pytest.raises(ZeroDivisionError):
        kiln.average(k, axis=0, weights=kiln.zeros(4, device=device))
    with pytest.raises(TypeError, match="Axis must be specified"):
        kiln.average(k, weights=kiln.ones(5, device=device))
    with pytest.raises(ValueError, match="Length of weights"):
        kiln.average(k, axis=0, weights=kiln.ones(5, device=device))


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_cov_and_corrcoef(device, rng, dtype):
    x = random_array((3, 8), dtype, rng)
    y = random_array((2, 8), dtype, rng)
    for kwargs in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 0}, {"y": y},
                   {"fweights": rng.integers(1, 4, 8)}, {"aweights": rng.uniform(0.1, 1, 8)},
                   {"fweights": rng.integers(1, 4, 8), "aweights": rng.uniform(0.1, 1, 8), "ddof": 2}):
        got, want = _both("cov", x, device, **kwargs)
        assert_matches(got, want, rtol=1e-4 if dtype == "float32" else None)
    got, want = _both("cov", x[0], device)  # one variable: a 0-d result
    assert_matches(got, want, rtol=1e-4 if dtype == "float32" else None)
    for kwargs in ({}, {"rowvar": False}, {"y": y}):
        got, want = _both("corrcoef", x, device, **kwargs)
        assert_matches(got, want, rtol=1e-4 if dtype == "float32" else None)
    k = kiln.asarray(x, device=device)
    with pytest.raises(ValueError, match="more than 2 dimensions"):
        kiln.cov(kiln.zeros((2, 2, 2), device=device))
    with pytest.raises(ValueError, match="fweights cannot be negative"):
        kiln.cov(k, fweights=kiln.asarray(-np.ones(8, dtype=np.int64), device=device))
    with pytest.raises(RuntimeError, match="incompatible numbers of samples and aweights"):
        kiln.cov(k, aweights=kiln.ones(3, device=device))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int32"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_moments_and_scans(device, rng, dtype, axis):
    x = random_array((4, 6), dtype, rng)
    data = _with_nans(x, rng)
    if dtype not in ("int32",):
        data[1, :] = np.nan  # an all-NaN row
    for fn, kwargs in (("nanmean", {}), ("nanvar", {}), ("nanvar", {"ddof": 1}), ("nanstd", {"keepdims": True}),
                       ("nancumsum", {}), ("nancumprod", {})):
        if fn.startswith("nancum") and dtype == "float16":
            continue  # float16 products of many terms overflow differently
        got, want = _both(fn, data, device, axis=axis, **kwargs)
        assert_matches(got, want)


def test_nan_moments_out_and_known_mean(device, rng):
    """nanmean/nanvar/nanstd write into out=, and nanvar takes the slices'
    mean when already known (NumPy's mean=)."""
    data = _with_nans(random_array((4, 6), "float64", rng), rng)
    k = kiln.asarray(data, device=device)
    for fn in ("nanmean", "nanvar", "nanstd"):
        out = kiln.empty(6, device=device)
        assert getattr(kiln, fn)(k, axis=0, out=out) is out
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(out.get(), getattr(np, fn)(data, axis=0), rtol=1e-12)
    mean = np.nanmean(data, axis=1, keepdims=True)
    np.testing.assert_allclose(kiln.nanvar(k, axis=1, mean=kiln.asarray(mean, device=device)).get(),
                               np.nanvar(data, axis=1, mean=mean), rtol=1e-12)


@pytest.mark.parametrize("dtype", ["int64", "float64", "uint8", "bool"])
def test_set_operations(device, rng, dtype):
    a = random_array((13,), dtype, rng, 0, 9)
    b = random_array((3, 4), dtype, rng, 3, 12)
    for fn in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
        got, want = _both(fn, a, device, b)
        assert_matches(got, want)
    ua, ub = np.unique(a), np.unique(b)
    for fn in ("intersect1d", "setdiff1d", "setxor1d"):
        got, want = _both(fn, ua, device, ub, assume_unique=True)
        assert_matches(got, want)
    got, want = _both("intersect1d", a, device, b, return_indices=True)
    for g, w in zip(got, want):
        assert_matches(g, w)
    got, want = _both("union1d", a[:0], device, b[:0])
    assert_matches(got, want)


@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128"])
def test_kron(device, rng, dtype):
    for sa, sb in [((2, 3), (4, 1)), ((3,), (2, 2)), ((2, 1, 2), (3,)), ((), (2, 2)), ((0, 2), (3, 1))]:
        a, b = random_array(sa, dtype, rng), random_array(sb, dtype, rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = np.kron(a, b)
        assert_matches(kiln.kron(kiln.asarray(a, device=device), kiln.asarray(b, device=device)), want)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "bool", "float16", "float32", "complex64"])
def test_cov_in_a_dtype_that_cannot_hold_the_centred_values_raises_as_numpy(dtype, device):
    # NumPy centres X in place in the dtype asked for.
    a = np.arange(6).reshape(2, 3).astype(dtype)
    try:
        want = np.cov(a, dtype=dtype)
    except TypeError:
        with pytest.raises(TypeError, match="subtract"):
            kiln.cov(kiln.asarray(a, device=device), dtype=dtype)
        with pytest.raises(TypeError, match="subtract"):
            kiln.corrcoef(kiln.asarray(a, device=device), dtype=dtype)
        return
    got = kiln.cov(kiln.asarray(a, device=device), dtype=dtype)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=1e-3)


def test_correlate_refuses_zero_d_inputs_where_convolve_takes_them(device):
    for a, v in ((np.array(1.0), np.array([1.0, 2.0])), (np.array([1.0, 2.0]), np.array(3.0))):
        with pytest.raises(ValueError, match="too small depth"):
            np.correlate(a, v)
        with pytest.raises(ValueError, match="too small depth"):
            kiln.correlate(kiln.asarray(a, device=device), kiln.asarray(v, device=device))
        np.testing.assert_allclose(kiln.asnumpy(kiln.convolve(kiln.asarray(a, device=device),
                                                              kiln.asarray(v, device=device))), np.convolve(a, v))


QUANTILE_METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
                    "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher",
                    "midpoint", "nearest"]


@pytest.mark.parametrize("method", QUANTILE_METHODS)
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "float32", "float64"])
def test_every_quantile_method_of_numpy(method, dtype, device):
    rng = np.random.default_rng(3)
    for shape in [(4, 7), (3, 8), (1, 1)]:
        a = (rng.random(shape) * 20).astype(dtype)
        for q in [0.0, 0.1, 0.4, 0.5, 0.93, 1.0, [0.2, 0.7], np.array([0.25, 0.75], "float32")]:
            for axis in [None, 0, 1]:
                want = np.quantile(a, q, axis=axis, method=method)
                got = kiln.quantile(kiln.asarray(a, device=device),
                                    kiln.asarray(q, device=device) if isinstance(q, np.ndarray) else q,
                                    axis=axis, method=method)
                assert got.dtype == np.asarray(want).dtype, (shape, q, axis)
                np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=1e-6, err_msg=f"{shape} {q} {axis}")
        with_nans = np.where(a > 5, a, np.nan) if a.dtype.kind == "f" else a
        np.testing.assert_allclose(kiln.asnumpy(kiln.nanpercentile(kiln.asarray(with_nans, device=device), 30,
                                                                   axis=-1, method=method)),
                                   np.nanpercentile(with_nans, 30, axis=-1, method=method), rtol=1e-6)
    with pytest.raises(ValueError, match="method"):
        kiln.quantile(kiln.asarray(a, device=device), 0.5, method="bogus")
