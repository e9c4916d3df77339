"""kiln.linalg's decompositions and what is built on them, against NumPy on
every device present: float32/64, complex64/128 and integer input, batches,
empty matrices, and NumPy's errors for singular, indefinite, non-square and
unsupported input. Factors that are unique up to signs (Q, eigenvectors,
singular vectors) are checked by what they reconstruct."""
import numpy as np
import pytest

import kiln
from conftest import assert_matches, random_array

DTYPES = ["float32", "float64", "complex64", "complex128"]
RTOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10, "int64": 1e-10}


def _well_conditioned(shape, dtype, rng):
    a = random_array(shape, dtype, rng, -1, 1)
    n = shape[-1]
    return (a + n * np.eye(n, dtype=a.dtype)).astype(dtype) if dtype != "int64" else a + 3 * n * np.eye(n, dtype=a.dtype)


def _hermitian_pd(shape, dtype, rng):
    a = random_array(shape, dtype, rng, -1, 1)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _close(got, want, rtol):
    g = kiln.asnumpy(got)
    assert g.shape == np.shape(want)
    np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol * max(1.0, float(np.max(np.abs(want), initial=0))))


@pytest.mark.parametrize("dtype", DTYPES + ["int64"])
@pytest.mark.parametrize("batch", [(), (3,), (2, 1)])
def test_solve_inv_det_slogdet(device, dtype, batch, rng):
    rtol = RTOL[dtype]
    a = _well_conditioned(batch + (4, 4), dtype, rng)
    b = random_array(batch + (4, 2), dtype, rng)
    v = random_array((4,), dtype, rng)
    ka, kb, kv = (kiln.asarray(t, device=device) for t in (a, b, v))
    assert_matches(kiln.linalg.solve(ka, kb), np.linalg.solve(a, b), rtol)
    assert_matches(kiln.linalg.solve(ka, kv), np.linalg.solve(a, v), rtol)
    assert_matches(kiln.linalg.inv(ka), np.linalg.inv(a), rtol)
    assert_matches(kiln.linalg.det(ka), np.linalg.det(a), rtol)
    sign, logdet = kiln.linalg.slogdet(ka)
    want = np.linalg.slogdet(a)
    assert_matches(sign, want.sign, rtol)
    assert_matches(logdet, want.logabsdet, rtol)


def test_solve_broadcasts_and_refuses_bad_input(device, rng):
    a = _well_conditioned((3, 4, 4), "float64", rng)
    b = random_array((4, 5), "float64", rng)
    assert_matches(kiln.linalg.solve(kiln.asarray(a, device=device), kiln.asarray(b, device=device)),
                   np.linalg.solve(a, b), 1e-10)
    singular = kiln.asarray(np.ones((3, 3)), device=device)
    with pytest.raises(kiln.linalg.LinAlgError, match="Singular matrix"):
        kiln.linalg.inv(singular)
    with pytest.raises(kiln.linalg.LinAlgError, match="Singular matrix"):
        kiln.linalg.solve(singular, kiln.ones(3, device=device))
    assert issubclass(kiln.linalg.LinAlgError, ValueError)
    assert kiln.linalg.LinAlgError is np.linalg.LinAlgError  # as CuPy's, so except clauses written for either work
    assert_matches(kiln.linalg.det(singular), np.asarray(0.0))
    sign, logdet = kiln.linalg.slogdet(singular)
    assert float(sign) == 0 and float(logdet) == -np.inf
    with pytest.raises(kiln.linalg.LinAlgError, match="square"):
        kiln.linalg.inv(kiln.ones((2, 3), device=device))
    with pytest.raises(kiln.linalg.LinAlgError, match="two-dimensional"):
        kiln.linalg.det(kiln.ones(3, device=device))
    with pytest.raises(TypeError, match="float16"):
        kiln.linalg.inv(kiln.ones((2, 2), dtype="float16", device=device))
    with pytest.raises(ValueError, match="solve"):
        kiln.linalg.solve(kiln.ones((2, 2), device=device), kiln.ones((3, 1), device=device))
    if device.type == "cuda":
        with pytest.raises(TypeError, match="is on"):
            kiln.linalg.solve(kiln.eye(2, device=device), kiln.ones(2, device="cpu"))


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky(device, dtype, rng):
    a = _hermitian_pd((2, 5, 5), dtype, rng)
    k = kiln.asarray(a, device=device)
    assert_matches(kiln.linalg.cholesky(k), np.linalg.cholesky(a), RTOL[dtype])
    assert_matches(kiln.linalg.cholesky(k, upper=True), np.linalg.cholesky(a, upper=True), RTOL[dtype])
    with pytest.raises(kiln.linalg.LinAlgError, match="positive definite"):
        kiln.linalg.cholesky(kiln.asarray(-np.eye(3, dtype=dtype), device=device))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 9])
def test_inv_and_cholesky_of_stacks_of_tiny_matrices(device, dtype, n, rng):
    """Sides up to 8 take one pass over the whole stack (kiln/device/small_matrix.cuh,
    a thread a matrix on the GPU), larger ones LAPACK's routines: both as NumPy,
    from views, with NumPy's error for one bad matrix among many."""
    rtol = RTOL[dtype]
    a = _well_conditioned((200, n, n), dtype, rng)
    k = kiln.asarray(a, device=device)
    inverse = kiln.linalg.inv(k)
    assert inverse.flags.c_contiguous
    assert_matches(inverse, np.linalg.inv(a), rtol)
    assert_matches(kiln.linalg.inv(k[::2].swapaxes(-1, -2)), np.linalg.inv(a[::2].swapaxes(-1, -2)), rtol)
    # Cholesky reads one triangle: noise in the other changes nothing.
    h = _hermitian_pd((200, n, n), dtype, rng)
    noise = random_array((200, n, n), dtype, rng, -1, 1)
    for upper, noisy in ((False, np.tril(h) + np.triu(noise, 1)), (True, np.triu(h) + np.tril(noise, -1))):
        factor = kiln.linalg.cholesky(kiln.asarray(noisy, device=device), upper=upper)
        assert factor.flags.c_contiguous
        assert_matches(factor, np.linalg.cholesky(noisy, upper=upper), rtol)
    singular = a.copy()
    singular[101] = 0
    with pytest.raises(kiln.linalg.LinAlgError, match="Singular matrix"):
        kiln.linalg.inv(kiln.asarray(singular, device=device))
    indefinite = h.copy()
    indefinite[101, n - 1, n - 1] = -1
    with pytest.raises(kiln.linalg.LinAlgError, match="positive definite"):
        kiln.linalg.cholesky(kiln.asarray(indefinite, device=device))


def _check_qr(k, a, rtol):
    """kiln's QR of `k` (holding `a`) in every mode: NumPy's shapes and R up to
    the signs of its rows, Q with orthonormal columns, Q R = a."""
    for mode in ("reduced", "complete"):
        q, r = kiln.linalg.qr(k, mode=mode)
        want_q, want_r = np.linalg.qr(a, mode=mode)
        assert q.shape == want_q.shape and r.shape == want_r.shape and q.dtype == want_q.dtype
        qn, rn = kiln.asnumpy(q), kiln.asnumpy(r)
        _close(q @ r, a, rtol)
        eye = np.broadcast_to(np.eye(qn.shape[-1]), qn.shape[:-2] + (qn.shape[-1],) * 2)
        np.testing.assert_allclose(np.conj(np.swapaxes(qn, -1, -2)) @ qn, eye, atol=10 * rtol)
        np.testing.assert_array_equal(np.tril(rn, -1), 0)
        np.testing.assert_allclose(np.abs(rn), np.abs(want_r), rtol=rtol, atol=10 * rtol)
    assert_matches(kiln.linalg.qr(k, mode="r").__abs__(), np.abs(np.linalg.qr(a, mode="r")), 10 * rtol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 3)])
def test_qr(device, dtype, shape, rng):
    a = random_array(shape, dtype, rng)
    k = kiln.asarray(a, device=device)
    _check_qr(k, a, RTOL[dtype])
    with pytest.raises(ValueError, match="mode"):
        kiln.linalg.qr(k, mode="economic")


@pytest.mark.parametrize("dtype", DTYPES)
def test_eig(device, dtype, rng):
    """LAPACK's geev on the CPU, cuSOLVER's Xgeev on the GPU: eigenpairs
    that satisfy a v = w v, unit columns, NumPy's eigenvalues."""
    a = random_array((3, 7, 7), dtype, rng)
    k = kiln.asarray(a, device=device)
    rtol = RTOL[dtype]
    w, v = kiln.linalg.eig(k)
    complex_type = "complex64" if dtype in ("float32", "complex64") else "complex128"
    assert w.dtype == complex_type and v.dtype == complex_type and w.device == k.device
    wn, vn = kiln.asnumpy(w), kiln.asnumpy(v)
    np.testing.assert_allclose(a @ vn, vn * wn[..., None, :], atol=100 * rtol * np.abs(a).max())
    np.testing.assert_allclose(np.linalg.norm(vn, axis=-2), 1, rtol=10 * rtol)
    ordered = np.sort_complex(np.round(kiln.asnumpy(kiln.linalg.eigvals(k)), 3))
    np.testing.assert_allclose(ordered, np.sort_complex(np.round(np.linalg.eigvals(a), 3)), atol=2e-3)
    assert kiln.linalg.eigvals(kiln.zeros((2, 0, 0), dtype=dtype, device=device)).shape == (2, 0)
    with pytest.raises(kiln.linalg.LinAlgError, match="square"):
        kiln.linalg.eig(kiln.zeros((2, 3), dtype=dtype, device=device))


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh(device, dtype, rng):
    a = _hermitian_pd((3, 6, 6), dtype, rng)
    k = kiln.asarray(a, device=device)
    rtol = RTOL[dtype]
    w, v = kiln.linalg.eigh(k)
    assert_matches(w, np.linalg.eigvalsh(a), rtol)
    _close(k @ v, kiln.asnumpy(v) * kiln.asnumpy(w)[..., None, :], rtol)
    assert_matches(kiln.linalg.eigvalsh(k, UPLO="U"), np.linalg.eigvalsh(a, UPLO="U"), rtol)
    # Only the named triangle is read.
    lower = np.tril(a)
    assert_matches(kiln.linalg.eigvalsh(kiln.asarray(lower, device=device)), np.linalg.eigvalsh(a), rtol)
    with pytest.raises(ValueError, match="UPLO"):
        kiln.linalg.eigh(k, UPLO="X")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 5), (3, 0)])
def test_svd(device, dtype, shape, rng):
    a = random_array(shape, dtype, rng)
    k = kiln.asarray(a, device=device)
    rtol = RTOL[dtype]
    assert_matches(kiln.linalg.svdvals(k), np.linalg.svd(a, compute_uv=False), rtol)
    assert_matches(kiln.linalg.svd(k, compute_uv=False), np.linalg.svd(a, compute_uv=False), rtol)
    for full in (True, False):
        u, s, vh = kiln.linalg.svd(k, full_matrices=full)
        want = np.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (want.U.shape, want.S.shape, want.Vh.shape)
        assert u.dtype == want.U.dtype and s.dtype == want.S.dtype
        r = min(shape[-2:])
        rebuilt = (kiln.asnumpy(u)[..., :, :r] * kiln.asnumpy(s)[..., None, :]) @ kiln.asnumpy(vh)[..., :r, :]
        np.testing.assert_allclose(rebuilt, a, rtol=rtol, atol=10 * rtol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 3, 32, 33])
def test_stacks_of_small_matrices(device, dtype, n, rng):
    """Stacks of matrices, which the GPU factors in one batched call (cuBLAS's
    getrf/getrs/geqrfBatched with kiln's Q, cuSOLVER's potrfBatched,
    syevjBatched and gesvdjBatched up to 32 a side, XsyevBatched beyond;
    gesvdj a matrix at a time beyond 32), against NumPy on both
    sides of the limits, tall and wide; a failing matrix inside a stack is
    reported as for one matrix."""
    rtol = RTOL[dtype] * max(1, n / 4)
    a = _well_conditioned((5, n, n), dtype, rng)
    b = random_array((5, n, 3), dtype, rng)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    assert_matches(kiln.linalg.solve(ka, kb), np.linalg.solve(a, b), rtol)
    assert_matches(kiln.linalg.inv(ka), np.linalg.inv(a), rtol)
    sign, logdet = kiln.linalg.slogdet(ka)
    want = np.linalg.slogdet(a)
    assert_matches(sign, want.sign, rtol)
    assert_matches(logdet, want.logabsdet, rtol)
    pd = _hermitian_pd((5, n, n), dtype, rng)
    kpd = kiln.asarray(pd, device=device)
    for upper in (False, True):
        assert_matches(kiln.linalg.cholesky(kpd, upper=upper), np.linalg.cholesky(pd, upper=upper), rtol)
    w, v = kiln.linalg.eigh(kpd)
    assert_matches(w, np.linalg.eigvalsh(pd), rtol)
    _close(kpd @ v, kiln.asnumpy(v) * kiln.asnumpy(w)[..., None, :], rtol)
    assert_matches(kiln.linalg.eigvalsh(kpd, UPLO="U"), np.linalg.eigvalsh(pd, UPLO="U"), rtol)
    for shape in ((5, n, n), (5, n + 2, n), (5, n, n + 2)):
        g = random_array(shape, dtype, rng)
        kg = kiln.asarray(g, device=device)
        _check_qr(kg, g, rtol)
        assert_matches(kiln.linalg.svd(kg, compute_uv=False), np.linalg.svd(g, compute_uv=False), rtol)
        r = min(shape[-2:])
        for full in (True, False):
            u, s, vh = kiln.linalg.svd(kg, full_matrices=full)
            want = np.linalg.svd(g, full_matrices=full)
            assert (u.shape, s.shape, vh.shape) == (want.U.shape, want.S.shape, want.Vh.shape)
            un, sn, vn = kiln.asnumpy(u), kiln.asnumpy(s), kiln.asnumpy(vh)
            np.testing.assert_allclose(sn, want.S, rtol=rtol, atol=rtol)
            rebuilt = (un[..., :, :r] * sn[..., None, :]) @ vn[..., :r, :]
            np.testing.assert_allclose(rebuilt, g, rtol=rtol, atol=10 * rtol)
            for q in (un, vn):
                eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
                if q.shape[-1] <= q.shape[-2]:  # orthonormal columns
                    np.testing.assert_allclose(np.conj(np.swapaxes(q, -1, -2)) @ q, eye, atol=10 * rtol)
    # One bad matrix in a stack fails the call, as NumPy's.
    singular = a.copy()
    singular[3] = 0
    with pytest.raises(kiln.linalg.LinAlgError, match="Singular matrix"):
        kiln.linalg.solve(kiln.asarray(singular, device=device), kb)
    indefinite = pd.copy()
    indefinite[2] = -np.eye(n, dtype=dtype)
    with pytest.raises(kiln.linalg.LinAlgError, match="positive definite"):
        kiln.linalg.cholesky(kiln.asarray(indefinite, device=device))


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_lstsq_pinv_rank_power(device, dtype, rng):
    a = random_array((6, 3), dtype, rng)
    b = random_array((6, 2), dtype, rng)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    # NumPy's rank is LAPACK's int32; kiln's is an int64 array.
    for (x, residuals, rank, s), want in ((kiln.linalg.lstsq(ka, kb), np.linalg.lstsq(a, b)),
                                          (kiln.linalg.lstsq(ka[:, :1] * kiln.ones((1, 3), device=device), kb[:, 0]),
                                           np.linalg.lstsq(a[:, :1] * np.ones((1, 3)), b[:, 0]))):  # rank-deficient
        assert_matches(x, want[0], 1e-8)
        assert_matches(residuals, want[1], 1e-8)
        assert int(rank) == int(want[2])
        assert_matches(s, want[3], 1e-10)
    assert_matches(kiln.linalg.pinv(ka), np.linalg.pinv(a), 1e-10)
    assert_matches(kiln.linalg.matrix_rank(ka), np.asarray(np.linalg.matrix_rank(a)))
    assert_matches(kiln.linalg.matrix_rank(ka @ ka.mT), np.asarray(np.linalg.matrix_rank(a @ a.T)))
    sq = _well_conditioned((2, 3, 3), dtype, rng)
    ks = kiln.asarray(sq, device=device)
    for n in (0, 1, 2, 5, -1, -3):
        assert_matches(kiln.linalg.matrix_power(ks, n), np.linalg.matrix_power(sq, n), 1e-9)
    m = random_array((3, 3), "int32", rng)
    assert_matches(kiln.linalg.matrix_power(kiln.asarray(m, device=device), 3), np.linalg.matrix_power(m, 3))


@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128"])
def test_norms(device, dtype, rng):
    x = random_array((3, 4, 5), dtype, rng)
    k = kiln.asarray(x, device=device)
    rtol = 1e-4 if dtype == "float32" else 1e-10
    assert_matches(kiln.linalg.norm(k), np.asarray(np.linalg.norm(x)), rtol)
    assert_matches(kiln.linalg.norm(k, keepdims=True), np.linalg.norm(x, keepdims=True), rtol)
    for ord in (None, 1, 2, np.inf, -np.inf, 0, 3, -1):
        assert_matches(kiln.linalg.norm(k, ord, axis=1), np.linalg.norm(x, ord, axis=1), rtol)
        assert_matches(kiln.linalg.vector_norm(k, ord=2 if ord is None else ord, axis=(0, 2)),
                       np.linalg.vector_norm(x, ord=2 if ord is None else ord, axis=(0, 2)), rtol)
    for ord in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        assert_matches(kiln.linalg.norm(k, ord, axis=(2, 0)), np.linalg.norm(x, ord, axis=(2, 0)), rtol)
        assert_matches(kiln.linalg.matrix_norm(k, ord=ord, keepdims=True),
                       np.linalg.matrix_norm(x, ord=ord, keepdims=True), rtol)
    assert_matches(kiln.linalg.norm(k[0], "fro"), np.asarray(np.linalg.norm(x[0], "fro")), rtol)
    with pytest.raises(ValueError, match="Invalid norm order"):
        kiln.linalg.norm(k, "fro", axis=1)
    if dtype != "int64":
        sq = _well_conditioned((4, 4), dtype, rng)
        for p in (None, 2, -2, 1, np.inf, "fro"):
            assert_matches(kiln.linalg.cond(kiln.asarray(sq, device=device), p), np.asarray(np.linalg.cond(sq, p)),
                           1e-3 if dtype == "float32" else 1e-9)


def test_cross_and_multi_dot(device, rng):
    a, b = random_array((4, 3), "float64", rng), random_array((4, 3), "float64", rng)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    assert_matches(kiln.linalg.cross(ka, kb), np.linalg.cross(a, b), 1e-12)
    assert_matches(kiln.linalg.cross(ka.T, kb.T, axis=0), np.cross(a.T, b.T, axis=0), 1e-12)
    m = [random_array(s, "float64", rng) for s in ((3, 4), (4, 5), (5, 2))]
    assert_matches(kiln.linalg.multi_dot([kiln.asarray(x, device=device) for x in m]), np.linalg.multi_dot(m), 1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
def test_slogdet_of_a_stack_with_singular_swapped_and_nan_matrices(device, dtype, rng):
    """Each matrix's sign and log|det| on its own: a singular one (sign 0,
    -inf), a NaN one, row swaps that flip the sign, a 1x1 stack."""
    a = _well_conditioned((6, 5, 5), dtype, rng)
    a[1] = 0
    a[1, 0, 0] = 1  # singular: zero pivots below
    a[2, [0, 1]] = a[2, [1, 0]]  # a row swap: the sign flips
    a[3, 2, 2] = np.nan
    a[4] = -a[4]
    ka = kiln.asarray(a, device=device)
    with np.errstate(all="ignore"):
        want = np.linalg.slogdet(a)
        want_det = np.linalg.det(a)
    sign, logdet = kiln.linalg.slogdet(ka)
    rtol = RTOL[dtype] * 4
    _close(sign, want.sign, rtol)
    _close(logdet, want.logabsdet, rtol)
    _close(kiln.linalg.det(ka), want_det, rtol)
    one = a[:, :1, :1]
    sign1, logdet1 = kiln.linalg.slogdet(kiln.asarray(one, device=device))
    with np.errstate(all="ignore"):
        _close(sign1, np.linalg.slogdet(one).sign, rtol)
        _close(logdet1, np.linalg.slogdet(one).logabsdet, rtol)


def test_empty_matrices(device):
    e = kiln.zeros((0, 0), device=device)
    assert kiln.linalg.inv(e).shape == (0, 0)
    assert_matches(kiln.linalg.det(e), np.linalg.det(np.zeros((0, 0))))
    assert kiln.linalg.eigh(e).eigenvalues.shape == (0,)
    assert kiln.linalg.cholesky(kiln.zeros((2, 0, 0), device=device)).shape == (2, 0, 0)


@pytest.mark.parametrize("p", [None, 1, -1, 2, -2, np.inf, -np.inf, "fro"])
def test_cond_of_singular_and_empty_matrices(device, p):
    """NumPy's cond: inf for a singular matrix (NaN only where the matrix
    holds NaN), an error for an empty one."""
    stack = np.array([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 0.0], [0.0, 1.0]], [[np.nan, 0.0], [0.0, 1.0]]])
    if p in (None, 2, -2):
        stack = stack[:2]  # singular values of a NaN matrix do not converge (NumPy's neither)
    got = kiln.asnumpy(kiln.linalg.cond(kiln.asarray(stack, device=device), p))
    with np.errstate(all="ignore"):
        want = np.linalg.cond(stack, p)
    if p == -2:  # the smallest singular value over the largest
        assert got[0] <= np.finfo(np.float64).eps
    else:
        assert got[0] >= 1 / np.finfo(np.float64).eps
    np.testing.assert_allclose(got[1:], want[1:])
    with pytest.raises(np.linalg.LinAlgError, match="empty"):
        kiln.linalg.cond(kiln.zeros((0, 0), device=device), p)
