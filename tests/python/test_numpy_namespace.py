"""NumPy's creation, layout and index helpers that kiln gained for CuPy
programs, against NumPy, on every device."""
import numpy as np
import pytest

import kiln


def _k(a, device):
    return kiln.asarray(a, device=device)


def test_order_of_new_arrays(device):
    for make in (lambda o: kiln.zeros((2, 3), order=o, device=device),
                 lambda o: kiln.empty((2, 3), "f4", o, device=device),
                 lambda o: kiln.full((2, 3), 7, order=o, device=device)):
        assert make("F").flags.f_contiguous and not make("F").flags.c_contiguous
        assert make("C").flags.c_contiguous
    f = kiln.ones((2, 3), order="F", device=device)
    assert kiln.zeros_like(f).flags.f_contiguous and kiln.empty_like(f, order="C").flags.c_contiguous
    a = np.arange(6.0).reshape(2, 3)
    x = kiln.asarray(a, order="F", device=device)
    assert x.flags.f_contiguous
    np.testing.assert_array_equal(x.get(), a)
    assert kiln.ascontiguousarray(x).flags.c_contiguous and kiln.asfortranarray(_k(a, device)).flags.f_contiguous
    assert kiln.array([1, 2], ndmin=3).shape == (1, 1, 2)
    with pytest.raises(ValueError, match="order"):
        kiln.zeros(3, order="X")


def test_reshape_ravel_copy_orders(device):
    a = np.arange(24).reshape(2, 3, 4)
    x = _k(a, device)
    for order in ("C", "F", "A"):
        np.testing.assert_array_equal(x.reshape((4, 6), order=order).get(), a.reshape((4, 6), order=order))
        np.testing.assert_array_equal(x.ravel(order).get(), a.ravel(order))
        np.testing.assert_array_equal(x.flatten(order).get(), a.flatten(order))
    assert x.copy(order="F").flags.f_contiguous


def test_memory_pointer_and_constructor(device):
    x = kiln.arange(6, dtype=kiln.float32, device=device)
    ptr = x.data
    assert ptr.ptr == x._data_ptr and (ptr + 8).ptr == ptr.ptr + 8
    view = kiln.ndarray((2,), kiln.float32, memptr=ptr + 8)
    view[...] = -1
    np.testing.assert_array_equal(x.get(), [0, 1, -1, -1, 4, 5])
    fresh = kiln.ndarray((2, 3), "f8", order="F")
    assert fresh.shape == (2, 3) and fresh.flags.f_contiguous
    with pytest.raises(TypeError, match="memptr"):
        kiln.ndarray((2,), memptr=123)


def test_index_tricks_match_numpy(device):
    np.testing.assert_array_equal(kiln.r_[1:4, 7, _k([8, 9], device)].get(), np.r_[1:4, 7, [8, 9]])
    np.testing.assert_array_equal(kiln.r_["0,2", [1, 2], [3, 4]].get(), np.r_["0,2", [1, 2], [3, 4]])
    np.testing.assert_array_equal(kiln.c_[_k([1, 2], device), _k([3, 4], device)].get(), np.c_[[1, 2], [3, 4]])
    np.testing.assert_array_equal(kiln.mgrid[0:3, 1:5:2].get(), np.mgrid[0:3, 1:5:2])
    np.testing.assert_allclose(kiln.mgrid[0:1:5j].get(), np.mgrid[0:1:5j])
    for k_part, n_part in zip(kiln.ogrid[0:2, 0:3], np.ogrid[0:2, 0:3]):
        np.testing.assert_array_equal(k_part.get(), n_part)
    for k_part, n_part in zip(kiln.ix_([0, 2], [1, 3]), np.ix_([0, 2], [1, 3])):
        np.testing.assert_array_equal(k_part.get(), n_part)
    np.testing.assert_array_equal(kiln.indices((2, 3)).get(), np.indices((2, 3)))
    flat = np.array([0, 5, 11])
    for order in ("C", "F"):
        for k_part, n_part in zip(kiln.unravel_index(_k(flat, device), (3, 4), order), np.unravel_index(flat, (3, 4),
                                                                                                         order)):
            np.testing.assert_array_equal(k_part.get(), n_part)
    coords = (np.array([0, 2, 5]), np.array([1, 3, -1]))
    for mode in ("wrap", "clip"):
        np.testing.assert_array_equal(
            kiln.ravel_multi_index(tuple(_k(c, device) for c in coords), (3, 4), mode=mode).get(),
            np.ravel_multi_index(coords, (3, 4), mode=mode))
    with pytest.raises(ValueError):
        kiln.ravel_multi_index(tuple(_k(c, device) for c in coords), (3, 4))
    for name, args in [("tril_indices", (4, 1)), ("triu_indices", (4, -1, 5)), ("diag_indices", (3,))]:
        for k_part, n_part in zip(getattr(kiln, name)(*args), getattr(np, name)(*args)):
            np.testing.assert_array_equal(k_part.get(), n_part)
    for wrap in (False, True):
        a = np.zeros((7, 3))
        x = _k(a, device)
        np.fill_diagonal(a, [1, 2], wrap=wrap)
        kiln.fill_diagonal(x, _k([1, 2], device), wrap=wrap)
        np.testing.assert_array_equal(x.get(), a)
    assert kiln.s_[1:3] == np.s_[1:3] and kiln.index_exp[2] == (2,)
    assert list(kiln.ndindex(2, 2)) == list(np.ndindex(2, 2))


def test_rearranging_helpers_match_numpy(device):
    a = np.arange(24).reshape(2, 3, 4)
    x = _k(a, device)
    for k in range(-1, 5):
        np.testing.assert_array_equal(kiln.rot90(x, k, axes=(1, 2)).get(), np.rot90(a, k, axes=(1, 2)))
    np.testing.assert_array_equal(kiln.resize(x, (5, 7)).get(), np.resize(a, (5, 7)))
    np.testing.assert_array_equal(kiln.tri(3, 4, -1, dtype=int).get(), np.tri(3, 4, -1, dtype=int))
    v = np.array([1.5, 2.0, -3.0])
    for increasing in (False, True):
        np.testing.assert_allclose(kiln.vander(_k(v, device), 4, increasing).get(), np.vander(v, 4, increasing))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint64", "float16", "float32", "complex64", "bool"])
def test_vander_is_numpys_in_dtype_and_bits(dtype, device):
    # NumPy promotes with the default integer and multiplies column by column.
    v = np.array([1.5, -2.0, 3.0, 0.0, 7.0]).astype(dtype)
    for n in (None, 0, 1, 2, 6):
        for increasing in (False, True):
            got, want = kiln.vander(_k(v, device), n, increasing), np.vander(v, n, increasing)
            assert got.dtype == want.dtype and got.flags.c_contiguous
            np.testing.assert_array_equal(got.get(), want)


def test_flat_item_and_bytes(device):
    a = np.arange(12).reshape(3, 4)
    x = kiln.array(a, device=device)
    assert x.flat.base is x and len(x.flat) == 12
    np.testing.assert_array_equal(x.T.flat[2:5].get(), a.T.flat[2:5])
    y = x.T
    y.flat[[0, 5]] = -1
    b = a.copy().T
    b.flat[[0, 5]] = -1
    np.testing.assert_array_equal(y.get(), b)
    assert x.item(5) == 5 and x.item((2, 1)) == -1 and x.tobytes() == b.T.tobytes()
    assert 7 in x and 70 not in x
    # Fewer values than targets repeat (NumPy's flat assignment, as put's);
    # no values place nothing.
    for key in (slice(None), [0, 1, 2, 7, 9], slice(1, None, 2)):
        z, c = kiln.zeros((3, 4), device=device).T, np.zeros((3, 4)).T
        z.flat[key], c.flat[key] = kiln.asarray([1.0, 2.0, 3.0], device=device), [1.0, 2.0, 3.0]
        np.testing.assert_array_equal(z.get(), c)
    kiln.put(x, [0, 1], kiln.zeros(0, dtype=x.dtype, device=device))
    np.testing.assert_array_equal(x.get(), b.T)


def test_axis_errors_are_numpys():
    with pytest.raises(np.exceptions.AxisError):
        kiln.sum(kiln.ones(3), axis=1)
    with pytest.raises(kiln.exceptions.AxisError):
        kiln.flip(kiln.ones(3), axis=2)


def test_python_bools_as_indices(device):
    a = np.arange(6).reshape(2, 3)
    x = kiln.array(a, device=device)
    for key in [True, False, (True, 1), (0, False), (Ellipsis, True), (slice(None), None, True, 1)]:
        np.testing.assert_array_equal(x[key].get(), a[key])
    x[True] = 7
    x[(0, False)] = 1
    assert (x.get() == 7).all()
    # Beside an index array, a Python bool is a 0-d mask (NumPy's reading).
    sevens = np.full((2, 3), 7)
    np.testing.assert_array_equal(x[True, kiln.asarray([0], device=device)].get(), sevens[True, np.array([0])])


def test_none_alone_is_a_new_axis(device):
    x = kiln.arange(3, device=device)
    assert x[None].shape == (1, 3)
    x[None] = 5
    assert (x.get() == 5).all()


def test_shape_setter_reshapes_in_place(device):
    """NumPy's a.shape = ...: a view's layout changes in place; a shape that
    would need a copy raises AttributeError."""
    x = kiln.arange(6.0, device=device)
    view = x[::2]
    view.shape = (3, 1)
    assert view.shape == (3, 1) and view.base is x
    x.shape = (2, -1)
    assert x.shape == (2, 3)
    x.shape = 6
    assert x.shape == (6,)
    f = kiln.zeros((2, 3), order="F", device=device)
    with pytest.raises(AttributeError, match="Incompatible shape"):
        f.shape = (3, 2)


def test_real_and_imag_setters_and_round_out(device):
    """a.real = v and a.imag = v write into the array (imag of a real array is
    refused, as NumPy refuses it); a.round(decimals, out)."""
    z = kiln.zeros(3, dtype="complex128", device=device)
    z.real = kiln.arange(3.0, device=device)
    z.imag = 5
    np.testing.assert_array_equal(z.get(), np.arange(3.0) + 5j)
    r = kiln.zeros(3, device=device)
    r.real = 2
    np.testing.assert_array_equal(r.get(), [2.0, 2.0, 2.0])
    with pytest.raises(TypeError, match="imaginary"):
        r.imag = 1
    out = kiln.empty(4, device=device)
    assert kiln.asarray([0.26, 1.5, -2.25, 3.0], device=device).round(1, out) is out
    np.testing.assert_allclose(out.get(), np.round([0.26, 1.5, -2.25, 3.0], 1))


def test_pickle_round_trip(device):
    """kiln arrays pickle (multiprocessing, Dask) and come back on their device."""
    import pickle

    x = kiln.arange(12.0, device=device).reshape(3, 4).T
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, kiln.ndarray) and y.device == x.device and y.shape == (4, 3) and y.dtype == x.dtype
    np.testing.assert_array_equal(y.get(), x.get())
    z = pickle.loads(pickle.dumps(kiln.asarray(np.complex64(1 + 2j), device=device)))
    assert z.shape == () and complex(z) == 1 + 2j
