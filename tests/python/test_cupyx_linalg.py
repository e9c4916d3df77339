"""cupyx.linalg's invh and cho_solve, which kiln.linalg carries (cupyx is
kiln), against NumPy's inverse and solve."""
import numpy as np
import pytest

import kiln


def _spd(rng, shape, dtype):
    n = shape[-1]
    m = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        m = m + 1j * rng.standard_normal(shape)
    a = m @ np.conj(np.swapaxes(m, -1, -2)) + n * np.eye(n)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_invh_is_the_inverse(device, dtype):
    a = _spd(np.random.default_rng(0), (5, 5), dtype)
    got = kiln.asnumpy(kiln.linalg.invh(kiln.asarray(a, device=device)))
    tol = 1e-4 if dtype in ("float32", "complex64") else 1e-10
    np.testing.assert_allclose(got, np.linalg.inv(a), rtol=tol, atol=tol)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("rhs", [(4,), (4, 3)])
def test_cho_solve_of_stacks(device, lower, rhs):
    rng = np.random.default_rng(1)
    a = _spd(rng, (2, 3, 4, 4), "float64")
    b = rng.standard_normal((2, 3) + rhs)
    c = np.linalg.cholesky(a)
    if not lower:
        c = np.conj(np.swapaxes(c, -1, -2))
    got = kiln.linalg.cho_solve((kiln.asarray(c, device=device), lower), kiln.asarray(b, device=device))
    want = np.linalg.solve(a, b[..., None])[..., 0] if len(rhs) == 1 else np.linalg.solve(a, b)
    np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=1e-10, atol=1e-10)


def test_cho_solve_reads_only_its_triangle_and_refuses_what_is_not_finite():
    a = _spd(np.random.default_rng(2), (3, 3), "float64")
    c = np.linalg.cholesky(a)
    c[0, 2] = np.nan  # the upper triangle of a lower factor is not read
    x = kiln.linalg.cho_solve((kiln.asarray(c), True), kiln.ones(3))
    np.testing.assert_allclose(kiln.asnumpy(x), np.linalg.solve(a, np.ones(3)), rtol=1e-12)
    c[2, 0] = np.inf
    with pytest.raises(ValueError, match="NaN or infinity"):
        kiln.linalg.cho_solve((kiln.asarray(c), True), kiln.ones(3))


def test_invh_refuses_what_has_no_cholesky_factor():
    with pytest.raises(np.linalg.LinAlgError):
        kiln.linalg.invh(-kiln.eye(3))
    with pytest.raises(ValueError, match="a: invh takes a square 2-D matrix"):
        kiln.linalg.invh(kiln.ones((2, 3)))
