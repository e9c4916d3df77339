"""Joining, splitting, rearranging, comparing and NaN-skipping reductions,
against NumPy on every device present."""
import warnings

import numpy as np
import pytest

import kiln

DTYPES = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64"]


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    v = rng.integers(0, 5, shape) if dtype != "bool" else rng.integers(0, 2, shape)
    return v.astype(dtype) if dtype != "complex64" else (v + 1j * v[..., ::-1]).astype(dtype)


def _same(got, want):
    assert isinstance(got, kiln.ndarray)
    g = kiln.asnumpy(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype, want.dtype)
    np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_concatenate_and_stack(device, dtype):
    a, b = _data((2, 3), dtype), _data((4, 3), dtype, 1)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    _same(kiln.concatenate([ka, kb]), np.concatenate([a, b]))
    _same(kiln.concat((ka.T, kb.T), axis=-1), np.concatenate((a.T, b.T), axis=-1))
    _same(kiln.concatenate([ka, kb], axis=None), np.concatenate([a, b], axis=None))
    _same(kiln.stack([ka, ka[::-1]], axis=1), np.stack([a, a[::-1]], axis=1))
    _same(kiln.vstack([ka, kb]), np.vstack([a, b]))
    _same(kiln.hstack([ka[:, 0], kb[:, 1]]), np.hstack([a[:, 0], b[:, 1]]))
    _same(kiln.hstack([ka, ka]), np.hstack([a, a]))
    _same(kiln.dstack([ka, ka]), np.dstack([a, a]))
    _same(kiln.concatenate([ka[:0], kb]), np.concatenate([a[:0], b]))


def test_concatenate_promotes_and_refuses(device):
    i, f = kiln.asarray(np.arange(3, dtype=np.int16), device=device), kiln.ones(2, dtype="float32", device=device)
    _same(kiln.concatenate([i, f]), np.concatenate([np.arange(3, dtype=np.int16), np.ones(2, np.float32)]))
    out = kiln.empty(5, dtype="float64", device=device)
    assert kiln.concatenate([i, f], out=out) is out
    with pytest.raises(ValueError, match="zero-dimensional"):
        kiln.concatenate([kiln.asarray(1.0, device=device)])
    with pytest.raises(ValueError, match="differs"):
        kiln.concatenate([kiln.ones((2, 3), device=device), kiln.ones((2, 4), device=device)])
    with pytest.raises(ValueError, match="same shape"):
        kiln.stack([kiln.ones(2, device=device), kiln.ones(3, device=device)])
    with pytest.raises(TypeError, match="cannot cast"):
        kiln.concatenate([f, f], dtype="int32")
    with pytest.raises(ValueError, match="out of bounds"):
        kiln.concatenate([f, f], axis=1)


def test_atleast_and_split(device):
    x = np.arange(24.0).reshape(4, 6)
    k = kiln.asarray(x, device=device)
    for v in (np.float64(3.0), np.arange(3.0), x):
        kv = kiln.asarray(v, device=device)
        assert kiln.atleast_1d(kv).shape == np.atleast_1d(v).shape
        assert kiln.atleast_2d(kv).shape == np.atleast_2d(v).shape
        assert kiln.atleast_3d(kv).shape == np.atleast_3d(v).shape
    for got, want in zip(kiln.split(k, 3, axis=1), np.split(x, 3, axis=1)):
        _same(got, want)
    for got, want in zip(kiln.array_split(k, 3), np.array_split(x, 3)):
        _same(got, want)
    for got, want in zip(kiln.split(k, [1, 4, 9], axis=1), np.split(x, [1, 4, 9], axis=1)):
        _same(got, want)
    with pytest.raises(ValueError, match="equal division"):
        kiln.split(k, 4, axis=1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_flip_roll_tile_repeat(device, dtype):
    x = _data((3, 4), dtype)
    k = kiln.asarray(x, device=device)
    _same(kiln.flip(k), np.flip(x))
    _same(kiln.flip(k, 1), np.flip(x, 1))
    _same(kiln.fliplr(k), np.fliplr(x))
    _same(kiln.flipud(k), np.flipud(x))
    _same(kiln.roll(k, 2), np.roll(x, 2))
    _same(kiln.roll(k, -1, axis=1), np.roll(x, -1, axis=1))
    _same(kiln.roll(k, (1, 5), axis=(0, 1)), np.roll(x, (1, 5), axis=(0, 1)))
    _same(kiln.tile(k, 2), np.tile(x, 2))
    _same(kiln.tile(k, (2, 1, 3)), np.tile(x, (2, 1, 3)))
    _same(kiln.tile(k[0], (2, 2)), np.tile(x[0], (2, 2)))
    _same(kiln.repeat(k, 3), np.repeat(x, 3))
    _same(kiln.repeat(k, 2, axis=0), np.repeat(x, 2, axis=0))
    _same(kiln.repeat(k, 0, axis=1), np.repeat(x, 0, axis=1))
    counts = list(range(x.shape[1]))
    _same(kiln.repeat(k, counts, axis=1), np.repeat(x, counts, axis=1))
    _same(kiln.repeat(k, kiln.asarray(counts[::-1], device=device), axis=-1), np.repeat(x, counts[::-1], axis=-1))
    _same(kiln.repeat(k, [2], axis=0), np.repeat(x, [2], axis=0))
    with pytest.raises(ValueError, match="broadcast"):
        kiln.repeat(k, [1, 2, 3, 4, 5, 6, 7])
    with pytest.raises(ValueError, match="negative"):
        kiln.repeat(k, [-1] * x.shape[0], axis=0)


@pytest.mark.parametrize("dtype", ["int32", "float64", "bool", "complex64"])
def test_triangles_diff_meshgrid(device, dtype):
    x = _data((2, 4, 5), dtype)
    k = kiln.asarray(x, device=device)
    for kk in (-1, 0, 2):
        _same(kiln.tril(k, kk), np.tril(x, kk))
        _same(kiln.triu(k, kk), np.triu(x, kk))
        _same(kiln.tril(k[0, 0], kk), np.tril(x[0, 0], kk))  # 1-D: rows of copies, as NumPy's
        _same(kiln.triu(k[0, 0], kk), np.triu(x[0, 0], kk))
    _same(kiln.diff(k), np.diff(x))
    _same(kiln.diff(k, n=2, axis=1), np.diff(x, n=2, axis=1))
    if dtype != "bool":
        _same(kiln.diff(k, axis=0, prepend=x[:1].dtype.type(0)), np.diff(x, axis=0, prepend=x[:1].dtype.type(0)))
        _same(kiln.diff(k, append=k[..., :1]), np.diff(x, append=x[..., :1]))
    a, b = np.arange(3.0), np.arange(4, dtype=np.int32)
    for indexing in ("xy", "ij"):
        for sparse in (False, True):
            got = kiln.meshgrid(kiln.asarray(a, device=device), kiln.asarray(b, device=device), indexing=indexing,
                                sparse=sparse)
            for g, w in zip(got, np.meshgrid(a, b, indexing=indexing, sparse=sparse)):
                _same(g, w)


def test_comparisons(device):
    a = np.array([1.0, np.nan, np.inf, -np.inf, 1e-9, 1.0])
    b = np.array([1.0 + 1e-7, np.nan, np.inf, np.inf, 0.0, 1.1])
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    for equal_nan in (False, True):
        _same(kiln.isclose(ka, kb, equal_nan=equal_nan), np.isclose(a, b, equal_nan=equal_nan))
    _same(kiln.isclose(ka, kb, rtol=0.2, atol=0), np.isclose(a, b, rtol=0.2, atol=0))
    i = kiln.asarray(np.arange(4), device=device)
    _same(kiln.isclose(i, i + 1, atol=1), np.isclose(np.arange(4), np.arange(4) + 1, atol=1))
    assert kiln.allclose(ka[:1], kb[:1]) and not kiln.allclose(ka, kb)
    assert kiln.array_equal(ka, ka) is False and kiln.array_equal(ka, ka, equal_nan=True) is True
    assert kiln.array_equal(i, i) and not kiln.array_equal(i, i[:3])
    assert kiln.array_equiv(i[:1], kiln.zeros((3, 1), dtype="int64", device=device)) is True
    assert kiln.array_equiv(i, i[:2]) is False


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_nan_reductions(device, dtype):
    x = np.arange(12, dtype=dtype).reshape(3, 4)
    if dtype != "int32":
        x[0, 1] = x[2, 3] = np.nan
        x[1, :] = np.nan  # an all-NaN row
    k = kiln.asarray(x, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns about the all-NaN row
        for fn in ("nansum", "nanprod", "nanmean", "nanmax", "nanmin"):
            for axis in (None, 0, 1):
                want = getattr(np, fn)(x, axis=axis)
                got = kiln.asnumpy(getattr(kiln, fn)(k, axis=axis))
                np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{fn} axis={axis}")
    for fn in ("nanargmax", "nanargmin"):
        _same(getattr(kiln, fn)(k, axis=0), getattr(np, fn)(x, axis=0))
        if dtype != "int32":
            with pytest.raises(ValueError, match="All-NaN"):
                getattr(kiln, fn)(k, axis=1)
        else:
            _same(getattr(kiln, fn)(k, axis=1), getattr(np, fn)(x, axis=1))


def test_numpy_functions_now_dispatch_to_these(device):
    k = kiln.asarray(np.arange(6.0), device=device)
    got = np.concatenate([k, k])
    assert isinstance(got, kiln.ndarray) and got.device == device and got.shape == (12,)
    assert isinstance(np.flip(k), kiln.ndarray) and isinstance(np.nanmax(k), kiln.ndarray)
    assert np.allclose(k, k) is True


@pytest.mark.parametrize("mode", ["constant", "edge", "wrap", "reflect", "symmetric"])
@pytest.mark.parametrize("width", [2, (1, 3), ((0, 2), (5, 1)), ((7, 9), (1, 0))])
def test_pad_matches_numpy(device, mode, width):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    got = kiln.pad(kiln.asarray(x, device=device), width, mode=mode)
    _same(got, np.pad(x, width, mode=mode))


def test_pad_constant_values_and_errors(device):
    x = np.arange(6, dtype=np.int16).reshape(2, 3)
    k = kiln.asarray(x, device=device)
    _same(kiln.pad(k, 1, constant_values=7), np.pad(x, 1, constant_values=7))
    _same(kiln.pad(k, ((1, 2), (0, 1)), constant_values=((1, 2), (3, 4))),
          np.pad(x, ((1, 2), (0, 1)), constant_values=((1, 2), (3, 4))))
    _same(kiln.pad(k[:, :1], (0, 4), mode="reflect"), np.pad(x[:, :1], (0, 4), mode="reflect"))
    with pytest.raises(ValueError, match="negative"):
        kiln.pad(k, -1)
    with pytest.raises(ValueError, match="empty axis"):
        kiln.pad(k[:0], 1, mode="edge")
    with pytest.raises(ValueError, match="not supported"):
        kiln.pad(k, 1, mode="spiral")
    with pytest.raises(ValueError, match="keyword"):
        kiln.pad(k, 1, mode="edge", constant_values=3)
    with pytest.raises(TypeError, match="integral"):
        kiln.pad(k, 1.5)


@pytest.mark.parametrize("dtype", ["int16", "float32", "float64"])
def test_pad_statistic_ramp_and_odd_modes(device, dtype):
    """NumPy's other modes: maximum/minimum/mean/median over stat_length
    (integer means rounded), linear_ramp to end_values, odd reflections past
    the array's length, empty, and a Python function."""
    x = (np.arange(20).reshape(4, 5) * 7 % 11).astype(dtype)
    k = kiln.asarray(x, device=device)
    cases = [("maximum", {}), ("minimum", {"stat_length": 2}), ("mean", {"stat_length": ((1, 3), (2, 2))}),
             ("median", {}), ("linear_ramp", {"end_values": (-4, 9)}), ("reflect", {"reflect_type": "odd"}),
             ("symmetric", {"reflect_type": "odd"}), ("reflect", {}), ("wrap", {})]
    for mode, kwargs in cases:
        for width in (2, ((1, 7), (6, 0))):
            got, want = kiln.pad(k, width, mode=mode, **kwargs), np.pad(x, width, mode=mode, **kwargs)
            assert got.dtype == want.dtype  # ramps and means may round differently in the last bit
            np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=1e-6 if dtype == "float32" else 1e-12)
    _same(kiln.pad(k, 2, mode="empty")[2:-2, 2:-2], x)

    def tens(vector, width, axis, kwargs):
        vector[:width[0]] = 10
        vector[vector.shape[0] - width[1]:] = 10

    _same(kiln.pad(k, (1, 2), tens), np.pad(x, (1, 2), tens))


@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "int64", "complex128"])
def test_take_matches_numpy(device, dtype):
    x = _data((3, 4, 5), dtype) if dtype != "complex128" else (np.arange(60) * (1 + 2j)).reshape(3, 4, 5)
    k = kiln.asarray(x, device=device)
    for indices, axis in (([2, 0, -1], 2), ([[1, 1], [0, 2]], 1), ([0], 0), ([59, -60, 7], None), ([], 1),
                          (np.int64(3), 1)):
        _same(kiln.take(k, kiln.asarray(np.asarray(indices, dtype=np.int64), device=device), axis=axis),
              np.take(x, indices, axis=axis))
    _same(kiln.take(k[:, ::2], kiln.asarray(np.array([1, 0]), device=device), axis=1), np.take(x[:, ::2], [1, 0], 1))
    for mode in ("wrap", "clip"):
        _same(kiln.take(k, kiln.asarray(np.array([7, -9, 2]), device=device), axis=1, mode=mode),
              np.take(x, [7, -9, 2], axis=1, mode=mode))
    out = kiln.empty((3, 2, 5), dtype=dtype, device=device)
    assert kiln.take(k, kiln.asarray(np.array([3, 1]), device=device), axis=1, out=out) is out
    _same(out, np.take(x, [3, 1], axis=1))
    _same(k.take(kiln.asarray(np.array([0, 2]), device=device)), x.take([0, 2]))


def test_take_errors_and_take_along_axis(device):
    x = np.arange(24.0).reshape(2, 3, 4)
    k = kiln.asarray(x, device=device)
    with pytest.raises(IndexError, match="out of bounds"):
        kiln.take(k, kiln.asarray(np.array([3]), device=device), axis=1)
    with pytest.raises(IndexError, match="out of bounds"):
        kiln.take(k, kiln.asarray(np.array([-4]), device=device), axis=1)
    with pytest.raises(TypeError, match="integers"):
        kiln.take(k, kiln.asarray(np.array([1.0]), device=device))
    order = np.argsort(-x, axis=1)
    _same(kiln.take_along_axis(k, kiln.asarray(order, device=device), 1), np.take_along_axis(x, order, 1))
    pick = np.array([[[0, 3]], [[-1, 1]]])
    _same(kiln.take_along_axis(k, kiln.asarray(pick, device=device), 2), np.take_along_axis(x, pick, 2))
    _same(kiln.take_along_axis(k, kiln.asarray(np.array([[[2]]]), device=device), 1),
          np.take_along_axis(x, np.array([[[2]]]), 1))
    with pytest.raises(ValueError, match="same number of dimensions"):
        kiln.take_along_axis(k, kiln.asarray(np.array([0]), device=device), 1)
    with pytest.raises(IndexError, match="out of bounds"):
        kiln.take_along_axis(k, kiln.asarray(np.array([[[5]]]), device=device), 2)
