"""matmul and ``@``, dot, vdot, inner, outer, tensordot, vecdot, einsum,
trace and diagonal against NumPy on every device present: every dtype,
broadcast batches, 1-D operands, views, empty and 0-d arrays."""
import numpy as np
import pytest

import kiln
from conftest import ALL_DTYPES, assert_matches, random_array


def _reference(a, b, op):
    """NumPy's result, computed in float64/complex128 for float16 (whose
    rounding of long sums depends on the order of the additions)."""
    if a.dtype == np.float16 or b.dtype == np.float16:
        return op(a.astype(np.float64), b.astype(np.float64)).astype(np.result_type(a, b))
    return op(a, b)


RTOL = {"float16": 2e-2, "float32": 2e-5, "complex64": 2e-5, "float64": 1e-12, "complex128": 1e-12}


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((4,), (2, 4, 3)), ((5, 1, 3, 4), (2, 4, 6)),
                                    ((7,), (7,)), ((3, 4), (4,)), ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((1, 65), (65, 33))])
def test_matmul_matches_numpy(device, dtype, shapes, rng):
    a, b = (random_array(s, dtype, rng, -3, 3) for s in shapes)
    want = _reference(a, b, np.matmul)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    rtol = RTOL.get(dtype)
    assert_matches(kiln.matmul(ka, kb), want, rtol=rtol)
    assert_matches(ka @ kb, want, rtol=rtol)


def test_matmul_views_mixed_dtypes_and_out(device, rng):
    a = random_array((6, 8), "float64", rng)
    b = random_array((6, 5), "int32", rng)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    assert_matches(ka[::2, ::-1].T @ kb[::2], a[::2, ::-1].T @ b[::2], rtol=1e-12)
    assert_matches(kiln.matmul(ka.T, kb, dtype="float32"), (a.T @ b).astype(np.float32), rtol=1e-5)
    out = kiln.empty((8, 5), device=device)
    assert kiln.matmul(ka.T, kb, out=out) is out
    assert_matches(out, a.T @ b, rtol=1e-12)
    c = kiln.asarray(np.eye(8), device=device)
    c @= kiln.asarray(np.full((8, 8), 2.0), device=device)
    assert_matches(c, np.full((8, 8), 2.0))
    if device.type == "cpu":  # NumPy's @ hands a kiln operand to kiln
        assert_matches(np.arange(6.0).reshape(1, 6) @ ka, np.arange(6.0).reshape(1, 6) @ a, rtol=1e-12)


def test_matmul_bad_input(device):
    a = kiln.ones((2, 3), device=device)
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        kiln.matmul(a, a)
    with pytest.raises(ValueError, match="enough dimensions"):
        kiln.matmul(a, kiln.asarray(2.0, device=device))
    with pytest.raises(ValueError):
        kiln.matmul(kiln.ones((2, 2, 3), device=device), kiln.ones((3, 3, 1), device=device))
    if device.type == "cuda":
        with pytest.raises(TypeError, match="is on"):
            kiln.matmul(a, kiln.ones((3, 2), device="cpu"))


@pytest.mark.parametrize("dtype", ["int16", "float32", "float64", "complex128"])
def test_dot_vdot_inner_outer_tensordot(device, dtype, rng):
    rtol = None if dtype == "int16" else (1e-5 if dtype == "float32" else 1e-12)
    x = random_array((2, 3, 4), dtype, rng, -3, 3)
    y = random_array((4, 3, 2), dtype, rng, -3, 3)
    z = random_array((3, 4, 2), dtype, rng, -3, 3)
    v = random_array((4,), dtype, rng, -3, 3)
    m = random_array((3, 4), dtype, rng, -3, 3)
    kx, ky, kz, kv, km = (kiln.asarray(t, device=device) for t in (x, y, z, v, m))
    assert_matches(kiln.dot(kx, kz), np.dot(x, z), rtol)
    assert_matches(kiln.dot(kx, kv), np.dot(x, v), rtol)
    assert_matches(kiln.dot(km, km.T), np.dot(m, m.T), rtol)
    assert_matches(kiln.dot(kv, kv), np.asarray(np.dot(v, v)), rtol)
    assert_matches(kiln.dot(kv, 3), np.dot(v, 3), rtol)
    assert_matches(km.dot(kv), m.dot(v), rtol)
    assert_matches(kiln.vdot(km, km), np.asarray(np.vdot(m, m)), rtol)
    assert_matches(kiln.inner(kx, km), np.inner(x, m), rtol)
    assert_matches(kiln.outer(kv, km), np.outer(v, m), rtol)
    assert_matches(kiln.tensordot(kx, ky, axes=([1, 0], [1, 2])), np.tensordot(x, y, axes=([1, 0], [1, 2])), rtol)
    assert_matches(kiln.tensordot(kx, ky, axes=1), np.tensordot(x, y, axes=1), rtol)
    assert_matches(kiln.tensordot(km, km, axes=0), np.tensordot(m, m, axes=0), rtol)
    assert_matches(kiln.linalg.vecdot(kx, kx[:1]), np.linalg.vecdot(x, x[:1]), rtol)
    assert_matches(kiln.linalg.vecdot(kx, ky.T, axis=1), np.linalg.vecdot(x, y.T, axis=1), rtol)
    with pytest.raises(ValueError, match="shape-mismatch"):
        kiln.tensordot(kx, ky, axes=([0], [1]))
    with pytest.raises(ValueError, match="different lengths"):
        kiln.vdot(kv, km)


@pytest.mark.parametrize("subscripts, shapes", [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ijk,kjl->il", [(2, 3, 4), (4, 3, 5)]),
    ("bij,bjk->bik", [(5, 2, 3), (5, 3, 4)]), ("ii->i", [(4, 4)]), ("ii", [(4, 4)]), ("ij->ji", [(3, 4)]),
    ("ij->", [(3, 4)]), ("i,i->", [(6,), (6,)]), ("i,j->ij", [(3,), (4,)]), ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("iij->ji", [(3, 3, 2)]), ("abc,cd->dba", [(2, 3, 4), (4, 5)]),
    ("i...->...", [(3, 2, 4)]), ("ij,ij->i", [(3, 4), (3, 4)]),
])
def test_einsum_matches_numpy(device, subscripts, shapes, rng):
    ops = [random_array(s, "float64", rng) for s in shapes]
    assert_matches(kiln.einsum(subscripts, *(kiln.asarray(o, device=device) for o in ops)),
                   np.einsum(subscripts, *ops), rtol=1e-12)


def test_einsum_operand_lists_views_broadcasting_and_mixed_types(device, rng):
    """NumPy's operand-list form; a single operand needing no sum is a view
    of it; length-1 axes broadcast against their label's length; mixed
    dtypes are summed in the common type (a boolean operand is not or-ed)."""
    a, b = random_array((2, 3), "float64", rng), random_array((3, 4), "float64", rng)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    assert_matches(kiln.einsum(ka, [0, 1], kb, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]), rtol=1e-12)
    assert_matches(kiln.einsum(ka, [Ellipsis, 1]), np.einsum(a, [Ellipsis, 1]))
    square = kiln.asarray(random_array((3, 3, 2), "int8", rng), device=device)
    for subscripts in ("ijk->kji", "iik->ki", "ijk"):
        view = kiln.einsum(subscripts, square, dtype="float32")  # NumPy ignores dtype= for a view
        assert view.base is square and view.dtype == "int8"
        assert_matches(view, np.einsum(subscripts, kiln.asnumpy(square)))
    one = random_array((2, 1), "float64", rng)
    assert_matches(kiln.einsum("ij,jk->ik", kiln.asarray(one, device=device), kb), np.einsum("ij,jk->ik", one, b),
                   rtol=1e-12)
    flags = random_array((2, 2, 3), "bool", rng)
    c = random_array((3, 2), "float32", rng)
    assert_matches(kiln.einsum("iij,jk->k", kiln.asarray(flags, device=device), kiln.asarray(c, device=device)),
                   np.einsum("iij,jk->k", flags, c), rtol=1e-5)


def test_einsum_bad_input(device):
    a = kiln.ones((2, 3), device=device)
    with pytest.raises(ValueError, match="operand"):
        kiln.einsum("ij,jk->ik", a)
    with pytest.raises(ValueError, match="do not fit"):
        kiln.einsum("ijk->i", a)
    with pytest.raises(ValueError, match="size of 'j'"):
        kiln.einsum("ij,jk->ik", a, a)
    with pytest.raises(ValueError, match="missing"):
        kiln.einsum()
    with pytest.raises(ValueError, match="no '...'"):
        kiln.einsum("...->", kiln.ones((2, 2, 2), device=device))
    with pytest.raises(ValueError, match="different sizes"):
        kiln.einsum("ii", a)
    with pytest.raises(ValueError, match="more than one ellipsis"):
        kiln.einsum(a, [Ellipsis, 0, Ellipsis])


def test_trace_and_diagonal(device, rng):
    x = random_array((3, 4, 5), "float32", rng)
    k = kiln.asarray(x, device=device)
    assert_matches(kiln.trace(k), np.trace(x), rtol=1e-5)
    assert_matches(kiln.trace(k, 1, 1, 2), np.trace(x, 1, 1, 2), rtol=1e-5)
    assert_matches(k.trace(axis1=2, axis2=0, dtype="float64"), x.trace(axis1=2, axis2=0, dtype="float64"), rtol=1e-6)
    assert_matches(kiln.diagonal(k, -1, 2, 1), np.diagonal(x, -1, 2, 1))
    assert_matches(kiln.linalg.diagonal(k, offset=1), np.linalg.diagonal(x, offset=1))
    assert_matches(kiln.linalg.trace(k), np.linalg.trace(x), rtol=1e-5)
    assert_matches(kiln.linalg.matrix_transpose(k), np.linalg.matrix_transpose(x))
