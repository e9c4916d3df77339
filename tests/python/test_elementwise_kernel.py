"""CuPy's ElementwiseKernel on every device present, compared with NumPy."""
import numpy as np
import pytest

import kiln
from conftest import random_array, tolerance

SUPPORTED = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
             "float32", "float64", "complex64", "complex128"]


def squared_diff():
    return kiln.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")


def test_fixed_types_broadcast_with_arrays_and_scalars(device):
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    y = np.arange(5, dtype=np.float32)
    kx, ky = kiln.asarray(x, device=device), kiln.asarray(y, device=device)
    kernel = squared_diff()
    np.testing.assert_array_equal(kiln.asnumpy(kernel(kx, ky)), (x - y) ** 2)
    np.testing.assert_array_equal(kiln.asnumpy(kernel(kx, 5)), (x - 5) ** 2)
    z = kiln.empty((2, 5), dtype="float32", device=device)
    assert kernel(kx, ky, z) is z
    np.testing.assert_array_equal(kiln.asnumpy(z), (x - y) ** 2)
    z2 = kiln.empty((2, 5), dtype="float32", device=device)
    assert kernel(kx, ky, out=z2) is z2
    np.testing.assert_array_equal(kiln.asnumpy(z2), (x - y) ** 2)
    # Inputs of another dtype are converted to the declared type as they are read.
    np.testing.assert_array_equal(kiln.asnumpy(kernel(kiln.asarray(x.astype(np.int64), device=device), ky)),
                                  (x - y) ** 2)


@pytest.mark.parametrize("dtype", SUPPORTED)
def test_type_placeholders_over_every_dtype(device, dtype):
    rng = np.random.default_rng(1)
    x, y = random_array((3, 4), dtype, rng), random_array((4,), dtype, rng)
    kernel = kiln.ElementwiseKernel("T x, T y", "T z", "z = x * y + x", "mul_add")
    got = kernel(kiln.asarray(x, device=device), kiln.asarray(y, device=device))
    assert got.dtype == dtype
    expected = (x * y + x).astype(dtype) if dtype != "bool" else (x & y) | x
    # NVRTC contracts x * y + x into one fused multiply-add, as CuPy's kernels
    # do; float16 rounds once (through float), NumPy twice.
    np.testing.assert_allclose(kiln.asnumpy(got), expected, rtol=tolerance(dtype) * (4 if dtype == "float16" else 1))


def test_placeholders_in_preamble_and_loop_prep(device):
    """CuPy binds the type placeholders before the preamble, so helpers there use them."""
    kernel = kiln.ElementwiseKernel("T x", "T y", "y = twice(x) + offset", "with_helper",
                                    preamble="__device__ T twice(T v) { return v + v; }",
                                    loop_prep="const T offset = T(1)")
    for dtype in ("int16", "float32", "complex128"):
        x = np.arange(6).astype(dtype)
        np.testing.assert_array_equal(kiln.asnumpy(kernel(kiln.asarray(x, device=device))), 2 * x + 1)


def test_complex_and_float16_math_and_scalars(device):
    """complex<T> with std::complex's functions and float16 arithmetic, with
    NumPy scalars of those types as arguments."""
    rng = np.random.default_rng(5)
    z = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype(np.complex64)
    kernel = kiln.ElementwiseKernel("T z, T c", "T y, float32 m",
                                    "y = exp(c * z) + conj(z) * real(z); m = abs(z)", "complex_math")
    y, m = kernel(kiln.asarray(z, device=device), np.complex64(0.5 - 0.25j))
    np.testing.assert_allclose(kiln.asnumpy(y), np.exp(np.complex64(0.5 - 0.25j) * z) + np.conj(z) * z.real,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(kiln.asnumpy(m), np.abs(z), rtol=1e-6)
    h = rng.uniform(-4, 4, 40).astype(np.float16)
    scaled = kiln.ElementwiseKernel("float16 x, float16 s", "float16 y", "y = x * s; y += 1", "half_math")
    got = scaled(kiln.asarray(h, device=device), np.float16(0.5))
    assert got.dtype == "float16"
    np.testing.assert_allclose(kiln.asnumpy(got), h * np.float16(0.5) + np.float16(1), rtol=2e-3)


@pytest.mark.parametrize("reduce_dims", [True, False])
def test_views_zero_d_and_empty(device, reduce_dims):
    rng = np.random.default_rng(2)
    kernel = kiln.ElementwiseKernel("T x, T y", "T z", "z = x - 2 * y", "views", reduce_dims=reduce_dims)
    base = random_array((6, 8, 4), "float64", rng)
    k = kiln.asarray(base, device=device)
    got = kernel(k[::2, 1::3].transpose(1, 0, 2), k[1, ::-3][:, None, :])
    expected = base[::2, 1::3].transpose(1, 0, 2) - 2 * base[1, ::-3][:, None, :]
    np.testing.assert_array_equal(kiln.asnumpy(got), expected)
    zero_d = kernel(kiln.asarray(np.float64(3.0), device=device), kiln.asarray(np.float64(1.0), device=device))
    assert zero_d.shape == () and float(kiln.asnumpy(zero_d)) == 1.0
    empty = kernel(kiln.zeros((0, 3), dtype="float64", device=device), kiln.zeros(3, dtype="float64", device=device))
    assert empty.shape == (0, 3)


def test_raw_parameters_index_and_size(device):
    x = np.arange(7, dtype=np.float32)
    kx = kiln.asarray(x, device=device)
    reverse = kiln.ElementwiseKernel("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse")
    np.testing.assert_array_equal(kiln.asnumpy(reverse(kx, kx)), x + x[::-1])
    # A raw view is indexed in C order through its strides.
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    km = kiln.asarray(m, device=device)
    gather = kiln.ElementwiseKernel("raw T m", "T z", "z = m[i] + n", "gather")
    np.testing.assert_array_equal(kiln.asnumpy(gather(km.T, size=12)), m.T.ravel() + 12)
    with pytest.raises(ValueError, match="size= is only for kernels whose arrays are all raw"):
        reverse(kx, kx, size=7)
    with pytest.raises(ValueError, match="loop size is undecided"):
        gather(km)


def test_preamble_loop_prep_after_loop_and_several_outputs(device):
    kernel = kiln.ElementwiseKernel(
        "T x, raw int32 flag", "T lo, T hi",
        "lo = clamp_to(x - offset, 0); hi = clamp_to(x + offset, 10)", "bounds",
        preamble="template <class U> __device__ U clamp_to(U v, U edge) { return v < edge ? edge : v; }",
        loop_prep="const T offset = 3;",
        after_loop="if (blockIdx.x == 0 && threadIdx.x == 0) flag[0] = 1;")
    x = np.arange(10, dtype=np.int32)
    flag = kiln.zeros(1, dtype="int32", device=device)
    lo, hi = kernel(kiln.asarray(x, device=device), flag)
    np.testing.assert_array_equal(kiln.asnumpy(lo), np.maximum(x - 3, 0))
    np.testing.assert_array_equal(kiln.asnumpy(hi), np.maximum(x + 3, 10))
    assert int(kiln.asnumpy(flag)[0]) == 1
    single = kiln.ElementwiseKernel("T x", "T y", "y = x", "copy_tuple", return_tuple=True)
    assert isinstance(single(kiln.asarray(x, device=device)), tuple)
    silent = kiln.ElementwiseKernel("T x", "T y", "y = x", "copy_none", no_return=True)
    assert silent(kiln.asarray(x, device=device)) is None


def test_bad_calls_raise_clear_errors(device):
    kernel = squared_diff()
    x = kiln.zeros((2, 5), dtype="float32", device=device)
    with pytest.raises(TypeError, match="squared_diff takes 2 or 3 arguments, got 1"):
        kernel(x)
    with pytest.raises(ValueError, match="could not be broadcast"):
        kernel(x, kiln.zeros(3, dtype="float32", device=device))
    with pytest.raises(ValueError, match="output 'z' has shape"):
        kernel(x, x, kiln.zeros(5, dtype="float32", device=device))
    with pytest.raises(TypeError, match="output 'z' is float64"):
        kernel(x, x, kiln.zeros((2, 5), dtype="float64", device=device))
    generic = kiln.ElementwiseKernel("T x, T y", "T z", "z = x + y", "generic_add")
    with pytest.raises(TypeError, match="placeholder T is float32 from an earlier argument but 'y' is int32"):
        generic(x, kiln.zeros(5, dtype="int32", device=device))
    with pytest.raises(ValueError, match="reserved"):
        kiln.ElementwiseKernel("T i", "T z", "z = i", "reserved")
    broken = kiln.ElementwiseKernel("T x", "T y", "y = x +* ;", "broken")
    with pytest.raises(kiln.CompileError, match=r"y = x \+\* ;"):
        broken(x)
