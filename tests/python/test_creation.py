"""Creation functions against NumPy; zero-copy asarray."""
import array as pyarray

import numpy as np
import pytest

import kiln
from conftest import ALL_DTYPES, assert_matches


@pytest.mark.parametrize("dtype", ALL_DTYPES + [None])
def test_empty_zeros_ones_full(dtype, device):
    for shape in ((2, 3), 4, (), (0, 5)):
        assert kiln.empty(shape, dtype=dtype, device=device).shape == np.empty(shape).shape
        assert_matches(kiln.zeros(shape, dtype=dtype, device=device), np.zeros(shape, dtype=dtype))
        assert_matches(kiln.ones(shape, dtype=dtype, device=device), np.ones(shape, dtype=dtype))
        assert_matches(kiln.full(shape, 3, dtype=dtype, device=device), np.full(shape, 3, dtype=dtype))
    a = kiln.ones((2, 3), dtype=dtype, device=device)
    for fn, nfn in ((kiln.zeros_like, np.zeros_like), (kiln.ones_like, np.ones_like)):
        assert_matches(fn(a), nfn(np.ones((2, 3), dtype=dtype)))
    assert_matches(kiln.full_like(a, 1), np.full_like(np.ones((2, 3), dtype=dtype), 1))
    assert kiln.empty_like(a, dtype="int8").dtype == kiln.int8


def test_full_value_types(device):
    for value in (True, 7, 2.5, 1 + 2j, np.float32(1.5), np.int8(-3)):
        assert_matches(kiln.full((2,), value, device=device), np.full((2,), value))
    assert_matches(kiln.full((2, 2), kiln.asarray([1.0, 2.0]), device=device), np.full((2, 2), [1.0, 2.0]))
    with pytest.raises(OverflowError):
        kiln.full(3, 300, dtype="int8")
    with pytest.raises(ValueError, match="negative"):
        kiln.zeros((2, -1))
    with pytest.raises(TypeError, match="shape"):
        kiln.zeros("abc")


@pytest.mark.parametrize("args,dtype", [((10,), None), ((2, 11, 3), None), ((5, -7, -2), None), ((0.5, 3.2, 0.3), None),
                                        ((10,), "float32"), ((1, 20, 4), "int8"), ((0,), None), ((3, 1), None),
                                        ((-2.5, 2.5, 0.5), "float16"), ((5,), "uint16")])
def test_arange(args, dtype, device):
    assert_matches(kiln.arange(*args, dtype=dtype, device=device), np.arange(*args, dtype=dtype))
    with pytest.raises(ValueError, match="step"):
        kiln.arange(0, 5, 0)


@pytest.mark.parametrize("start,stop,num,endpoint,dtype", [(0, 1, 5, True, None), (-3, 7, 50, False, None),
                                                          (2, 2, 1, True, None), (0, 10, 0, True, None),
                                                          (0, 1, 7, True, "float32"), (0, 10, 6, True, "int32"),
                                                          (1, -1, 4, False, "float16"), (0, 1, 5, True, "bool"),
                                                          (-2.5, 1, 5, True, "int32")])
def test_linspace(start, stop, num, endpoint, dtype, device):
    assert_matches(kiln.linspace(start, stop, num, endpoint=endpoint, dtype=dtype, device=device),
                   np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype))


@pytest.mark.parametrize("args", [(0, 2), (10, 11), (1, 0, -1), (0, 1, 0.5), (5, 5), (0, 3), (0, 1.5, 0.5)])
def test_arange_of_booleans_takes_numpys_first_two_values(args, device):
    # NumPy casts the first two values and refuses a longer range.
    if np.ceil((args[1] - args[0]) / (args[2] if len(args) > 2 else 1)) > 2:
        with pytest.raises(TypeError, match="at most length 2"):
            kiln.arange(*args, dtype=bool, device=device)
        with pytest.raises(TypeError, match="at most length 2"):
            np.arange(*args, dtype=bool)
    else:
        assert_matches(kiln.arange(*args, dtype=bool, device=device), np.arange(*args, dtype=bool))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint32", "complex64", "complex128"])
@pytest.mark.parametrize("axis", [0, 1])
def test_linspace_and_logspace_of_arrays_compute_in_numpys_dtype(dtype, axis, device):
    # The computation dtype is the inputs' with a weak float, so float16 and
    # float32 samples are computed in their own precision; a Python base of
    # logspace is weak too. Bit for bit NumPy's.
    start, stop = np.array([0, 3], dtype), np.array([2, 0], dtype)
    ks, kt = kiln.asarray(start, device=device), kiln.asarray(stop, device=device)
    assert_matches(kiln.linspace(ks, kt, 7, axis=axis), np.linspace(start, stop, 7, axis=axis), rtol=0)
    assert_matches(kiln.linspace(ks, kt, 50, dtype=dtype), np.linspace(start, stop, 50, dtype=dtype), rtol=0)
    if dtype[0] != "c":
        assert_matches(kiln.logspace(ks, kt, 5, axis=axis), np.logspace(start, stop, 5, axis=axis))
        assert_matches(kiln.logspace(ks, kt, 5, base=2, dtype="float64"),
                       np.logspace(start, stop, 5, base=2, dtype="float64"))


def test_linspace_over_subnormals_scales_by_the_range(device):
    # The step underflows to zero; NumPy then scales arange(num) / div by
    # the range, which reaches the subnormals in between.
    tiny = np.nextafter(0.0, 1.0)
    want = np.linspace(0.0, tiny * 4, 10)
    assert np.count_nonzero(want) > 1
    assert_matches(kiln.linspace(0.0, tiny * 4, 10, device=device), want, rtol=0)
    arrays = (np.array([0.0, 0.0]), np.array([tiny * 4, 1.0]))
    assert_matches(kiln.linspace(*(kiln.asarray(a, device=device) for a in arrays), 10), np.linspace(*arrays, 10),
                   rtol=0)


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (4, 6, 1), (5, 3, -2), (0, None, 0), (3, 3, 5)])
def test_eye(n, m, k, device):
    assert_matches(kiln.eye(n, m, k=k, device=device), np.eye(n, m, k=k))
    assert_matches(kiln.eye(n, m, k=k, dtype="int16", device=device), np.eye(n, m, k=k, dtype="int16"))


def test_asarray_numpy_is_zero_copy(device):
    x = np.arange(12.0).reshape(3, 4)[:, ::2]
    k = kiln.asarray(x)
    assert k._data_ptr == x.__array_interface__["data"][0]
    assert k.strides == x.strides
    x[0, 0] = 42.0
    assert float(k[0, 0]) == 42.0
    c = kiln.asarray(x, copy=True)
    x[0, 0] = 1.0
    assert float(c[0, 0]) == 42.0
    with pytest.raises(ValueError, match="copy"):
        kiln.asarray(x, dtype="float32", copy=False)


def test_asarray_readonly_and_byteswapped():
    x = np.arange(4.0)
    x.flags.writeable = False
    k = kiln.asarray(x)
    assert not k.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        k[0] = 1
    y = np.arange(4, dtype=">i4")
    assert_matches(kiln.asarray(y), y.astype("<i4"))


def test_asarray_sources(device):
    assert_matches(kiln.asarray([[1, 2], [3, 4]], device=device), np.asarray([[1, 2], [3, 4]]))
    assert_matches(kiln.asarray([1.5, 2], device=device), np.asarray([1.5, 2]))
    assert_matches(kiln.asarray(3, device=device), np.asarray(3))
    assert_matches(kiln.asarray(2.5 + 1j, device=device), np.asarray(2.5 + 1j))
    assert_matches(kiln.asarray(True, device=device), np.asarray(True))
    assert_matches(kiln.asarray(pyarray.array("f", [1, 2, 3])), np.asarray(pyarray.array("f", [1, 2, 3])))
    assert_matches(kiln.asarray(memoryview(b"\x01\x02")), np.asarray(memoryview(b"\x01\x02")))
    assert_matches(kiln.asarray([kiln.asarray(1.0), 2.0]), np.asarray([1.0, 2.0]))
    assert_matches(kiln.array([1, 2], dtype="float32"), np.array([1, 2], dtype="float32"))
    k = kiln.asarray([1, 2])
    assert kiln.asarray(k) is k
    assert kiln.array(k) is not k
    assert_matches(kiln.copy(k), np.array([1, 2]))
    with pytest.raises(TypeError, match="obj"):
        kiln.asarray(["a", "b"])
    with pytest.raises(TypeError, match="obj"):
        kiln.asarray([[1], [2, 3]])


def test_asarray_moves_and_converts_a_kiln_array_at_once(device):
    """Another device and another dtype: one conversion, no refusal."""
    a = kiln.asarray(np.arange(4, dtype=np.float32), device="cpu")
    b = kiln.asarray(a, dtype="float64", device=device)
    assert b.dtype == kiln.float64 and b.device == device
    np.testing.assert_array_equal(kiln.asnumpy(b), [0, 1, 2, 3])
    c = kiln.asarray(a, device=device, copy=True)
    assert not c._shares_memory_buffer(a)


@pytest.mark.parametrize("make", ["real", "stride", "transposed", "scalar"])
def test_layout_conversions_copy_what_is_not_laid_out(device, make):
    """ascontiguousarray/asfortranarray/asarray(order=) copy a view exactly
    when it is not laid out as asked (a strided 1-D view included), as NumPy."""
    base = np.arange(24, dtype=np.complex128).reshape(4, 6)
    x = {"real": base.real[1], "stride": base[:, ::2][0], "transposed": base.T, "scalar": base[0, 0]}[make]
    k = kiln.asarray(base, device=device)
    k = {"real": k.real[1], "stride": k[:, ::2][0], "transposed": k.T, "scalar": k[0, 0]}[make]
    for kf, nf, flag in ((kiln.ascontiguousarray, np.ascontiguousarray, "c_contiguous"),
                         (kiln.asfortranarray, np.asfortranarray, "f_contiguous")):
        got, want = kf(k), nf(x)
        assert getattr(got.flags, flag) and got.shape == want.shape
        np.testing.assert_array_equal(kiln.asnumpy(got), want)
    assert kiln.asarray(k, order="C").flags.c_contiguous == np.asarray(x, order="C").flags.c_contiguous
