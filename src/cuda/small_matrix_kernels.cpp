// Stacks of tiny matrices on the GPU in one launch, a thread a matrix
// (include/kiln/device/small_matrix.cuh), the infos back to the host in the
// one wait. The batched library routines take several launches, matrix-address
// arrays and column-major copies for the same stack.
#include <atomic>
#include <string>

#include "backend.hpp"
#include "grid_stride.hpp"
#include "kernel_family_sources.hpp"
#include "kernel_slots.hpp"
#include "lapack_batched.hpp"
#include "memory_pool.hpp"
#include "module_cache.hpp"

namespace kiln::cuda {
namespace {

// The compile-time bounds on the side (small_matrix.cuh's N): 4 keeps every
// precision's matrix in registers; 8 covers kSmallMatrixMaxSide.
constexpr int kBounds[2] = {4, 8};
static_assert(kSmallMatrixMaxSide <= 8, "kBounds covers every tiny side");

// [op][precision S, D, C, Z][bound][device]
std::atomic<CUfunction> slots[kNumSmallMatrixOps][4][2][kMaxDevices];

template <SmallMatrixOp Op>
void small_matrix(const LapackArgs& p, DType dt) {
  check_device_index(p.device);
  const int precision = lapack_precision(dt), bound = p.n <= kBounds[0] ? 0 : 1;
  static const char* const ops[kNumSmallMatrixOps] = {"inverse", "cholesky"};
  static const char* const letters = "sdcz";
  const std::string name = std::string("kiln_small_") + ops[static_cast<int>(Op)] + "_" + letters[precision] +
                           std::to_string(kBounds[bound]);
  CUfunction fn = load_or_build(slots[static_cast<int>(Op)][precision][bound][p.device], [&] {
    return load_kernel(p.device, small_matrix_kernel_source(), name);
  });
  BufferPtr infos = allocate_device(sizeof(int) * p.batch, Device::cuda(p.device));
  void* a = p.a;
  int n = static_cast<int>(p.n);
  long long batch = p.batch;
  bool upper = p.upper;
  void* info = infos->data();
  void* inverse_args[] = {&a, &n, &batch, &info};
  void* cholesky_args[] = {&a, &n, &batch, &upper, &info};
  launch_grid_stride(fn, p.device, grid_stride_blocks(p.device, p.batch, 128, 8), 128,
                     Op == SmallMatrixOp::inverse ? inverse_args : cholesky_args);
  infos_to_host(infos->data(), p.batch, p.device, p.info);
}

}  // namespace

const char* small_matrix_kernel_source() {
  return R"(#include "kiln/device/small_matrix.cuh"
#define KILN_EACH_MATRIX(call)                                                                          \
  for (long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x; b < batch;                      \
       b += (long long)gridDim.x * blockDim.x)                                                          \
    info[b] = call;
#define KILN_SMALL(T, letter, N)                                                                        \
  extern "C" __global__ void kiln_small_inverse_##letter##N(T* a, int n, long long batch, int* info) {   \
    KILN_EACH_MATRIX((kiln::dev::invert_small<T, N>(a + b * n * n, n)))                                 \
  }                                                                                                     \
  extern "C" __global__ void kiln_small_cholesky_##letter##N(T* a, int n, long long batch, bool upper,   \
                                                             int* info) {                               \
    KILN_EACH_MATRIX((kiln::dev::cholesky_small<T, N>(a + b * n * n, n, upper)))                        \
  }
#define KILN_SMALL_BOUNDS(T, letter) KILN_SMALL(T, letter, 4) KILN_SMALL(T, letter, 8)
KILN_SMALL_BOUNDS(float, s)
KILN_SMALL_BOUNDS(double, d)
KILN_SMALL_BOUNDS(kiln::dev::complex64, c)
KILN_SMALL_BOUNDS(kiln::dev::complex128, z)
)";
}

void register_small_matrix_kernels(KernelTable& t) {
  fill_lapack_row<&small_matrix<SmallMatrixOp::inverse>>(t.small_matrix[static_cast<int>(SmallMatrixOp::inverse)]);
  fill_lapack_row<&small_matrix<SmallMatrixOp::cholesky>>(t.small_matrix[static_cast<int>(SmallMatrixOp::cholesky)]);
}

}  // namespace kiln::cuda
