"""kiln.scipy.stats against scipy.stats on every device: trimmed means,
standard scores (zmap/zscore with ddof and nan_policy), central moments,
skewness and kurtosis (biased and not), variation, sem, ranks by every tie
method (NaN slices too), entropy and divergence in any base, and the Box-Cox
log-likelihood; values and SciPy's result dtypes, over integer, float16/32/64
inputs, axes and None, empty and 0-d arrays."""
import warnings

import numpy as np
import pytest

import kiln
import kiln.scipy.stats as ks

ss = pytest.importorskip("scipy.stats")
import scipy  # noqa: E402  (after the skip: the version, once scipy.stats imported)
DTYPES = ["int8", "uint8", "int64", "float16", "float32", "float64"]
SHAPES = [(24,), (6, 4), (5, 6, 4)]
# kiln gives SciPy 1.17's result dtypes (float32 moments of float32 data,
# int64 ranks but for "average"); SciPy 1.16 and 1.18 (seen on the GPU
# machine, 2026-11-26) answer in float64, so there only the values are compared.
SCIPY_DTYPES = tuple(int(part) for part in scipy.__version__.split(".")[:2]) == (1, 17)


def _check(got, want, dtype):
    loose = np.dtype(dtype) == np.float16
    got = kiln.asnumpy(got)
    assert got.dtype == np.asarray(want).dtype or not SCIPY_DTYPES
    np.testing.assert_allclose(got, want, rtol=3e-2 if loose else 2e-5, atol=3e-2 if loose else 1e-5, equal_nan=True)


def _data(shape, dtype, rng, scale=100):
    return (rng.random(shape) * scale + 1).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_trim_mean_and_standard_scores(device, dtype, shape, rng):
    a = _data(shape, dtype, rng)
    k = kiln.asarray(a, device=device)
    for axis in (0, -1, None):
        _check(ks.trim_mean(k, 2 / 6.0, axis=axis), ss.trim_mean(a, 2 / 6.0, axis=axis), dtype)
        _check(ks.zscore(k, axis=axis), ss.zscore(a, axis=axis), dtype)
        other = a[:2] if axis == 0 else a
        for ddof in (0, 1):
            _check(ks.zmap(k, kiln.asarray(other, device=device), axis=axis, ddof=ddof),
                   ss.zmap(a, other, axis=axis, ddof=ddof), dtype)
    with pytest.raises(ValueError, match="Proportion too big"):
        ks.trim_mean(kiln.arange(11, device=device), 0.6)


def test_edge_cases_follow_scipy(device):
    empty = np.zeros(0)
    _check(ks.trim_mean(kiln.asarray(empty, device=device), 0.6), ss.trim_mean(empty, 0.6), "float64")
    zero_d = np.array(3, dtype="int8")
    _check(ks.trim_mean(kiln.asarray(zero_d, device=device), 0.3, axis=None),
           ss.trim_mean(zero_d, 0.3, axis=None), "float64")
    constant = np.ones((3, 4))  # no spread: zscore is NaN, not 0/0 noise
    _check(ks.zscore(kiln.asarray(constant, device=device)), ss.zscore(constant), "float64")
    with_nan = np.array([[1.0, np.nan, 3.0, 4.0], [2.0, 5.0, 1.0, 0.5]])
    k = kiln.asarray(with_nan, device=device)
    _check(ks.zscore(k, axis=1), ss.zscore(with_nan, axis=1), "float64")
    _check(ks.zscore(k, axis=1, nan_policy="omit"), ss.zscore(with_nan, axis=1, nan_policy="omit"), "float64")
    with pytest.raises(ValueError, match="nan"):
        ks.zscore(k, nan_policy="raise")
    with pytest.raises(ValueError, match="nan_policy"):
        ks.zscore(k, nan_policy="skip")


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
def test_moments_skew_kurtosis(device, dtype, shape, rng):
    a = _data(shape, dtype, rng)
    k = kiln.asarray(a, device=device)
    for axis in (0, -1, None):
        for order in (0, 1, 2, 3, [1, 2]):
            _check(ks.moment(k, order, axis=axis), ss.moment(a, order, axis=axis), dtype)
        for name in ("skew", "kurtosis", "variation", "sem"):
            _check(getattr(ks, name)(k, axis=axis), getattr(ss, name)(a, axis=axis), dtype)
        _check(ks.skew(k, axis=axis, bias=False), ss.skew(a, axis=axis, bias=False), dtype)
        _check(ks.kurtosis(k, axis=axis, bias=False, fisher=False),
               ss.kurtosis(a, axis=axis, bias=False, fisher=False), dtype)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float64"])
@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
def test_rankdata(device, dtype, method, rng):
    a = (rng.random((5, 12)) * 6).astype(dtype)  # many ties
    k = kiln.asarray(a, device=device)
    for axis in (None, 0, 1, -1):
        got = ks.rankdata(k, method, axis=axis)
        want = ss.rankdata(a, method, axis=axis)
        assert kiln.asnumpy(got).dtype == want.dtype or not SCIPY_DTYPES
        np.testing.assert_array_equal(kiln.asnumpy(got), want)
    if dtype.startswith("float"):
        b = a.astype("float64")
        b[1, 3] = np.nan
        np.testing.assert_array_equal(kiln.asnumpy(ks.rankdata(kiln.asarray(b, device=device), method, axis=1)),
                                      ss.rankdata(b, method, axis=1))
    with pytest.raises(ValueError, match="unknown method"):
        ks.rankdata(k, "mean")


@pytest.mark.parametrize("shape", SHAPES)
def test_entropy_and_divergence(device, shape, rng):
    p, q = rng.random(shape), rng.random(shape)
    p.reshape(-1)[0] = 0  # 0 log 0 = 0; q = 0 where p > 0 gives inf
    kp, kq = kiln.asarray(p, device=device), kiln.asarray(q, device=device)
    for axis in (0, -1, None):
        for base in (None, 2, 10):
            _check(ks.entropy(kp, axis=axis, base=base), ss.entropy(p, axis=axis, base=base), "float64")
            _check(ks.entropy(kp, kq, axis=axis, base=base), ss.entropy(p, q, axis=axis, base=base), "float64")
            _check(ks.entropy(kq, kp, axis=axis, base=base), ss.entropy(q, p, axis=axis, base=base), "float64")
    with pytest.raises(ValueError):
        ks.entropy(kp, kiln.ones((7, 3), device=device))
    with pytest.raises(TypeError):
        ks.entropy(kiln.ones(3, dtype="complex64", device=device))


@pytest.mark.parametrize("dtype", DTYPES)
def test_boxcox_llf(device, dtype, rng):
    a = _data((6, 5, 3), dtype, rng, scale=20)
    k = kiln.asarray(a, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # float16 overflows in SciPy too
        # lmb = 1e-8 in float32: SciPy's float32 log-sum-exps lose every digit
        # (inf); kiln's (computed in double) stay finite, closer to the float64 value.
        for lmb in (0.0, 3.0, -3.0) + ((1e-8,) if dtype != "float32" else ()):
            for axis in (0, 1, -1):
                _check(ks.boxcox_llf(lmb, k, axis=axis), ss.boxcox_llf(lmb, a, axis=axis), dtype)
    _check(ks.boxcox_llf(3, kiln.zeros(0, device=device)), ss.boxcox_llf(3, np.zeros(0)), "float64")
    big = np.array([198.0, 233.0, 233.0, 392.0])  # x**-45 underflows: the log-space variance does not
    _check(ks.boxcox_llf(-45, kiln.asarray(big, device=device)), ss.boxcox_llf(-45, big), "float64")
