"""PyCUDA's array layer as kiln offers it (kiln.pycuda.gpuarray, cumath, elementwise,
reduction, scan, curandom, tools, characterize), against NumPy, on every
device: the `current` fixture makes the device the one PyCUDA code reaches."""
import numpy as np
import pytest

import kiln
from kiln.pycuda import cumath, driver, gpuarray
from kiln.pycuda.compiler import SourceModule
from kiln.pycuda.elementwise import ElementwiseKernel
from kiln.pycuda.reduction import ReductionKernel
from kiln.pycuda.scan import ExclusiveScanKernel, InclusiveScanKernel
from kiln.pycuda.tools import DeviceMemoryPool, dtype_to_ctype, parse_c_arg

DTYPES = [np.int32, np.float32, np.float64, np.complex64]


def _data(rng, shape, dtype):
    values = rng.uniform(1, 5, size=shape)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * rng.uniform(-2, 2, size=shape)
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_arithmetic_and_comparisons_follow_numpy(current, dtype):
    rng = np.random.default_rng(0)
    a, b = _data(rng, (7, 5), dtype), _data(rng, (7, 5), dtype)
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    assert ga.device == current and ga.shape == a.shape and ga.dtype == a.dtype
    for op in (lambda x, y: x + y, lambda x, y: x - y, lambda x, y: x * y, lambda x, y: x / y,
               lambda x, y: 2 * x - y, lambda x, y: 3 - x, lambda x, y: x ** 2):
        np.testing.assert_allclose(op(ga, gb).get(), op(a, b), rtol=1e-6)
    if np.dtype(dtype).kind != "c":
        np.testing.assert_array_equal((ga < gb).get(), a < b)
        np.testing.assert_array_equal((ga == 3).get(), a == 3)
    np.testing.assert_allclose(abs(-ga).get(), abs(a), rtol=1e-6)
    ga += gb
    np.testing.assert_allclose(ga.get(), a + b, rtol=1e-6)


def test_views_share_memory_and_keep_layouts(current):
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    ga = gpuarray.to_gpu(a)
    view = ga[1:3, ::2]
    view.fill(-1)
    expected = a.copy()
    expected[1:3, ::2] = -1
    np.testing.assert_array_equal(ga.get(), expected)
    fortran = np.asfortranarray(a)
    gf = gpuarray.to_gpu(fortran)
    assert gf.strides == fortran.strides and gf.flags.f_contiguous
    assert gf.copy().strides == fortran.strides
    np.testing.assert_array_equal(gf.get(), a)
    # PyCUDA's reshape reinterprets contiguous memory in the order asked for.
    flat = gpuarray.arange(12, dtype=np.float32)
    np.testing.assert_array_equal(flat.reshape((3, 4), order="F").get(),
                                  np.arange(12, dtype=np.float32).reshape((3, 4), order="F"))
    assert flat.reshape(3, -1).shape == (3, 4)
    with pytest.raises(ValueError):
        flat.reshape(5, -1)
    as_complex = gpuarray.to_gpu(np.arange(8, dtype=np.float32).reshape(2, 4)).view(np.complex64)
    np.testing.assert_array_equal(as_complex.get(), np.arange(8, dtype=np.float32).reshape(2, 4).view(np.complex64))
    z = gpuarray.to_gpu(np.array([1 + 2j, 3 - 4j], dtype=np.complex64))
    assert z.real.flags.c_contiguous and z.real.dtype == np.float32
    np.testing.assert_array_equal(z.conj().get(), np.array([1 - 2j, 3 + 4j], dtype=np.complex64))


def test_reductions_are_0d_and_honour_allocators(current):
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=1000), rng.normal(size=1000)
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    subset = np.array([3, 7, 7, 999], dtype=np.int32)
    gsubset = gpuarray.to_gpu(subset)
    for result, expected in ((gpuarray.sum(ga), a.sum()), (gpuarray.dot(ga, gb), a @ b),
                             (gpuarray.max(ga), a.max()), (gpuarray.min(ga), a.min()),
                             (gpuarray.subset_sum(gsubset, ga), a[subset].sum()),
                             (gpuarray.subset_dot(gsubset, ga, gb), a[subset] @ b[subset]),
                             (gpuarray.subset_max(gsubset, ga), a[subset].max())):
        assert result.shape == ()
        np.testing.assert_allclose(result.get(), expected, rtol=1e-12)
    pool, uses = DeviceMemoryPool(), []
    total = gpuarray.sum(ga, allocator=lambda n: uses.append(n) or pool.allocate(n))
    assert len(uses) == 1 and np.isclose(total.get(), a.sum())
    np.testing.assert_array_equal(gpuarray.if_positive(ga, ga, -ga).get(), np.where(a > 0, a, -a))
    np.testing.assert_array_equal(gpuarray.maximum(ga, gb).get(), np.maximum(a, b))
    np.testing.assert_array_equal(gpuarray.take(ga, gsubset).get(), a[subset])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cumath_follows_numpy(current, dtype):
    x = np.linspace(0.1, 0.9, 33).astype(dtype)
    gx = gpuarray.to_gpu(x)
    tolerance = 1e-6 if dtype == np.float32 else 1e-14
    for name, reference in (("sin", np.sin), ("cos", np.cos), ("tan", np.tan), ("asin", np.arcsin),
                            ("acos", np.arccos), ("atan", np.arctan), ("exp", np.exp), ("log", np.log),
                            ("log10", np.log10), ("sqrt", np.sqrt), ("sinh", np.sinh), ("cosh", np.cosh),
                            ("tanh", np.tanh), ("fabs", np.fabs), ("floor", np.floor), ("ceil", np.ceil)):
        out = gpuarray.empty_like(gx)
        assert getattr(cumath, name)(gx, out=out) is out
        np.testing.assert_allclose(out.get(), reference(x), rtol=tolerance, err_msg=name)
    y = (x - 0.5) * 37
    significand, exponent = cumath.frexp(gpuarray.to_gpu(y))
    expected_significand, expected_exponent = np.frexp(y)
    np.testing.assert_array_equal(significand.get(), expected_significand)
    np.testing.assert_array_equal(exponent.get(), expected_exponent.astype(dtype))
    np.testing.assert_array_equal(cumath.ldexp(significand, exponent).get(), y)
    fraction, integral = cumath.modf(gpuarray.to_gpu(y))
    np.testing.assert_array_equal(fraction.get(), np.modf(y)[0])
    np.testing.assert_array_equal(integral.get(), np.modf(y)[1])
    np.testing.assert_allclose(cumath.fmod(gpuarray.to_gpu(y), gpuarray.to_gpu(x)).get(), np.fmod(y, x),
                               rtol=tolerance)


def test_elementwise_kernel_with_ranges(current):
    lin_comb = ElementwiseKernel("float a, float *x, float b, float *y, float *z", "z[i] = a*x[i] + b*y[i]",
                                 "linear_combination")
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    gx, gy, gz = gpuarray.to_gpu(x), gpuarray.to_gpu(y), gpuarray.zeros(1000, np.float32)
    lin_comb(5, gx, 6, gy, gz)
    np.testing.assert_array_equal(gz.get(), 5 * x + 6 * y)
    gz.fill(0)
    lin_comb(1, gx, 0, gy, gz, range=slice(10, 500, 7))
    expected = np.zeros(1000, np.float32)
    expected[10:500:7] = x[10:500:7]
    np.testing.assert_array_equal(gz.get(), expected)
    gz.fill(0)
    lin_comb(1, gx, 0, gy, gz, slice=slice(-3, None))
    np.testing.assert_array_equal(gz.get()[-4:], [0, 997, 998, 999])
    with pytest.raises(TypeError, match="takes 5 arguments"):
        lin_comb(1, gx, gz)


def test_reduction_kernel(current):
    dot = ReductionKernel(np.float64, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]",
                          arguments="double *x, double *y")
    rng = np.random.default_rng(2)
    for n in (1, 255, 256, 257, 100_003):
        x, y = rng.normal(size=n), rng.normal(size=n)
        result = dot(gpuarray.to_gpu(x), gpuarray.to_gpu(y))
        assert result.shape == () and result.dtype == np.float64
        np.testing.assert_allclose(result.get(), x @ y, rtol=1e-10)
    largest = ReductionKernel(np.int32, neutral="-2147483647", reduce_expr="a > b ? a : b",
                              arguments="const int *in")
    values = rng.integers(-1000, 1000, size=5000).astype(np.int32)
    out = gpuarray.empty((), np.int32)
    assert largest(gpuarray.to_gpu(values), out=out) is out and out.get() == values.max()


@pytest.mark.parametrize("n", [1, 2, 1000, 100_001])
def test_scan_kernels(current, n):
    values = np.random.default_rng(n).integers(-50, 50, size=n).astype(np.int64)
    g = gpuarray.to_gpu(values)
    assert InclusiveScanKernel(np.int64, "a+b")(g) is g
    np.testing.assert_array_equal(g.get(), np.cumsum(values))
    out = gpuarray.empty_like(g)
    ExclusiveScanKernel(np.int64, "a > b ? a : b", "-1000")(gpuarray.to_gpu(values), out)
    expected = np.maximum.accumulate(np.concatenate([[-1000], values[:-1]]))
    np.testing.assert_array_equal(out.get(), expected)
    with pytest.raises(TypeError, match="int64"):
        InclusiveScanKernel(np.int64, "a+b")(gpuarray.to_gpu(values.astype(np.int32)))


def test_random_numbers(current):
    from kiln.pycuda.curandom import XORWOWRandomNumberGenerator, get_curand_version, rand

    u = rand((100, 100)).get()
    assert u.dtype == np.float32 and (u >= 0).all() and (u < 1).all() and abs(u.mean() - 0.5) < 0.02
    assert rand(10, np.int32).dtype == np.int32
    normal = XORWOWRandomNumberGenerator().gen_normal(20000, np.float64).get()
    assert abs(normal.mean()) < 0.05 and abs(normal.std() - 1) < 0.05
    assert get_curand_version() is None


def test_tools():
    assert dtype_to_ctype(np.float32) == "float" and dtype_to_ctype(np.uint64) == "unsigned long"
    arg = parse_c_arg("const float *x")
    assert arg.name == "x" and arg.dtype == np.float32 and arg.struct_char == "P"
    assert parse_c_arg("unsigned int n").struct_char == "I"
    rng = np.random.default_rng(3)
    for size in rng.integers(0, 1 << 31, size=2000) >> rng.integers(0, 32, size=2000):
        bin_nr = DeviceMemoryPool.bin_number(size)
        block = DeviceMemoryPool.alloc_size(bin_nr)
        assert size <= block <= max(size * 1.25, 4) and DeviceMemoryPool.bin_number(block) == bin_nr


def test_memory_pool_reuses_freed_blocks(current):
    pool = DeviceMemoryPool()
    first = pool.allocate(1000)
    address = int(first)
    first.free()
    assert pool.held_blocks == 1 and pool.active_blocks == 0
    again = pool.allocate(1000)
    assert int(again) == address and pool.held_blocks == 0
    data = gpuarray.GPUArray((250,), np.float32, allocator=pool.allocate)
    data.fill(3)
    assert (data.get() == 3).all()


def test_driver_on_the_current_device(current):
    device = driver.Context.get_device()
    attributes = device.get_attributes()
    assert attributes[driver.device_attribute.WARP_SIZE] == 32 and device.MAX_THREADS_PER_BLOCK == 1024
    assert isinstance(device.name(), str) and isinstance(device.compute_capability(), tuple)
    assert driver.get_version()[0] >= 12
    pinned = driver.pagelocked_zeros((4, 3), np.float64)
    assert pinned.shape == (4, 3) and not pinned.any()
    allocation = driver.mem_alloc(8)
    driver.memcpy_htod(allocation, np.int32([7, 9]).tobytes())  # any buffer, as PyCUDA takes
    back = np.empty(2, np.int32)
    driver.memcpy_dtoh(back, allocation)
    assert back.tolist() == [7, 9]
    driver.memset_d32(allocation, 0x01020304, 2)
    driver.memcpy_dtoh(back, allocation)
    assert back.tolist() == [0x01020304] * 2
    driver.memset_d16(allocation, 5, 1)
    driver.memset_d8(int(allocation) + 7, 0xFF, 1)
    driver.memcpy_dtoh(back, allocation)
    assert back.view(np.uint16)[0] == 5 and back.view(np.uint8)[7] == 0xFF
    assert device.get_attribute(driver.device_attribute.WARP_SIZE) == 32
    if current.type == "cpu":  # the host as kiln's CPU runtime presents it
        assert device.compute_capability() == (0, 0)
        assert device.get_attributes()[driver.device_attribute.MULTIPROCESSOR_COUNT] == kiln._core._cpu_threads()


def test_source_module_compiles_at_once_and_names_the_users_line(current):
    with pytest.raises(kiln.CompileError) as error:
        SourceModule("__global__ void f(float *x)\n{\n  x[0] = 1;\n  x[1] = undeclared_name;\n}\n")
    assert ">4:" in str(error.value) and "undeclared_name" in str(error.value)
    module = SourceModule("#include <stdio.h>\n__global__ void twice(uint *x) { x[threadIdx.x] *= 2; }")
    data = gpuarray.to_gpu(np.arange(4, dtype=np.uint32))
    module.get_function("twice")(data, block=(4, 1, 1), grid=(1.0, 1))  # PyCUDA truncates grid numbers
    assert data.get().tolist() == [0, 2, 4, 6]


def test_bad_input(current):
    g = gpuarray.zeros(3, np.float32)
    with pytest.raises(TypeError, match="float64"):
        g.set(np.zeros(3))
    with pytest.raises(ValueError):
        g.set(np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="more than one element"):
        bool(g)
    with pytest.raises(NotImplementedError, match="texture"):
        g.bind_to_texref(None)
    with pytest.raises(NotImplementedError, match="relocatable"):
        from kiln.pycuda.compiler import DynamicModule
        DynamicModule()
    with pytest.raises(NotImplementedError, match="texture"):
        driver.np_to_array(np.zeros((2, 2), np.float32), "C")
    with pytest.raises(ImportError, match="OpenGL"):
        import kiln.pycuda.gl  # noqa: F401


def test_function_settings(current):
    function = SourceModule("__global__ void f(float *x) { x[threadIdx.x] = 1; }").get_function("f")
    function.set_cache_config(driver.func_cache.PREFER_L1)
    data = gpuarray.zeros(8, np.float32)
    function(data, block=(8, 1, 1))
    assert data.get().sum() == 8
    with pytest.raises(NotImplementedError, match="texture"):
        SourceModule("__global__ void g() {}").get_texref("tex")


@pytest.mark.parametrize("dtype, ctype, rtol", [(np.complex64, "float", 2e-5), (np.complex128, "double", 1e-12)])
def test_complex_numbers_in_kernels(current, dtype, ctype, rtol):
    """pycuda::complex<T> (kiln/device/std_complex.cuh) in users' kernels, against NumPy."""
    c = f"pycuda::complex<{ctype}>"
    kernel = ElementwiseKernel(
        f"{c} *x, {c} *y, {c} *out, {ctype} *magnitude",
        f"out[i] = x[i] * y[i] / ({ctype})2 + exp(x[i]) - sqrt(y[i]) * conj(x[i]) + sin(y[i]) / log(x[i]) "
        f"+ pow(x[i], y[i]) - tanh(x[i]) + pycuda::polar(abs(y[i]), arg(x[i])); magnitude[i] = norm(x[i]) + real(y[i]);",
        "complex_mix", preamble="#include <pycuda-complex.hpp>")
    rng = np.random.default_rng(4)
    x = (rng.uniform(0.5, 2, 300) + 1j * rng.uniform(-1, 1, 300)).astype(dtype)
    y = (rng.uniform(0.5, 2, 300) + 1j * rng.uniform(-1, 1, 300)).astype(dtype)
    out, magnitude = gpuarray.empty(300, dtype), gpuarray.empty(300, np.dtype(dtype).type(0).real.dtype)
    kernel(gpuarray.to_gpu(x), gpuarray.to_gpu(y), out, magnitude)
    expected = (x * y / 2 + np.exp(x) - np.sqrt(y) * np.conj(x) + np.sin(y) / np.log(x) + x ** y - np.tanh(x)
                + np.abs(y) * np.exp(1j * np.angle(x)))
    np.testing.assert_allclose(out.get(), expected, rtol=rtol * 10, atol=rtol)
    np.testing.assert_allclose(magnitude.get(), np.abs(x) ** 2 + y.real, rtol=rtol)
