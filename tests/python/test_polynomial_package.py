"""kiln.polynomial (numpy.polynomial's power series and polyutils) against
NumPy, on every device."""
import numpy as np
import numpy.polynomial as npp
import pytest

import kiln
from conftest import assert_matches


@pytest.mark.parametrize("dtype", ["int16", "float32", "float64", "complex128"])
def test_polyvander_and_polycompanion(device, dtype):
    x = (np.arange(12).reshape(3, 4) % 5 - 2).astype(dtype)
    k = kiln.asarray(x, device=device)
    assert_matches(kiln.polynomial.polynomial.polyvander(k, 4), npp.polynomial.polyvander(x, 4), rtol=1e-6)
    assert_matches(kiln.polynomial.polynomial.polyvander(k[0, 0], 2), npp.polynomial.polyvander(x[0, 0], 2))
    c = np.array([3, 5, 7, 2, 0, 0], dtype=dtype)
    assert_matches(kiln.polynomial.polynomial.polycompanion(kiln.asarray(c, device=device)),
                   npp.polynomial.polycompanion(c), rtol=1e-6)
    assert_matches(kiln.polynomial.polynomial.polycompanion(kiln.asarray(c[:2], device=device)),
                   npp.polynomial.polycompanion(c[:2]), rtol=1e-6)


def test_polyutils(device):
    a = np.array([3.0, 0.0, 1e-4, 0.0, 0.0])
    k = kiln.asarray(a, device=device)
    trimmed = kiln.polynomial.polyutils.trimseq(k)
    assert_matches(trimmed, npp.polyutils.trimseq(a))
    assert kiln.shares_memory(trimmed, k)
    for tol in (0, 1e-3):
        assert_matches(kiln.polynomial.polyutils.trimcoef(k, tol), npp.polyutils.trimcoef(a, tol))
    rows = np.arange(6, dtype=np.int32).reshape(2, 3)
    for got, want in zip(kiln.polynomial.polyutils.as_series(kiln.asarray(rows, device=device)),
                         npp.polyutils.as_series(rows)):
        assert_matches(got, want)


def test_bad_input():
    with pytest.raises(TypeError, match="deg"):
        kiln.polynomial.polynomial.polyvander(kiln.arange(3.0), 2.0)
    with pytest.raises(ValueError, match="non-negative"):
        kiln.polynomial.polynomial.polyvander(kiln.arange(3.0), -1)
    with pytest.raises(ValueError, match="degree of at least 1"):
        kiln.polynomial.polynomial.polycompanion(kiln.asarray([3.0, 0.0]))
    with pytest.raises(ValueError, match="no common type"):
        kiln.polynomial.polyutils.as_series([kiln.asarray([True, False])])
    with pytest.raises(ValueError, match="tol"):
        kiln.polynomial.polyutils.trimcoef(kiln.arange(3.0), -1)
