// The matrix product on the GPU: float16/32/64 and complex64/128 through
// cuBLAS (float16 accumulates in float32, as PyTorch's does); integer and
// bool with a thread per output element from NVRTC (cuBLAS has no integer
// product NumPy's wrapping semantics match).
#include <atomic>
#include <string>

#include "backend.hpp"
#include "context.hpp"
#include "cublas.hpp"
#include "grid_stride.hpp"
#include "kernel_family_sources.hpp"
#include "kernel_slots.hpp"
#include "module_cache.hpp"

namespace kiln::cuda {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kBlocksPerSM = 8;

}  // namespace

const char* matmul_kernel_source() {
  return R"(
template <class T>
__device__ void matmul(const T* a, const T* b, T* out, long long batch, long long m, long long n, long long k,
                       long long a_stride, long long b_stride) {
  const long long total = batch * m * n;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total; t += (long long)gridDim.x * blockDim.x) {
    const long long j = t % n, i = t / n % m, p = t / (m * n);
    const T* row = a + p * a_stride + i * k;
    const T* column = b + p * b_stride + j;
    T sum = 0;
    for (long long l = 0; l < k; ++l) sum += row[l] * column[l * n];
    out[t] = sum;
  }
}
__device__ void matmul_bool(const bool* a, const bool* b, bool* out, long long batch, long long m, long long n,
                            long long k, long long a_stride, long long b_stride) {
  const long long total = batch * m * n;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total; t += (long long)gridDim.x * blockDim.x) {
    const long long j = t % n, i = t / n % m, p = t / (m * n);
    const bool* row = a + p * a_stride + i * k;
    const bool* column = b + p * b_stride + j;
    bool any = false;
    for (long long l = 0; l < k && !any; ++l) any = row[l] && column[l * n];
    out[t] = any;
  }
}
#define KILN_MATMUL(name, T)                                                                              \
  extern "C" __global__ void name(const T* a, const T* b, T* out, long long batch, long long m, long long n, \
                                  long long k, long long a_stride, long long b_stride) {                  \
    matmul(a, b, out, batch, m, n, k, a_stride, b_stride);                                               \
  }
KILN_MATMUL(kiln_matmul_int8, signed char)
KILN_MATMUL(kiln_matmul_uint8, unsigned char)
KILN_MATMUL(kiln_matmul_int16, short)
KILN_MATMUL(kiln_matmul_uint16, unsigned short)
KILN_MATMUL(kiln_matmul_int32, int)
KILN_MATMUL(kiln_matmul_uint32, unsigned int)
KILN_MATMUL(kiln_matmul_int64, long long)
KILN_MATMUL(kiln_matmul_uint64, unsigned long long)
extern "C" __global__ void kiln_matmul_bool(const bool* a, const bool* b, bool* out, long long batch, long long m,
                                            long long n, long long k, long long a_stride, long long b_stride) {
  matmul_bool(a, b, out, batch, m, n, k, a_stride, b_stride);
}
)";
}

namespace {

std::atomic<CUfunction> loop_slots[kNumDTypes][kMaxDevices];

template <int D>
void loop_matmul(const MatmulArgs& p) {
  check_device_index(p.device);
  CUfunction fn = load_or_build(loop_slots[D][p.device], [&] {
    return load_kernel(p.device, matmul_kernel_source(), "kiln_matmul_" + std::string(name(static_cast<DType>(D))));
  });
  const char* a = p.a;
  const char* b = p.b;
  char* out = p.out;
  long long batch = p.batch, m = p.m, n = p.n, k = p.k, a_stride = p.a_stride, b_stride = p.b_stride;
  void* args[] = {&a, &b, &out, &batch, &m, &n, &k, &a_stride, &b_stride};
  launch_grid_stride(fn, p.device, grid_stride_blocks(p.device, batch * m * n, kThreads, kBlocksPerSM), kThreads,
                     args);
}

int cublas_int(int64_t v) {
  if (v > INT32_MAX) throw ValueError("matmul on CUDA: a size of " + std::to_string(v) + " does not fit cuBLAS's int");
  return static_cast<int>(v);
}

// Row-major out = a @ b is column-major out^T = b^T a^T: the operands swap.
template <int D>
void cublas_matmul(const MatmulArgs& p) {
  constexpr DType dt = static_cast<DType>(D);
  constexpr bool wide = dt == DType::Float64 || dt == DType::Complex128;
  constexpr cudaDataType type = dt == DType::Float16   ? CUDA_R_16F
                                : dt == DType::Float32 ? CUDA_R_32F
                                : dt == DType::Float64 ? CUDA_R_64F
                                : dt == DType::Complex64 ? CUDA_C_32F
                                                         : CUDA_C_64F;
  const cublasComputeType_t compute = wide ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  // alpha = 1 and beta = 0 in the compute type (complex: the real part first).
  const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
  const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
  const void* alpha = wide ? static_cast<const void*>(one) : one_f;
  const void* beta = wide ? static_cast<const void*>(zero) : zero_f;
  const int m = cublas_int(p.m), n = cublas_int(p.n), k = cublas_int(p.k);
  ContextScope scope(p.device);
  cublasHandle_t handle = cublas_handle(p.device);
  if (p.batch == 1) {
    check(cublas().gemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, alpha, p.b, type, n, p.a, type, k, beta, p.out,
                        type, n, compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  } else {
    check(cublas().gemm_strided_batched(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, alpha, p.b, type, n, p.b_stride,
                                        p.a, type, k, p.a_stride, beta, p.out, type, n, p.m * p.n,
                                        cublas_int(p.batch), compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmStridedBatchedEx");
  }
}

template <int... D>
void register_loops(KernelTable& t, std::integer_sequence<int, D...>) {
  ((t.matmul[D] = &loop_matmul<D>), ...);
}

}  // namespace

void register_matmul_kernels(KernelTable& t) {
  register_loops(t, std::integer_sequence<int, int(DType::Bool), int(DType::Int8), int(DType::UInt8), int(DType::Int16),
                                          int(DType::UInt16), int(DType::Int32), int(DType::UInt32), int(DType::Int64),
                                          int(DType::UInt64)>{});
  t.matmul[int(DType::Float16)] = &cublas_matmul<int(DType::Float16)>;
  t.matmul[int(DType::Float32)] = &cublas_matmul<int(DType::Float32)>;
  t.matmul[int(DType::Float64)] = &cublas_matmul<int(DType::Float64)>;
  t.matmul[int(DType::Complex64)] = &cublas_matmul<int(DType::Complex64)>;
  t.matmul[int(DType::Complex128)] = &cublas_matmul<int(DType::Complex128)>;
}

}  // namespace kiln::cuda
