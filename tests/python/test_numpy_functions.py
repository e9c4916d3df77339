"""NumPy's shape, selection, calculus and functional helpers in kiln, against NumPy, on every device."""
import numpy as np
import pytest

import kiln


def _k(a, device):
    return kiln.array(a, device=device)


def _eq(got, expected):
    np.testing.assert_allclose(got.get() if isinstance(got, kiln.ndarray) else got, expected, rtol=1e-12)


def test_insert_delete_append(device):
    a = np.arange(12).reshape(3, 4)
    x = _k(a, device)
    for obj, values, axis in [(1, 99, None), ([1, 3, 3], [7, 8, 9], None), (2, [5, 6, 7], 1), (slice(0, 2), 0, 0),
                              (0, [[1], [2], [3]], 1)]:
        _eq(kiln.insert(x, obj, values, axis), np.insert(a, obj, values, axis))
    for obj, axis in [([0, 2], None), (1, 0), (slice(None, None, 2), 1), ([True, False, True], 0)]:
        _eq(kiln.delete(x, obj, axis), np.delete(a, obj, axis))
    _eq(kiln.append(x, x, axis=0), np.append(a, a, axis=0))
    with pytest.raises(IndexError):
        kiln.insert(x, 20, 1)


def test_stacking_and_splitting(device):
    a = np.arange(24).reshape(2, 3, 4)
    x = _k(a, device)
    _eq(kiln.column_stack([x[0, 0], x[1, 0]]), np.column_stack([a[0, 0], a[1, 0]]))
    for k_part, n_part in zip(kiln.dsplit(x, 2), np.dsplit(a, 2)):
        _eq(k_part, n_part)
    for k_part, n_part in zip(kiln.vsplit(x, [1]), np.vsplit(a, [1])):
        _eq(k_part, n_part)
    assert kiln.rollaxis(x, 2).shape == np.rollaxis(a, 2).shape
    assert kiln.rollaxis(x, 0, 3).shape == np.rollaxis(a, 0, 3).shape
    t = np.array([0, 0, 1, 2, 0, 3, 0])
    _eq(kiln.trim_zeros(_k(t, device)), np.trim_zeros(t))
    _eq(kiln.trim_zeros(_k(t, device), "f"), np.trim_zeros(t, "f"))


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "float16", "float32", "complex64"])
def test_select_keeps_python_numbers_weak(dtype, device):
    # NumPy 2: the default 0 (or a Python number choice) does not widen the
    # choices' dtype; choices broadcast against each other and the conditions.
    a, b = np.arange(10, dtype=dtype), np.arange(30, dtype=dtype).reshape(3, 10)
    x, y = _k(a, device), _k(b, device)
    for conditions, choices, default, kiln_conditions, kiln_choices in [
            ([a > 3, a < 5], [a, a * 2], 0, [x > 3, x < 5], [x, x * 2]),
            ([a < 3, b > 8], [a, b], 3, [x < 3, y > 8], [x, y]),
            ([a > 3], [2], -1, [x > 3], [2])]:
        got, want = kiln.select(kiln_conditions, kiln_choices, default), np.select(conditions, choices, default)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)


def test_selection(device):
    a = np.arange(10)
    x = _k(a, device)
    _eq(kiln.select([x < 3, x > 6], [x, x * 10], -1), np.select([a < 3, a > 6], [a, a * 10], -1))
    idx = np.array([0, 2, 1, 2])
    choices = [np.arange(4), np.arange(4) * 10, np.arange(4) * 100]
    _eq(kiln.choose(_k(idx, device), [_k(c, device) for c in choices]), np.choose(idx, choices))
    _eq(kiln.choose(_k(idx + 2, device), [_k(c, device) for c in choices], mode="wrap"),
        np.choose(idx + 2, choices, mode="wrap"))
    for name, args in [("putmask", (a > 4, [0, -1])), ("place", (a % 3 == 0, [9, 8]))]:
        n, k = a.copy(), _k(a, device)
        getattr(np, name)(n, *args)
        getattr(kiln, name)(k, _k(args[0], device), args[1])
        _eq(k, n)
    b = np.arange(12.0).reshape(3, 4)
    y = _k(b, device)
    where = b > 5
    n = b.copy()
    np.copyto(n, -1.0, where=where)
    kiln.copyto(y, -1.0, where=_k(where, device))
    _eq(y, n)
    ind = np.array([[1], [0], [3]])
    n = b.copy()
    np.put_along_axis(n, ind, 50.0, axis=1)
    y = _k(b, device)
    kiln.put_along_axis(y, _k(ind, device), 50.0, axis=1)
    _eq(y, n)


def test_calculus(device):
    f = np.array([1.0, 2.0, 4.0, 7.0, 11.0, 16.0])
    x = np.array([0.0, 1.0, 1.5, 3.5, 4.0, 6.0])
    for edge_order in (1, 2):
        _eq(kiln.gradient(_k(f, device), edge_order=edge_order), np.gradient(f, edge_order=edge_order))
        _eq(kiln.gradient(_k(f, device), _k(x, device), edge_order=edge_order),
            np.gradient(f, x, edge_order=edge_order))
    g = np.arange(12.0).reshape(3, 4) ** 2
    for k_part, n_part in zip(kiln.gradient(_k(g, device), 2.0), np.gradient(g, 2.0)):
        _eq(k_part, n_part)
    _eq(kiln.trapezoid(_k(f, device), _k(x, device)), np.trapezoid(f, x))
    _eq(kiln.ediff1d(_k(f, device), to_begin=-1, to_end=[5, 6]), np.ediff1d(f, to_begin=-1, to_end=[5, 6]))
    phase = np.array([0.0, 3.0, 6.5, 0.2, 7.0, -3.0])
    _eq(kiln.unwrap(_k(phase, device)), np.unwrap(phase))


def test_spaces(device):
    _eq(kiln.logspace(0, 3, 4, base=2.0, device=device), np.logspace(0, 3, 4, base=2.0))
    _eq(kiln.geomspace(1, 1000, 4, device=device), np.geomspace(1, 1000, 4))
    _eq(kiln.geomspace(-1, -1000, 4, endpoint=False, device=device), np.geomspace(-1, -1000, 4, endpoint=False))
    _eq(kiln.linspace(_k([0.0, 1.0], device), 2.0, 5, axis=1), np.linspace([0.0, 1.0], 2.0, 5, axis=1))
    out, step = kiln.linspace(0, 1, 5, retstep=True, device=device)
    assert step == 0.25
    _eq(kiln.identity(3, device=device), np.identity(3))
    assert kiln.eye(3, 4, 1, order="F", device=device).flags.f_contiguous


def test_functional(device):
    a = np.arange(6.0).reshape(2, 3)
    x = _k(a, device)
    _eq(kiln.vectorize(lambda u, v: u * 2 + v if u > 2 else -v)(x, 1.0),
        np.vectorize(lambda u, v: u * 2 + v if u > 2 else -v)(a, 1.0))
    assert kiln.vectorize(lambda u: u)(x).device == device
    t = np.linspace(-2, 2, 9)
    _eq(kiln.piecewise(_k(t, device), [_k(t < 0, device), _k(t > 1, device)], [lambda v: -v, 5.0, lambda v: v * 10]),
        np.piecewise(t, [t < 0, t > 1], [lambda v: -v, 5.0, lambda v: v * 10]))
    _eq(kiln.apply_along_axis(lambda r: r.sum(), 1, x), np.apply_along_axis(np.sum, 1, a))
    _eq(kiln.apply_along_axis(lambda r: r[::-1] * 2, 0, x), np.apply_along_axis(lambda r: r[::-1] * 2, 0, a))
    _eq(kiln.apply_over_axes(kiln.sum, x, [0, 1]), np.apply_over_axes(np.sum, a, [0, 1]))


def test_memory_overlap(device):
    x = kiln.arange(20, device=device)
    assert kiln.shares_memory(x, x[3:]) and not kiln.shares_memory(x[:5], x[5:])
    assert not kiln.shares_memory(x[::2], x[1::2]) and kiln.may_share_memory(x[::2], x[1::2])
    low, high = kiln.byte_bounds(x[2:5])
    assert high - low == 3 * x.itemsize
    from kiln.lib.stride_tricks import sliding_window_view

    _eq(sliding_window_view(x, 4)[:3], np.lib.stride_tricks.sliding_window_view(np.arange(20), 4)[:3])


def test_general_eigenproblems_and_tensor_solves(device):
    rng = np.random.default_rng(3)
    a = rng.normal(size=(2, 4, 4))
    values, vectors = kiln.linalg.eig(_k(a, device))
    assert values.device == device and values.dtype == kiln.complex128
    v, w = vectors.get(), values.get()
    np.testing.assert_allclose(a @ v, v * w[:, None, :], atol=1e-10)
    def ordered(z):  # by real part rounded (conjugate pairs share it), then imaginary part
        return z[np.lexsort((z.imag, z.real.round(8)))]

    np.testing.assert_allclose(ordered(kiln.linalg.eigvals(_k(a[0], device)).get()),
                               ordered(np.linalg.eigvals(a[0])), atol=1e-10)
    assert kiln.linalg.eigvals(_k(a[0].astype(np.float32), device)).dtype == kiln.complex64
    t = rng.normal(size=(6, 2, 3))
    b = rng.normal(size=6)
    # LAPACK and cuSOLVER round differently: compare to a few ulps of the largest entry.
    np.testing.assert_allclose(kiln.linalg.tensorsolve(_k(t, device), _k(b, device)).get(),
                               np.linalg.tensorsolve(t, b), rtol=1e-10, atol=1e-12)
    m = rng.normal(size=(4, 6, 8, 3))
    np.testing.assert_allclose(kiln.linalg.tensorinv(_k(m, device), 2).get(), np.linalg.tensorinv(m, 2),
                               rtol=1e-10, atol=1e-12)
    with pytest.raises(kiln.linalg.LinAlgError):
        kiln.linalg.eig(_k(np.ones((2, 3)), device))


def test_polynomials_match_numpy(device):
    p = np.array([2.0, -3.0, 0.5, 4.0])
    q = np.array([1.0, -1.0])
    x = np.linspace(-2, 2, 7)
    _eq(kiln.polyval(_k(p, device), _k(x, device)), np.polyval(p, x))
    for name in ("polyadd", "polysub", "polymul"):
        _eq(getattr(kiln, name)(_k(p, device), _k(q, device)), getattr(np, name)(p, q))
    for k_part, n_part in zip(kiln.polydiv(_k(p, device), _k(q, device)), np.polydiv(p, q)):
        _eq(k_part, n_part)
    _eq(kiln.polyder(_k(p, device), 2), np.polyder(p, 2))
    _eq(kiln.polyint(_k(p, device), 2, [1.0, 2.0]), np.polyint(p, 2, [1.0, 2.0]))
    y = np.polyval(p, x) + 0.01 * np.sin(x)
    np.testing.assert_allclose(kiln.polyfit(_k(x, device), _k(y, device), 3).get(), np.polyfit(x, y, 3), rtol=1e-8)
    np.testing.assert_allclose(np.sort(kiln.roots(_k([1.0, -6.0, 11.0, -6.0], device)).get()), [1.0, 2.0, 3.0])
    _eq(kiln.poly(_k([1.0, 2.0, 3.0], device)), np.poly([1.0, 2.0, 3.0]))
    k_poly, n_poly = kiln.poly1d(_k(p, device)), np.poly1d(p)
    _eq((k_poly * k_poly - 1).coeffs, (n_poly * n_poly - 1).coeffs)
    _eq(k_poly(_k(x, device)), n_poly(x))
    _eq(k_poly.deriv().coeffs, n_poly.deriv().coeffs)
    assert k_poly.order == 3 and k_poly ** 2 == k_poly * k_poly


def test_sort_complex(device):
    a = np.array([[3 + 1j, 1 + 2j, 1 + 1j, 2], [0, -1j, 5, 1]])
    _eq(kiln.sort_complex(_k(a, device)), np.sort_complex(a))
    assert kiln.sort_complex(_k(np.array([3, 1, 2]), device)).dtype == np.sort_complex([3, 1, 2]).dtype


def test_fuse_gives_the_functions_results(device):
    @kiln.fuse()
    def scaled_sum(x, y):
        return kiln.sum(x * y + 1, axis=0)

    @kiln.fuse
    def square(x):
        return x * x

    a = np.arange(12.0).reshape(3, 4)
    _eq(scaled_sum(_k(a, device), 2.0), np.sum(a * 2.0 + 1, axis=0))
    _eq(square(_k(a, device)), a * a)
    assert kiln.fuse(kernel_name="k")(square).name == "k"


def test_common_type(device):
    for dtypes in [("int32",), ("float16",), ("float32", "complex64"), ("float16", "int8"), ("complex128", "float32")]:
        arrays = [kiln.ones(2, dtype=d, device=device) for d in dtypes]
        assert kiln.common_type(*arrays) is np.common_type(*[np.ones(2, d) for d in dtypes])
    assert kiln.common_type() is np.float16
    with pytest.raises(TypeError):
        kiln.common_type(kiln.ones(2, dtype="bool", device=device))


def test_polyfit_covariance_and_bad_input(device):
    x = np.linspace(0, 2, 12)
    y = 1.5 * x ** 2 - x + 0.3 + 0.05 * np.cos(7 * x)
    for cov in (True, "unscaled"):
        k_c, k_v = kiln.polyfit(_k(x, device), _k(y, device), 2.0, cov=cov)
        n_c, n_v = np.polyfit(x, y, 2, cov=cov)
        np.testing.assert_allclose(k_c.get(), n_c, rtol=1e-8)
        np.testing.assert_allclose(k_v.get(), n_v, rtol=1e-6)
    with pytest.raises(TypeError, match="float16"):
        kiln.polyfit(_k(x.astype(np.float16), device), _k(y, device), 2)
    with pytest.raises(TypeError):
        kiln.polysub(_k([True, False], device), _k([True, True], device))
    _eq(kiln.polyval(_k([[1.0, 2.0], [3.0, 4.0]], device), _k([2.0, 3.0], device)),
        np.polyval(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([2.0, 3.0])))


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), ()])
def test_trim_zeros_is_numpys_box_or_axis(shape, device):
    rng = np.random.default_rng(7)
    a = rng.integers(0, 3, size=shape) * (rng.random(shape) < 0.3)
    for source in (a, np.zeros(shape, int)):
        for trim in ("fb", "f", "b"):
            for axis in (None,) + tuple(range(-1, len(shape))):
                want = np.trim_zeros(source, trim, axis=axis) if shape else np.trim_zeros(source, trim)
                got = kiln.trim_zeros(_k(source, device), trim, axis=axis)
                assert got.shape == want.shape
                np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(ValueError, match="trim"):
        kiln.trim_zeros(_k(np.ones(3), device), "x")


def test_copyto_drops_leading_unit_dimensions_and_wants_a_bool_mask(device):
    for xp, to in ((np, lambda x: x), (kiln, lambda x: _k(x, device))):
        dst = to(np.arange(24).reshape(2, 3, 4))
        xp.copyto(dst, to(np.arange(8)[::-1].reshape(1, 2, 1, 4).copy()), where=to(np.arange(12).reshape(3, 4) % 2 == 0))
        transposed = to(np.zeros((4, 3))).T
        xp.copyto(transposed, to(np.arange(12.0).reshape(1, 1, 3, 4)))
        if xp is np:
            want = dst, transposed
        else:
            np.testing.assert_array_equal(dst.get(), want[0])
            np.testing.assert_array_equal(transposed.get(), want[1])
        with pytest.raises(TypeError):
            xp.copyto(to(np.zeros(3, "i")), to(np.ones(3, "i")), where=to(np.ones(3, "i")))
        with pytest.raises(ValueError):
            xp.copyto(to(np.zeros(3)), to(np.ones((2, 1, 3))))
