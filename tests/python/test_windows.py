"""NumPy's window functions, made on the default device (each device in turn)."""
import numpy as np
import pytest

import kiln
from conftest import assert_matches


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("m", [-1, 0, 1, 2, 7, 1024])
def test_cosine_and_triangular_windows(current, name, m):
    got = getattr(kiln, name)(m)
    assert got.device == current
    assert_matches(got, getattr(np, name)(m), rtol=1e-12)


@pytest.mark.parametrize("m", [-1, 0, 1, 10, 31])
@pytest.mark.parametrize("beta", [-3.4, 0.0, 5.0, 8.6])
def test_kaiser(current, m, beta):
    np.testing.assert_allclose(kiln.asnumpy(kiln.kaiser(m, beta)), np.kaiser(m, beta), rtol=1e-12, atol=1e-15)
