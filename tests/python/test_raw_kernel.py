"""CuPy's RawKernel and RawModule, on every device present: the same CUDA C
source through NVRTC on a GPU and through the host compiler on the CPU."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import kiln

VECTOR_ADD = r"""
extern "C" __global__ void vector_add(const float* __restrict__ x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}
"""

ADD_ONE_2D = r"""
extern "C" __global__ void add_one(double* a, int rows, int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows && c < cols) a[r * cols + c] += 1.0;
}
"""

# The naive and the 16x16-tiled matrix multiply, shared with bench/kernels.py.
MATMUL_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "kernels", "matmul.cu")

HISTOGRAM = r"""
extern "C" __global__ void histogram(const int* values, unsigned int* bins, long long n, int nbins) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    atomicAdd(&bins[values[i] % nbins], 1);
}
"""

BLOCK_SUM = r"""
extern "C" __global__ void block_sum(const double* in, double* partial, int n) {
  extern __shared__ double buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = buf[0];
}
"""

TEMPLATED = r"""
template <typename T, int Scale>
__global__ void scale(const T* x, T* out, T offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * Scale + offset;
}
"""


def test_vector_add(device):
    rng = np.random.default_rng(0)
    x, y = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    kx, ky = kiln.asarray(x, device=device), kiln.asarray(y, device=device)
    out = kiln.empty(1000, dtype="float32", device=device)
    kernel = kiln.RawKernel(VECTOR_ADD, "vector_add")
    kernel((4,), (256,), (kx, ky, out, 1000))
    np.testing.assert_array_equal(out.get(), x + y)
    kernel(4, 256, (kx, ky, out, np.int32(1000)))  # ints as dims, a NumPy scalar of the exact type


def test_seed_2d_add_one(device):
    a = np.arange(37 * 53, dtype=np.float64).reshape(37, 53)
    k = kiln.asarray(a, device=device, copy=True)
    kiln.RawKernel(ADD_ONE_2D, "add_one")((4, 3), (16, 16), (k, 37, 53))
    np.testing.assert_array_equal(k.get(), a + 1)


@pytest.mark.parametrize("name", ["matmul_naive", "matmul_tiled"])
def test_matrix_multiply(device, name):
    n = 70  # not a multiple of the tile
    rng = np.random.default_rng(1)
    a, b = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    c = kiln.empty((n, n), dtype="float32", device=device)
    module = kiln.RawModule(path=MATMUL_PATH)
    blocks = (n + 15) // 16
    module.get_function(name)((blocks, blocks), (16, 16),
                              (kiln.asarray(a, device=device), kiln.asarray(b, device=device), c, n))
    np.testing.assert_allclose(c.get(), a @ b, rtol=1e-5)


def test_histogram_with_atomics(device):
    values = np.random.default_rng(2).integers(0, 1000, 100_000, dtype=np.int32)
    bins = kiln.zeros(16, dtype="uint32", device=device)
    kiln.RawKernel(HISTOGRAM, "histogram")((64,), (128,), (kiln.asarray(values, device=device), bins,
                                                          values.size, 16))
    np.testing.assert_array_equal(bins.get(), np.bincount(values % 16, minlength=16))


def test_block_reduction_with_dynamic_shared_memory(device):
    x = np.random.default_rng(3).random(5000)
    blocks = (x.size + 255) // 256
    partial = kiln.empty(blocks, dtype="float64", device=device)
    kiln.RawKernel(BLOCK_SUM, "block_sum")((blocks,), (256,), (kiln.asarray(x, device=device), partial, x.size),
                                           shared_mem=256 * 8)
    np.testing.assert_allclose(partial.get().sum(), x.sum(), rtol=1e-12)


def test_templates_through_name_expressions(device):
    module = kiln.RawModule(code=TEMPLATED, name_expressions=["scale<float, 3>", "scale<double, 2>"])
    x = np.arange(10, dtype=np.float64)
    out = kiln.empty(10, dtype="float64", device=device)
    module.get_function("scale<double, 2>")((1,), (32,), (kiln.asarray(x, device=device), out, 0.5, 10))
    np.testing.assert_array_equal(out.get(), x * 2 + 0.5)  # the Python float became the template's double
    xf = np.arange(10, dtype=np.float32)
    outf = kiln.empty(10, dtype="float32", device=device)
    module.get_function("scale<float, 3>")((1,), (32,), (kiln.asarray(xf, device=device), outf, 1.0, 10))
    np.testing.assert_array_equal(outf.get(), xf * 3 + 1)


def test_compile_errors_carry_the_log_and_source(device):
    kernel = kiln.RawKernel('extern "C" __global__ void broken(int* p) {\n  *p = not_declared;\n}\n', "broken")
    with pytest.raises(kiln.CompileError, match="not_declared") as info:
        kernel((1,), (1,), (kiln.zeros(1, dtype="int32", device=device),))
    assert ">2:" in str(info.value)


def test_bad_launches_raise_before_running(device):
    kernel = kiln.RawKernel(VECTOR_ADD, "vector_add")
    x = kiln.zeros(4, dtype="float32", device=device)
    with pytest.raises(TypeError, match="takes 4 arguments, got 3"):
        kernel((1,), (4,), (x, x, x))
    with pytest.raises(ValueError, match="limit"):
        kernel((1,), (2048,), (x, x, x, 4))
    with pytest.raises(ValueError, match="shared_mem"):
        kernel((1,), (4,), (x, x, x, 4), shared_mem=1 << 30)
    with pytest.raises(ValueError, match="grid"):
        kernel((1, 2, 3, 4), (4,), (x, x, x, 4))
    with pytest.raises(TypeError, match="unsupported type"):
        kernel((1,), (4,), (x, x, x, "4"))


def test_python_scalars_follow_cupys_rule_where_the_type_is_unknown(device):
    # A typedef, a struct and a template parameter kiln does not read: a
    # Python int passes as int64, a float as float64, a bool as bool, as
    # CuPy passes them whatever the declaration (the kernel reads its own size).
    kernel = kiln.RawKernel(r"""
    typedef long long index_t;
    typedef double real;
    struct P { int a; };
    extern "C" __global__ void k(P p, index_t n, real x, bool flag, double* out) {
      out[0] = p.a; out[1] = n; out[2] = x; out[3] = flag;
    }""", "k")
    out = kiln.zeros(4, dtype="float64", device=device)
    kernel((1,), (1,), (3, 1 << 40, 2.5, True, out))
    np.testing.assert_array_equal(kiln.asnumpy(out), [3, 1 << 40, 2.5, 1])


def test_every_c_spelling_of_an_integer_parameter(device):
    kernel = kiln.RawKernel(r"""
    extern "C" __global__ void k(unsigned long long int a, long int b, short int c, signed char d,
                                 long signed int e, short unsigned f, const volatile unsigned g, long long* out) {
      out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = e; out[5] = f; out[6] = g;
    }""", "k")
    from kiln._cupy_kernels.raw import kernel_parameters

    assert [k for k, _ in kernel_parameters(kernel.code, "k")] == ["Q", "l", "h", "b", "l", "H", "I", "pointer"]
    out = kiln.zeros(7, dtype="int64", device=device)
    kernel((1,), (1,), (2**40, -5, -300, -7, 9, 65535, 4000000000, out))
    np.testing.assert_array_equal(kiln.asnumpy(out), [2**40, -5, -300, -7, 9, 65535, 4000000000])
    with pytest.raises(OverflowError, match="argument 2 of k"):
        kernel((1,), (1,), (0, 0, 1 << 20, 0, 0, 0, 0, out))


def test_numpy_structured_values_pass_by_value(device):
    # A NumPy array of a structured dtype for a by-value struct parameter
    # (CuPy's custom-struct examples): its bytes are the value.
    double3 = np.dtype({"names": ["x", "y", "z"], "formats": [np.float64] * 3})
    kernel = kiln.RawKernel(r"""
    extern "C" __global__ void k(double3 v, double3* out) { out[threadIdx.x] = v; }""", "k")
    value = np.array([1.5, -2.0, 7.25]).view(double3)
    out = kiln.zeros((2, 3), dtype="float64", device=device)
    kernel((1,), (2,), (value, out))
    np.testing.assert_array_equal(kiln.asnumpy(out), [[1.5, -2.0, 7.25]] * 2)
    kernel((1,), (2,), (value[0], out))  # a structured scalar likewise
    np.testing.assert_array_equal(kiln.asnumpy(out), [[1.5, -2.0, 7.25]] * 2)


def test_an_address_as_a_python_int_for_a_pointer(current):
    # No array argument: the kernel runs on the default device, `current`.
    device = current
    kernel = kiln.RawKernel('extern "C" __global__ void k(float* p) { p[threadIdx.x] = threadIdx.x; }', "k")
    out = kiln.zeros(4, dtype="float32", device=device)
    kernel((1,), (4,), (out.data.ptr,))
    np.testing.assert_array_equal(kiln.asnumpy(out), [0, 1, 2, 3])
    with pytest.raises(TypeError, match="argument 0 of k"):
        kernel((1,), (4,), (1.5,))


def test_parameter_parsing():
    from kiln._cupy_kernels.raw import kernel_parameters

    assert kernel_parameters(VECTOR_ADD, "vector_add") == [
        ("pointer", "const float* __restrict__ x"), ("pointer", "const float* y"), ("pointer", "float* out"),
        ("i", "int n")]
    assert [k for k, _ in kernel_parameters(TEMPLATED, "scale<double, 2>")] == ["pointer", "pointer", "d", "i"]
    assert kernel_parameters(VECTOR_ADD, "missing") is None


def test_warp_intrinsics_in_cuda_c_exchange_between_lanes(device):
    kernel = kiln.RawKernel(r"""
    extern "C" __global__ void k(const int* in, int* out) {
      const int i = threadIdx.x;
      int v = in[i];
      for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
      out[i] = __shfl_sync(0xffffffffu, v, 0) + (__ballot_sync(0xffffffffu, in[i] % 2) == 0xaaaaaaaau);
    }""", "k")
    values = kiln.arange(64, dtype="int32", device=device)
    out = kiln.zeros(64, dtype="int32", device=device)
    kernel((1,), (64,), (values, out))
    sums = np.arange(64).reshape(2, 32).sum(1) + 1  # each warp's sum, and its odd lanes voted
    np.testing.assert_array_equal(kiln.asnumpy(out), np.repeat(sums, 32))


SCALARS = r"""
struct Pair { long long a; double b; };
extern "C" __global__ void scalars(double* out, signed char i8, unsigned short u16, unsigned int u32,
                                   long long i64, float f32, bool flag, Pair pair) {
  out[0] = i8; out[1] = u16; out[2] = u32; out[3] = (double)i64; out[4] = f32; out[5] = flag;
  out[6] = (double)pair.a + pair.b;
}
"""


def test_scalar_arguments_become_the_declared_types(device):
    kernel = kiln.RawKernel(SCALARS, "scalars")
    out = kiln.zeros(7, dtype="float64", device=device)
    pair = np.array([(5, 0.25)], dtype=[("a", "<i8"), ("b", "<f8")]).tobytes()
    kernel(1, 1, (out, -3, 65535, np.uint32(4000000000), -(2**40), 1.5, True, pair))
    np.testing.assert_array_equal(kiln.asnumpy(out), [-3, 65535, 4e9, -(2**40), 1.5, 1, 5.25])
    with pytest.raises(OverflowError, match=r"argument 1 of scalars \('signed char i8'\)"):
        kernel(1, 1, (out, 200, 0, 0, 0, 0.0, False, pair))
    with pytest.raises(TypeError, match="float to an integer"):
        kernel(1, 1, (out, 1.5, 0, 0, 0, 0.0, False, pair))
    with pytest.raises(TypeError, match="takes 8 arguments, got 2"):
        kernel(1, 1, (out, 1))


def test_numpy_arrays_run_on_the_cpu():
    kernel = kiln.RawKernel(VECTOR_ADD, "vector_add")
    x, y = np.arange(5, dtype=np.float32), np.ones(5, dtype=np.float32)
    out = np.zeros(5, dtype=np.float32)
    kernel((1,), (8,), (x, y, out, 5))
    np.testing.assert_array_equal(out, x + 1)


@pytest.mark.skipif(not kiln.cuda.is_available(), reason="needs a GPU")
def test_arrays_on_two_devices_are_refused():
    kernel = kiln.RawKernel(VECTOR_ADD, "vector_add")
    x = np.zeros(5, dtype=np.float32)
    with pytest.raises(TypeError, match="is on cuda:0 but an earlier array argument is on cpu"):
        kernel((1,), (8,), (x, x, kiln.zeros(5, dtype="float32", device="cuda"), 5))


_LIBRARIES_SCRIPT = r"""
import numpy as np, kiln
from kiln.rdf import science, ways
rng = np.random.default_rng(1)
box = np.array([20.0, 21.0, 23.0])
x, y, z = (rng.uniform(0, edge, (2, 301)) for edge in box)
expected = science.histogram_reference(x, y, z, box, 200)
positions = [kiln.asarray(a) for a in (x, y, z)]
for variant, threads, blocks in ((1, 32, 3), (2, 32, 5), (3, 16, 7), (4, 64, 1)):
    kernel = kiln.RawKernel(ways.SOURCE, "pair_unique", options=("--fmad=false", f"-DVARIANT={variant}"))
    hist = kiln.zeros(200, dtype="uint64")
    kernel((blocks,), (threads,), (*positions, hist, 301, 2, *box, *science.geometry(box, 200), 200),
           shared_mem=24 * threads + 4 * 200)
    got = kiln.asnumpy(hist).astype(np.int64)
    got[0] += 2 * 301
    assert np.array_equal(got, expected), (variant, int(np.abs(got - expected).sum()))
print("ok")
"""


def test_kernel_libraries_keep_their_own_runtime_state(tmp_path):
    # Each compiled kernel is a library of its own. The runtime's thread-locals
    # once had vague linkage, so the loader merged them across libraries, and
    # from the third library on a kernel with barriers lost pairs.
    env = dict(os.environ, KILN_CACHE_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", _LIBRARIES_SCRIPT], env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]


STRUCT_ARGUMENTS = r'''
struct Pair { int a; double b; };
extern "C" __global__ void take_structs(float4 v, Pair p, double2 d, float* out) {
  out[0] = v.x + v.y + v.z + v.w;
  out[1] = p.a * p.b;
  out[2] = d.x - d.y;
}
'''


def test_structured_scalars_as_vector_types_and_structs(device):
    """NumPy structured scalars pass by value as CUDA vector types and users'
    structs (aligned as the C compiler lays them out), up to 56 bytes."""
    kernel = kiln.RawKernel(STRUCT_ARGUMENTS, "take_structs")
    float4 = np.array((1, 2, 3, 4), dtype=[("x", "f4"), ("y", "f4"), ("z", "f4"), ("w", "f4")])[()]
    pair = np.array((3, 2.5), dtype=np.dtype([("a", "i4"), ("b", "f8")], align=True))[()]
    double2 = np.array((7.0, 0.5), dtype=[("x", "f8"), ("y", "f8")])[()]
    out = kiln.zeros(3, dtype="float32", device=device)
    kernel((1,), (1,), (float4, pair, double2, out))
    np.testing.assert_array_equal(kiln.asnumpy(out), [10.0, 7.5, 6.5])
    too_big = np.zeros((), dtype=[("v", "f8", (18,))])[()]
    with pytest.raises(TypeError, match="larger than 136 bytes"):
        kernel((1,), (1,), (too_big, pair, double2, out))


CURAND_KERNEL = r'''
#include <curand_kernel.h>
extern "C" __global__ void first_draw(unsigned int* out, unsigned long long seed) {
  curandStateXORWOW_t state;
  curand_init(seed, 1, 0, &state);
  *out = curand(&state);
}
'''


def _toolkit_headers_found():
    return os.path.exists("/usr/local/cuda/include/curand_kernel.h") or "CUDA_HOME" in os.environ


@pytest.mark.skipif(not _toolkit_headers_found(), reason="no CUDA toolkit headers here")
def test_user_code_includes_the_toolkits_headers_without_a_gpu():
    """Users' CUDA C may include the toolkit's headers (curand_kernel.h), as
    CuPy's RawKernel code may: NVRTC finds the toolkit's and CCCL's include
    directories. NVRTC runs without a GPU."""
    ptx = kiln._core._cuda_ptx(CURAND_KERNEL, 90, [])
    assert ".entry first_draw" in ptx


def test_a_raw_kernel_draws_with_curand(device):
    """cuRAND's XORWOW from <curand_kernel.h> on either device (NVIDIA's
    header on a GPU, kiln's on the CPU): the same integers."""
    if device.type == "cuda" and not _toolkit_headers_found():
        pytest.skip("no CUDA toolkit headers here")
    out = kiln.zeros(1, dtype="uint32", device=device)
    kiln.RawKernel(CURAND_KERNEL, "first_draw")((1,), (1,), (out, np.uint64(1)))
    assert int(out.get()[0]) == 323845807  # XORWOW's first draw for seed 1, sequence 1 (Numba's test_device_func)


CURAND_PROPERTIES = r'''
#include <curand_kernel.h>
// Per thread: draws 0-7 of (seed, sequence = thread); the draw after
// skipahead(5) and after an init at offset 5; a uniform and its integer.
extern "C" __global__ void properties(unsigned int* draws, unsigned int* skipped, float* uniform,
                                      unsigned int* uniform_bits, float* normal, double* normal_double,
                                      double* uniform_double, unsigned long long seed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState s;
  curand_init(seed, i, 0, &s);
  for (int k = 0; k < 8; ++k) draws[i * 8 + k] = curand(&s);
  curandState a, b, c;
  curand_init(seed, i, 0, &a);
  skipahead(5, &a);
  skipahead_sequence(1, &a);
  curand_init(seed, i + 1, 5, &b);
  skipped[i * 2] = curand(&a);
  skipped[i * 2 + 1] = curand(&b);
  curand_init(seed, i, 0, &c);
  uniform_bits[i] = curand(&c);
  curand_init(seed, i, 0, &c);
  uniform[i] = curand_uniform(&c);
  normal[2 * i] = curand_normal(&c);
  normal[2 * i + 1] = curand_normal(&c);
  normal_double[i] = curand_normal_double(&c);
  uniform_double[i] = curand_uniform_double(&c);
}
'''


def test_curand_xorwow_jumps_and_transforms(device):
    """skipahead and skipahead_sequence agree with curand_init's offset and
    subsequence; uniforms are cuRAND's (u * 2^-32 + 2^-33); normals look normal."""
    if device.type == "cuda" and not _toolkit_headers_found():
        pytest.skip("no CUDA toolkit headers here")
    n = 2048
    draws = kiln.zeros(n * 8, dtype="uint32", device=device)
    skipped = kiln.zeros(n * 2, dtype="uint32", device=device)
    uniform = kiln.zeros(n, dtype="float32", device=device)
    bits = kiln.zeros(n, dtype="uint32", device=device)
    normal = kiln.zeros(2 * n, dtype="float32", device=device)
    normal_double = kiln.zeros(n, dtype="float64", device=device)
    uniform_double = kiln.zeros(n, dtype="float64", device=device)
    kiln.RawKernel(CURAND_PROPERTIES, "properties")(
        (n // 128,), (128,), (draws, skipped, uniform, bits, normal, normal_double, uniform_double, np.uint64(42)))
    d = draws.get().reshape(n, 8)
    pairs = skipped.get().reshape(n, 2)
    np.testing.assert_array_equal(pairs[:, 0], pairs[:, 1])  # the same jump two ways
    np.testing.assert_array_equal(pairs[:-1, 0], d[1:, 5])  # sequence i + 1, sixth draw
    assert len(np.unique(d)) > 0.99 * d.size  # the subsequences do not repeat each other
    u, b = uniform.get(), bits.get()
    expected = b.astype(np.float32) * np.float32(2.3283064e-10) + np.float32(2.3283064e-10 / 2)
    np.testing.assert_array_max_ulp(u, expected, maxulp=1)  # NVRTC may fuse the multiply-add
    assert 0 < u.min() and u.max() <= 1
    z = normal.get().astype(np.float64)
    assert abs(z.mean()) < 0.1 and abs(z.std() - 1) < 0.1
    zd = normal_double.get()
    assert abs(zd.mean()) < 0.1 and abs(zd.std() - 1) < 0.1
    ud = uniform_double.get()
    assert 0 < ud.min() and ud.max() <= 1 and abs(ud.mean() - 0.5) < 0.05


# The draws, jumps and transforms both programs make, into words[9] and
# values[11]: the kernel's (kiln's header on the CPU) and the reference's
# (NVIDIA's header built for the host), so that the two cannot drift apart.
CURAND_CALLS = r'''
template <class State>
CALLS_QUALIFIER void sequence(unsigned long long seed, unsigned long long seq, unsigned long long off,
                              unsigned int* words, double* values) {
  State s;
  curand_init(seed, seq, off, &s);
  for (int i = 0; i < 7; ++i) words[i] = curand(&s);
  skipahead(13, &s);
  words[7] = curand(&s);
  skipahead_sequence(3, &s);
  words[8] = curand(&s);
  values[0] = curand_normal(&s);
  values[1] = curand_normal(&s);
  values[2] = curand_log_normal(&s, 0.5f, 2.f);
  values[3] = curand_normal_double(&s);
  values[4] = curand_uniform_double(&s);
  values[5] = curand_normal_double(&s);
  values[6] = curand_uniform(&s);
  const float2 pair = curand_normal2(&s);
  const double2 pair_double = curand_normal2_double(&s);
  values[7] = pair.x;
  values[8] = pair.y;
  values[9] = pair_double.x;
  values[10] = pair_double.y;
}
'''

# One thread per (seed, subsequence, offset) and generator: XORWOW,
# Philox4_32_10, MRG32k3a in turn, as the reference prints them.
CURAND_SEQUENCE = "#include <curand_kernel.h>\n#define CALLS_QUALIFIER __device__\n" + CURAND_CALLS + r'''
extern "C" __global__ void run(const unsigned long long* params, int count, unsigned int* words, double* values) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 3 * count) return;
  const unsigned long long* p = params + 3 * (i / 3);
  if (i % 3 == 0) sequence<curandStateXORWOW_t>(p[0], p[1], p[2], words + 9 * i, values + 11 * i);
  else if (i % 3 == 1) sequence<curandStatePhilox4_32_10_t>(p[0], p[1], p[2], words + 9 * i, values + 11 * i);
  else sequence<curandStateMRG32k3a_t>(p[0], p[1], p[2], words + 9 * i, values + 11 * i);
}
'''

CURAND_REFERENCE = "#include <curand_kernel.h>\n#include <cstdio>\n#define CALLS_QUALIFIER\n" + CURAND_CALLS + r'''
template <class State> void print(unsigned long long seed, unsigned long long seq, unsigned long long off) {
  unsigned int words[9];
  double values[11];
  sequence<State>(seed, seq, off, words, values);
  for (unsigned int w : words) printf("%u ", w);
  for (double x : values) printf("%a ", x);
  printf("\n");
}
int main() {
  unsigned long long seed, seq, off;
  while (scanf("%llu %llu %llu", &seed, &seq, &off) == 3) {
    print<curandStateXORWOW_t>(seed, seq, off);
    print<curandStatePhilox4_32_10_t>(seed, seq, off);
    print<curandStateMRG32k3a_t>(seed, seq, off);
  }
}
'''


@pytest.mark.skipif(not os.path.exists("/usr/local/cuda/include/curand_kernel.h") or not shutil.which("c++"),
                    reason="no CUDA toolkit headers or host compiler here to build NVIDIA's cuRAND on the host")
def test_curand_on_the_cpu_matches_nvidias_header(tmp_path):
    """kiln's <curand_kernel.h> for CPU kernels against NVIDIA's own, compiled
    for the host by the host compiler: XORWOW, Philox4_32_10 and MRG32k3a, large seeds,
    subsequences and offsets, jumps, uniform, normal (one, a pair) and
    log-normal draws."""
    params = [(seed, seq, off) for seed in (0, 1, 1234567890123) for seq in (0, 1, 77, (1 << 40) + 5)
              for off in (0, 3, 1 << 33)]
    source, program = tmp_path / "reference.cpp", tmp_path / "reference"
    source.write_text(CURAND_REFERENCE)
    subprocess.run(["c++", "-std=c++17", "-O1", "-I/usr/local/cuda/include", str(source), "-o", str(program)],
                   check=True, capture_output=True)
    text = "\n".join(" ".join(map(str, p)) for p in params)
    lines = subprocess.run([str(program)], input=text, capture_output=True, text=True, check=True).stdout.split("\n")
    expected = [line.split() for line in lines if line]
    assert len(expected) == 3 * len(params) and all(len(line) == 9 + 11 for line in expected)
    words = kiln.zeros(3 * len(params) * 9, dtype="uint32", device="cpu")
    values = kiln.zeros(3 * len(params) * 11, dtype="float64", device="cpu")
    flat = kiln.asarray(np.array(params, dtype=np.uint64).ravel(), device="cpu")
    kiln.RawKernel(CURAND_SEQUENCE, "run")((1,), (3 * len(params),), (flat, np.int32(len(params)), words, values))
    got_words, got_values = words.get().reshape(-1, 9), values.get().reshape(-1, 11)
    for row, line in enumerate(expected):
        assert [int(w) for w in line[:9]] == got_words[row].tolist(), (row, params[row // 3])
        np.testing.assert_array_max_ulp(got_values[row], [float.fromhex(v) for v in line[9:]], maxulp=2)


COOPERATIVE_GROUPS = r'''
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
extern "C" __global__ void groups(const int* x, int* tile_sum, int* tile_max, int* scan, int* shuffled,
                                  unsigned* votes, unsigned long long* ranks, int* block_sum, int* coalesced) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  const unsigned long long i = cg::this_grid().thread_rank();
  const int v = x[i];
  tile_sum[i] = cg::reduce(tile, v, cg::plus<int>());
  tile_max[i] = cg::reduce(tile, v, cg::greater<int>());
  scan[i] = cg::inclusive_scan(tile, v);
  shuffled[i] = tile.shfl(v, 0) + 1000 * tile.shfl_down(v, 1);
  votes[i] = tile.ballot(v % 2);
  ranks[i] = tile.thread_rank() + 100 * tile.meta_group_rank() + 10000 * block.thread_rank();
  __shared__ int total;
  if (block.thread_rank() == 0) total = 0;
  block.sync();
  atomicAdd(&total, v);
  cg::sync(block);
  block_sum[i] = total;
  coalesced[i] = -1;
  if (threadIdx.x % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    coalesced[i] = 100 * (int)active.size() + (int)active.thread_rank();
  }
}
extern "C" __global__ void rotate(int* a, int* b, int n) {
  cg::grid_group grid = cg::this_grid();
  const unsigned long long i = grid.thread_rank();
  a[i] = (int)i;
  grid.sync();
  b[i] = a[(i + 1) % n];
}
'''


def test_cooperative_groups_in_cuda_c(device):
    """<cooperative_groups.h> in CUDA C on either device (NVIDIA's header on a
    GPU, kiln's on the CPU): tiles' reduce, scan, shuffles and votes, the
    block's sync, a coalesced group, and a grid's sync in a cooperative
    launch (CuPy's enable_cooperative_groups)."""
    if device.type == "cuda" and not _toolkit_headers_found():
        pytest.skip("no CUDA toolkit headers here")
    rng = np.random.default_rng(5)
    host = rng.integers(0, 50, 64).astype(np.int32)
    x = kiln.asarray(host, device=device)
    outs = [kiln.zeros(64, dtype=t, device=device) for t in ("int32", "int32", "int32", "int32", "uint32", "uint64",
                                                              "int32", "int32")]
    kiln.RawKernel(COOPERATIVE_GROUPS, "groups")((2,), (32,), (x, *outs))
    tile_sum, tile_max, scan, shuffled, votes, ranks, block_sum, coalesced = (kiln.asnumpy(o) for o in outs)
    tiles = host.reshape(8, 8)
    np.testing.assert_array_equal(tile_sum, np.repeat(tiles.sum(1), 8))
    np.testing.assert_array_equal(tile_max, np.repeat(tiles.max(1), 8))
    np.testing.assert_array_equal(scan, np.cumsum(tiles, axis=1).ravel())
    below = np.concatenate([tiles[:, 1:], tiles[:, -1:]], axis=1)  # the last rank keeps its own value
    np.testing.assert_array_equal(shuffled, (tiles[:, :1] + 1000 * below).ravel())
    odd = (tiles % 2).astype(np.uint32) << np.arange(8, dtype=np.uint32)
    np.testing.assert_array_equal(votes, np.repeat(odd.sum(1), 8))
    in_block = np.arange(64) % 32
    np.testing.assert_array_equal(ranks, in_block % 8 + 100 * (in_block // 8) + 10000 * in_block)
    np.testing.assert_array_equal(block_sum, np.repeat(host.reshape(2, 32).sum(1), 32))
    takes_part = in_block % 3 == 0
    np.testing.assert_array_equal(coalesced[~takes_part], -1)
    np.testing.assert_array_equal(coalesced[takes_part], 1100 + np.tile(np.arange(11), 2))

    a, b = kiln.zeros(256, dtype="int32", device=device), kiln.zeros(256, dtype="int32", device=device)
    rotate = kiln.RawKernel(COOPERATIVE_GROUPS, "rotate", enable_cooperative_groups=True)
    assert rotate.cooperative
    rotate((4,), (64,), (a, b, np.int32(256)))
    np.testing.assert_array_equal(kiln.asnumpy(b), np.roll(np.arange(256), -1))


def test_cooperative_groups_compile_with_nvidias_header_without_a_gpu():
    if not _toolkit_headers_found():
        pytest.skip("no CUDA toolkit headers here")
    ptx = kiln._core._cuda_ptx(COOPERATIVE_GROUPS, 90, [])
    assert ".entry groups" in ptx and ".entry rotate" in ptx


def test_cpu_kernels_compile_without_cxx17_special_math():
    """The CPU runtime keeps libstdc++'s C++17 special math functions out of
    <cmath> (CUDA has none; instantiating them cost a small kernel a quarter
    of its compile time): it must do so before anything includes <cmath>."""
    kernel = kiln.RawKernel(r"""
    #include <cmath>
    extern "C" __global__ void probe(int* out) {
    #ifdef __cpp_lib_math_special_functions
      out[0] = 1;
    #else
      out[0] = 2;
    #endif
    }""", "probe")
    out = kiln.zeros(1, dtype="int32", device="cpu")
    kernel((1,), (1,), (out,))
    assert int(out.get()[0]) == 2


def test_a_source_may_declare_what_stdint_declares(device):
    # NVRTC declares no <stdint.h> names unless the source includes it, so a
    # preamble may define them itself (CuPy's Monte Carlo example does).
    kernel = kiln.RawKernel(r"""
    typedef unsigned long long uint64_t;
    using int32_t = int;
    extern "C" __global__ void k(uint64_t* out, int32_t n) { out[0] = (uint64_t)n << 33; }""", "k")
    out = kiln.zeros(1, dtype="uint64", device=device)
    kernel((1,), (1,), (out, 3))
    assert int(out[0]) == 3 << 33


def test_the_cuda_math_api_beyond_cmath(device):
    special = pytest.importorskip("scipy.special")
    kernel = kiln.RawKernel(r"""
    extern "C" __global__ void k(const double* x, double* out, float* outf) {
      const int i = threadIdx.x;
      const double v = x[i];
      double s, c;
      sincospi(v, &s, &c);
      out[i * 10 + 0] = erfinv(v * 0.9);
      out[i * 10 + 1] = erfcinv(v + 1.0);
      out[i * 10 + 2] = normcdfinv(0.5 + v * 0.45);
      out[i * 10 + 3] = normcdf(v * 3.0);
      out[i * 10 + 4] = erfcx(v * 4.0);
      out[i * 10 + 5] = rcbrt(v + 2.0);
      out[i * 10 + 6] = s + 2.0 * c;
      out[i * 10 + 7] = cyl_bessel_i0(v * 5.0) + cyl_bessel_i1(v * 5.0);
      out[i * 10 + 8] = j0(v * 5.0) + y1(v + 2.0);
      out[i * 10 + 9] = norm3d(v, 2.0, 3.0) * rnorm4d(v, 1.0, 1.0, 1.0) + rhypot(v, 1.0);
      outf[i * 3 + 0] = erfcinvf((float)v + 1.0f);
      outf[i * 3 + 1] = normcdfinvf(0.5f + (float)v * 0.45f);
      outf[i * 3 + 2] = cyl_bessel_i0f((float)v);
    }""", "k")
    x = np.linspace(-0.95, 0.95, 16)
    out = kiln.zeros(16 * 10, dtype="float64", device=device)
    outf = kiln.zeros(16 * 3, dtype="float32", device=device)
    kernel((1,), (16,), (kiln.asarray(x, device=device), out, outf))
    want = np.stack([special.erfinv(x * 0.9), special.erfcinv(x + 1), special.ndtri(0.5 + x * 0.45),
                     special.ndtr(x * 3), special.erfcx(x * 4), 1 / np.cbrt(x + 2),
                     np.sin(np.pi * x) + 2 * np.cos(np.pi * x), special.i0(x * 5) + special.i1(x * 5),
                     special.j0(x * 5) + special.y1(x + 2),
                     np.sqrt(x**2 + 13) / np.sqrt(x**2 + 3) + 1 / np.hypot(x, 1)], axis=1)
    np.testing.assert_allclose(kiln.asnumpy(out).reshape(16, 10), want, rtol=1e-13, atol=1e-15)
    wantf = np.stack([special.erfcinv(x + 1), special.ndtri(0.5 + x * 0.45), special.i0(x)], axis=1)
    np.testing.assert_allclose(kiln.asnumpy(outf).reshape(16, 3), wantf, rtol=3e-6, atol=1e-6)


def test_the_cuda_intrinsics_beyond_cmath(device):
    kernel = kiln.RawKernel(r"""
    extern "C" __global__ void k(long long* out) {
      out[0] = __byte_perm(0x11223344u, 0x55667788u, 0x7531u);
      out[1] = (long long)__umul64hi(0xffffffffffffffffull, 3ull);
      out[2] = __mul64hi(-1ll << 40, 1ll << 40);
      out[3] = __funnelshift_l(0x80000000u, 1u, 1u);
      out[4] = __funnelshift_rc(0u, 1u, 40u);
      out[5] = __sad(-3, 4, 10u);
      out[6] = __rhadd(3, 4);
      out[7] = __double2int_rd(-1.5) * 10 + __double2int_ru(1.2);
      out[8] = __float2uint_rn(-4.0f) + __double2ll_rz(1e30);
      out[9] = __fadd_ru(1.0f, 1e-10f) > 1.0f && __fadd_rd(1.0f, 1e-10f) == 1.0f && __fdiv_rz(-1.0f, 3.0f) > __fdiv_rd(-1.0f, 3.0f);
      out[10] = __double2hiint(1.0) + __double2loint(__hiloint2double(7, 9));
    }""", "k")
    out = kiln.zeros(11, dtype="int64", device=device)
    kernel((1,), (1,), (out,))
    np.testing.assert_array_equal(kiln.asnumpy(out), [
        0x55771133, 2, -(1 << 16), 3, 1, 17, 4, -18, 2**63 - 1, 1, 0x3FF00000 + 9])
