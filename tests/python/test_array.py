"""ndarray: views, indexing, assignment, Python protocols, errors."""
import copy as pycopy
import math

import numpy as np
import pytest

import kiln
from conftest import ALL_DTYPES, assert_matches, random_array

INDICES = [
    (1,), (-1,), (slice(None, None, -1),), (slice(1, 5, 2),), (slice(-2, None),), (slice(5, 1, -2),),
    (Ellipsis, 0), (None,), (1, None, Ellipsis, None), (slice(None), 2), (0, 1, 2), (slice(10, 20),),
    (slice(None, None, 3), Ellipsis, slice(None, None, -1)), (), (Ellipsis,), (-4, slice(None), -1),
]


@pytest.mark.parametrize("index", INDICES)
def test_basic_indexing_views(index, device, rng):
    x = random_array((4, 5, 6), "float32", rng)
    k = kiln.asarray(x, device=device)
    result = k[index]
    assert_matches(result, x[index])
    assert result._shares_memory_buffer(k)


@pytest.mark.parametrize("index", INDICES)
def test_setitem(index, device, rng):
    x = random_array((4, 5, 6), "int32", rng)
    k = kiln.asarray(x.copy(), device=device)
    k[index] = 7
    x[index] = 7
    assert_matches(k, x)
    value = random_array(np.shape(x[index])[-1:], "float64", rng)
    k[index] = kiln.asarray(value)
    x[index] = value
    assert_matches(k, x)
    # NumPy drops a value's leading unit dimensions beyond the destination's
    # (not for a single element, which NumPy 2 fills from scalars only)
    if np.ndim(x[index]):
        value = random_array((1, 1) + np.shape(x[index]), "float64", rng)
        k[index] = kiln.asarray(value)
        x[index] = value
        assert_matches(k, x)


def test_index_errors(device):
    k = kiln.ones((2, 3), device=device)
    with pytest.raises(IndexError, match="out of bounds"):
        k[2]
    with pytest.raises(IndexError, match="too many indices"):
        k[0, 0, 0]
    with pytest.raises(IndexError, match="ellipsis"):
        k[..., ...]
    with pytest.raises(IndexError):
        k["a"]
    with pytest.raises(IndexError, match="out of bounds"):
        k[kiln.asarray([0, 2])] = 1.0  # array indices: test_advanced_indexing.py
    with pytest.raises(ValueError, match="step"):
        k[::0]
    with pytest.raises(ValueError, match="broadcast"):
        k[0] = kiln.ones(4)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_views_and_copies(dtype, device, rng):
    x = random_array((3, 4, 5), dtype, rng)
    k = kiln.asarray(x, device=device)
    assert_matches(k.reshape(12, 5), x.reshape(12, 5))
    assert_matches(k.reshape((-1,)), x.reshape(-1))
    assert k.reshape(60)._shares_memory_buffer(k)
    assert_matches(k.T, x.T)
    assert_matches(k.mT, np.swapaxes(x, -1, -2))
    assert_matches(k.transpose(1, 0, 2), x.transpose(1, 0, 2))
    assert_matches(kiln.permute_dims(k, (2, 0, 1)), np.permute_dims(x, (2, 0, 1)))
    assert_matches(k.T.reshape(-1), x.T.reshape(-1))  # needs a copy
    assert_matches(kiln.broadcast_to(k[:, :1], (3, 4, 5)), np.broadcast_to(x[:, :1], (3, 4, 5)))
    assert_matches(kiln.expand_dims(k, axis=(0, 2)), np.expand_dims(x, axis=(0, 2)))
    assert_matches(kiln.squeeze(k[:1, :, None]), np.squeeze(x[:1, :, None]))
    assert_matches(kiln.squeeze(k[:1], axis=0), np.squeeze(x[:1], axis=0))
    assert_matches(k.ravel(), x.ravel())
    assert_matches(k[::-1].flatten(), x[::-1].flatten())
    assert_matches(kiln.moveaxis(k, 0, -1), np.moveaxis(x, 0, -1))
    assert_matches(kiln.swapaxes(k, 0, 2), np.swapaxes(x, 0, 2))
    assert_matches(k.copy(), x.copy())
    assert not k.copy()._shares_memory_buffer(k)
    assert_matches(k.real, np.real(x))
    assert_matches(k.imag, np.imag(x))
    for target in ("float32", "int16", "complex128", "bool"):
        with np.errstate(all="ignore"):
            expected = x.astype(target)
        if x.dtype.kind == "c" and target not in ("complex128", "bool"):
            expected = x.real.astype(target)
        assert_matches(k.astype(target), expected)
    b = kiln.broadcast_arrays(k[:, :1], k[0])
    assert [a.shape for a in b] == [(3, 4, 5), (3, 4, 5)]


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "int64", "complex128"])
def test_two_dimensional_copies_and_transposes(dtype, device, rng):
    """Copies whose input and output run along different axes (tiled
    transposes on a GPU), two-dimensional strided and broadcast operands
    (a row of threads a row), tiles cut by the edges, reversed and stepped
    views, transposing casts and outputs that run down their columns."""
    for shape in [(1, 300), (300, 1), (31, 33), (64, 64), (129, 257), (1000, 130), (3, 5000)]:
        x = random_array(shape, dtype, rng)
        k = kiln.asarray(x, device=device)
        assert_matches(k.T.copy(), x.T.copy())
        assert_matches(k[::-1, ::2].T.copy(), x[::-1, ::2].T.copy())
        assert_matches(k.T.astype("float64"), x.T.astype("float64"))
        assert_matches(kiln.ascontiguousarray(k.T), np.ascontiguousarray(x.T))
        out = kiln.empty(shape[::-1], dtype=dtype, device=device)
        out.T[...] = k  # the output runs down its columns, the input along its rows
        assert_matches(out, x.T)
    v = random_array(200, dtype, rng)
    kv = kiln.asarray(v, device=device)
    with np.errstate(all="ignore"):
        assert_matches(kv[:, None] + kv[None, :], v[:, None] + v[None, :])
        assert_matches(kv[:50, None] * kv[None, ::-2], v[:50, None] * v[None, ::-2])
        assert_matches(kv[:, None] * kv[None, :7], v[:, None] * v[None, :7])  # short rows
    filled = kiln.zeros((300, 200), dtype=dtype, device=device)
    filled[::2, 1::3] = 1
    want = np.zeros((300, 200), dtype=dtype)
    want[::2, 1::3] = 1
    assert_matches(filled, want)


def test_reshape_errors(device):
    k = kiln.ones(6, device=device)
    with pytest.raises(ValueError, match="reshape"):
        k.reshape(4)
    with pytest.raises(ValueError, match="unknown"):
        k.reshape(-1, -1)
    with pytest.raises(ValueError, match="squeeze"):
        kiln.squeeze(k, axis=0)
    with pytest.raises(ValueError, match="broadcast"):
        kiln.broadcast_to(k, (4,))
    with pytest.raises(ValueError, match="copy=False"):
        kiln.reshape(kiln.ones((2, 3)).T, (6,), copy=False)
    with pytest.raises(ValueError, match="axes"):
        k.reshape(2, 3).transpose(0, 0)


def test_flags_and_properties(device):
    k = kiln.zeros((3, 4), dtype="float32", device=device)
    assert k.flags.c_contiguous and not k.flags.f_contiguous and k.flags["C_CONTIGUOUS"]
    assert k.T.flags.f_contiguous and not k.T.flags.c_contiguous
    assert (k.ndim, k.size, k.itemsize, k.nbytes, k.shape, k.strides) == (2, 12, 4, 48, (3, 4), (16, 4))
    assert k.device == device and str(k.device) == str(device)
    assert k.to_device(device) is k


def test_python_protocols(device):
    k = kiln.asarray(np.arange(6.0).reshape(2, 3), device=device)
    assert len(k) == 2
    assert [r.tolist() for r in k] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert k.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    s = k[1, 2]
    assert s.ndim == 0 and float(s) == 5.0 and int(s) == 5 and complex(s) == 5 + 0j and bool(s)
    assert s.item() == 5.0 and isinstance(s.item(), float)
    assert kiln.asarray(7).item() == 7 and isinstance(kiln.asarray(7).item(), int)
    assert kiln.asarray(True).item() is True
    assert [10, 20, 30][kiln.asarray(1)] == 20
    assert math.isclose(float(kiln.asarray(np.float32(0.1))), 0.1, rel_tol=1e-6)
    assert f"{s:.1f}" == "5.0"
    assert str(k) == str(np.arange(6.0).reshape(2, 3))
    if device.type == "cpu":
        assert repr(k) == repr(np.arange(6.0).reshape(2, 3))
        assert repr(kiln.ones(2, dtype="float32")) == "array([1., 1.], dtype=float32)"
        np.testing.assert_array_equal(np.asarray(k), np.arange(6.0).reshape(2, 3))
        assert np.asarray(k).__array_interface__["data"][0] == k._data_ptr  # zero-copy export
        np.testing.assert_array_equal(np.array(k, dtype="int32"), np.arange(6).reshape(2, 3))
    else:
        assert repr(k).endswith(f", device='{device}')")
        with pytest.raises(TypeError, match="asnumpy"):
            np.asarray(k)  # as CuPy: no implicit copy to the host
    host = k.get()
    host[0, 0] = 99
    assert float(k[0, 0]) == 0.0  # get() copies
    np.testing.assert_array_equal(kiln.asnumpy(k), np.arange(6.0).reshape(2, 3))
    assert pycopy.deepcopy(k).tolist() == k.tolist()
    assert kiln.get_array_module(k) is kiln and kiln.get_array_module(np.ones(1)) is np
    with pytest.raises(TypeError, match="unsized"):
        len(kiln.asarray(1.0))
    with pytest.raises(TypeError, match="0-d"):
        iter(kiln.asarray(1.0))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(k)
    with pytest.raises(TypeError, match="size-1"):
        float(k)
    with pytest.raises(TypeError, match="integer"):
        [1, 2][kiln.asarray(1.0)]


@pytest.mark.parametrize("dtype", ["float16", "complex64", "bool", "uint64", "int8"])
def test_item_and_numpy_export_every_dtype(dtype, device, rng):
    x = random_array((3,), dtype, rng)
    k = kiln.asarray(x, device=device)
    np.testing.assert_array_equal(kiln.asnumpy(k), x)
    assert k[1].item() == x[1].item()
    assert k.tolist() == x.tolist()


def test_fill_and_methods(device):
    k = kiln.empty((2, 2), dtype="int32", device=device)
    k.fill(3)
    assert k.tolist() == [[3, 3], [3, 3]]
    k[0] = 1.9  # unsafe cast, as NumPy's assignment does
    assert k.tolist() == [[1, 1], [3, 3]]
    assert k.view("uint32").dtype == kiln.uint32
    with pytest.raises(ValueError, match="itemsize"):
        k.view("int8")
    with pytest.raises(TypeError, match="casting"):
        k.astype("int8", casting="safe")


def test_devices_that_do_not_exist():
    with pytest.raises((kiln.cuda.CUDAError, ValueError), match="CUDA"):
        kiln.zeros(3, device="cuda:99")
    with pytest.raises(ValueError, match="device"):
        kiln.Device("gpu")
    with pytest.raises(TypeError, match="device"):
        kiln.zeros(3, device=0)
