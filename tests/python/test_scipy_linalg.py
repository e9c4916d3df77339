"""kiln.scipy.linalg against SciPy's scipy.linalg on every device: LU
(factors, pivots, P L U, permute_l, p_indices, square and rectangular),
lu_solve and solve_triangular for each trans, lower/upper and unit
diagonal, expm of matrices and stacks over a range of norms, and the
special matrices."""
import numpy as np
import pytest

import kiln
import kiln.scipy.linalg as kl
from conftest import assert_matches

sl = pytest.importorskip("scipy.linalg")
DTYPES = ["float32", "float64", "complex64", "complex128"]


def _rtol(dtype):
    return 1e-4 if dtype in ("float32", "complex64") else 1e-10


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 3), (5, 5), (2, 5), (5, 2)])
def test_lu(device, dtype, shape, rng):
    a = (rng.random(shape) + (1j * rng.random(shape) if dtype.startswith("complex") else 0)).astype(dtype)
    k = kiln.asarray(a, device=device)
    lu_, piv = kl.lu_factor(k)
    want_lu, want_piv = sl.lu_factor(a)
    assert_matches(lu_, want_lu, _rtol(dtype))
    assert_matches(piv, want_piv, 0)
    for got, want in zip(kl.lu(k), sl.lu(a)):
        assert_matches(got, want, _rtol(dtype))
    for got, want in zip(kl.lu(k, permute_l=True), sl.lu(a, permute_l=True)):
        assert_matches(got, want, _rtol(dtype))
    for got, want in zip(kl.lu(k, p_indices=True), sl.lu(a, p_indices=True)):
        assert_matches(got, want, _rtol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trans", [0, 1, 2, "T"])
def test_lu_solve_and_solve_triangular(device, dtype, trans, rng):
    a = (rng.random((5, 5)) + 5 * np.eye(5)).astype(dtype)
    b = rng.random((5, 2)).astype(dtype)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    rtol = 10 * _rtol(dtype)
    if trans == "T":  # SciPy's lu_solve takes 0, 1 and 2 only
        with pytest.raises(ValueError, match="trans"):
            kl.lu_solve(kl.lu_factor(ka), kb, trans=trans)
    else:
        assert_matches(kl.lu_solve(kl.lu_factor(ka), kb, trans=trans), sl.lu_solve(sl.lu_factor(a), b, trans=trans),
                       rtol)
        assert_matches(kl.lu_solve(kl.lu_factor(ka), kb[:, 0], trans=trans),
                       sl.lu_solve(sl.lu_factor(a), b[:, 0], trans=trans), rtol)
    for lower in (False, True):
        for unit in (False, True):
            assert_matches(kl.solve_triangular(ka, kb, trans=trans, lower=lower, unit_diagonal=unit),
                           sl.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit), rtol)
    with pytest.raises(kiln.linalg.LinAlgError):
        kl.solve_triangular(kiln.zeros((3, 3), dtype=dtype, device=device), kiln.ones(3, dtype=dtype, device=device))
    with pytest.raises(ValueError, match="incompatible"):
        kl.solve_triangular(ka, kiln.ones(4, dtype=dtype, device=device))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("scale", [0.0, 1e-3, 1.0, 50.0])
def test_expm(device, dtype, scale, rng):
    a = (rng.standard_normal((6, 6)) * scale).astype(dtype)
    assert_matches(kl.expm(kiln.asarray(a, device=device)), sl.expm(a), 1e-3 if dtype == "float32" else 1e-8)
    stack = rng.standard_normal((3, 4, 4)).astype(dtype)
    np.testing.assert_allclose(kiln.asnumpy(kl.expm(kiln.asarray(stack, device=device))),
                               np.stack([sl.expm(m) for m in stack]), rtol=1e-3 if dtype == "float32" else 1e-8)


@pytest.mark.parametrize("function, args", [
    ("toeplitz", ((4,),)), ("toeplitz", ((4,), (5,))), ("hankel", ((4,),)), ("hankel", ((4,), (5,))),
    ("circulant", ((5,),)), ("companion", ((5,),)), ("leslie", ((5,), (4,))), ("block_diag", ((3,), (2, 2))),
    ("block_diag", ()), ("hilbert", (5,)), ("hadamard", (8,)), ("helmert", (5,)), ("helmert", (4, True)),
    ("dft", (5,)), ("dft", (4, "sqrtn")),
])
def test_special_matrices(device, function, args, rng):
    values = [rng.random(a) + 1 if isinstance(a, tuple) else a for a in args]
    ours = [kiln.asarray(v, device=device) if isinstance(v, np.ndarray) else v for v in values]
    got = getattr(kl, function)(*ours)
    want = getattr(sl, function)(*values)
    np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=1e-12)
    assert got.shape == want.shape


@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "float64"])
def test_bandwidth_and_khatri_rao(device, dtype, rng):
    sl = pytest.importorskip("scipy.linalg")
    for shape, lower, upper in [((9, 9), 3, 1), ((6, 11), 0, 5), ((11, 4), 7, 0), ((5, 5), 0, 0)]:
        a = np.triu(np.tril(rng.random(shape) + 0.5, upper), -lower).astype(dtype)
        assert kl.bandwidth(kiln.asarray(a, device=device)) == sl.bandwidth(a) == (lower, upper)
    assert kl.bandwidth(kiln.zeros((0, 3), device=device)) == (0, 0)
    with pytest.raises(np.linalg.LinAlgError):
        kl.bandwidth(kiln.ones(3, device=device))
    a, b = rng.random((3, 4)).astype(dtype), rng.random((5, 4)).astype(dtype)
    assert_matches(kl.khatri_rao(kiln.asarray(a, device=device), kiln.asarray(b, device=device)),
                   sl.khatri_rao(a, b))
    with pytest.raises(ValueError, match="columns"):
        kl.khatri_rao(kiln.asarray(a, device=device), kiln.ones((2, 3), device=device))
    with pytest.raises(np.linalg.LinAlgError):
        kl.khatri_rao(kiln.ones(3, device=device), kiln.ones((2, 3), device=device))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lower", [False, True])
def test_cholesky_cho_factor_and_cho_solve(device, dtype, lower, rng):
    """cholesky's one triangle, cho_factor's (c, lower) (the other triangle
    is unspecified in SciPy: not compared), cho_solve for vectors and
    matrices; a matrix that is not positive definite is refused."""
    n = 7
    m = rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n)) if dtype.startswith("complex") else 0)
    a = (m @ m.conj().T + n * np.eye(n)).astype(dtype)
    k = kiln.asarray(a, device=device)
    assert_matches(kl.cholesky(k, lower=lower), sl.cholesky(a, lower=lower), _rtol(dtype))
    c, low = kl.cho_factor(k, lower=lower)
    want_c, want_low = sl.cho_factor(a, lower=lower)
    assert low == want_low
    used = np.tril if lower else np.triu
    assert_matches(kiln.asarray(used(kiln.asnumpy(c))), used(want_c), _rtol(dtype))
    for b in (rng.standard_normal(n), rng.standard_normal((n, 3))):
        b = b.astype(dtype)
        got = kl.cho_solve((c, low), kiln.asarray(b, device=device))
        assert_matches(got, sl.cho_solve((want_c, want_low), b), _rtol(dtype) * 10)
    with pytest.raises(kiln.linalg.LinAlgError):
        kl.cho_factor(kiln.asarray(-np.eye(3, dtype=dtype), device=device))
    with pytest.raises(ValueError, match="infs or NaNs"):
        kl.cholesky(kiln.asarray(np.full((2, 2), np.nan, dtype=dtype), device=device))
