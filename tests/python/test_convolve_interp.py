"""convolve, correlate and interp against NumPy on every device: every mode
and length order, dtypes (bool, integer, float, complex), the ends and
periodic samples of interp, and NumPy's exceptions."""
import numpy as np
import pytest

import kiln
from conftest import assert_matches, random_array

LENGTHS = [(5, 3), (3, 5), (6, 2), (2, 6), (4, 4), (5, 1), (1, 5), (1, 1)]


@pytest.mark.parametrize("dtype", ["bool", "int32", "uint8", "float32", "float64", "complex64"])
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_convolve_and_correlate(device, rng, dtype, fn):
    for n, m in LENGTHS:
        a, v = random_array((n,), dtype, rng), random_array((m,), dtype, rng)
        for mode in ("full", "same", "valid"):
            want = getattr(np, fn)(a, v, mode)
            got = getattr(kiln, fn)(kiln.asarray(a, device=device), v, mode)  # a NumPy operand joins the other
            assert_matches(got, want)


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_convolve_bad_input(device, fn):
    k = kiln.ones(3, device=device)
    with pytest.raises(ValueError, match="v cannot be empty"):
        getattr(kiln, fn)(k, kiln.ones(0, device=device))
    with pytest.raises(ValueError, match="a cannot be empty"):
        getattr(kiln, fn)(kiln.ones(0, device=device), k)
    with pytest.raises(ValueError, match="too deep"):
        getattr(kiln, fn)(kiln.ones((2, 2), device=device), k)
    with pytest.raises(ValueError, match="mode"):
        getattr(kiln, fn)(k, k, "middle")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex128"])
def test_interp(device, rng, dtype):
    xp = np.sort(rng.uniform(0, 10, 9))
    fp = random_array((9,), dtype, rng)
    x = np.concatenate([rng.uniform(-2, 12, 40), xp, [np.nan, np.inf, -np.inf]]).reshape(4, 13)
    for kwargs in ({}, {"left": -5, "right": 7}, {"period": 3.5}, {"period": -4}):
        with np.errstate(invalid="ignore"):  # NumPy's inf % period
            want = np.interp(x, xp, fp, **kwargs)
        got = kiln.interp(kiln.asarray(x, device=device), xp, fp, **kwargs)
        assert_matches(got, want)
    want = np.interp(2.5, xp[:1], fp[:1])
    assert_matches(kiln.interp(kiln.asarray(2.5, device=device), xp[:1], fp[:1]), want)


def test_interp_infinite_slopes_and_bad_input(device):
    xp, fp = np.array([0, 1, 1, 2.0]), np.array([0, 1, np.inf, 3])
    x = np.array([0.5, 1, 1.5, 0, 2, -1, 3])
    assert_matches(kiln.interp(kiln.asarray(x, device=device), xp, fp), np.interp(x, xp, fp))
    k = kiln.asarray(x, device=device)
    with pytest.raises(ValueError, match="not of the same length"):
        kiln.interp(k, xp, fp[:3])
    with pytest.raises(ValueError, match="sample points is empty"):
        kiln.interp(k, xp[:0], fp[:0])
    with pytest.raises(ValueError, match="period must be a non-zero value"):
        kiln.interp(k, xp, fp, period=0)
