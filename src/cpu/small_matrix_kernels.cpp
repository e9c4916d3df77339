// Stacks of tiny matrices on the CPU: the device header's one-matrix
// functions (kiln/device/small_matrix.cuh, the GPU's kernels too), a matrix
// at a time with the stack split over the cores. At these sizes a LAPACK
// call costs more than its arithmetic.
#include "device_ops.hpp"  // first: see there
#include "kiln/device/small_matrix.cuh"

#include "backend.hpp"
#include "parallel.hpp"

namespace kiln::cpu {
namespace {

// Matrices a thread takes at least: a 4x4 inverse is about 0.1 us, a fork a few us.
constexpr int64_t kMatricesPerThread = 512;

template <class T, SmallMatrixOp Op, int N>
void each_matrix(const LapackArgs& p) {
  using D = typename device_type_of<T>::type;
  D* a = reinterpret_cast<D*>(p.a);
  const int n = static_cast<int>(p.n);
  parallel_for(p.batch, kMatricesPerThread, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      D* matrix = a + b * n * n;
      p.info[b] = Op == SmallMatrixOp::inverse ? dev::invert_small<D, N>(matrix, n)
                                               : dev::cholesky_small<D, N>(matrix, n, p.upper);
    }
  });
}

// The bound N nearest above the side: a 4-bound matrix stays in registers.
template <class T, SmallMatrixOp Op>
void small_matrix(const LapackArgs& p) {
  static_assert(kSmallMatrixMaxSide <= 8, "the largest bound instantiated below");
  if (p.n <= 4) each_matrix<T, Op, 4>(p);
  else each_matrix<T, Op, 8>(p);
}

template <class T>
void register_precision(KernelTable& t) {
  constexpr int d = dtype_index<T>;
  t.small_matrix[static_cast<int>(SmallMatrixOp::inverse)][d] = &small_matrix<T, SmallMatrixOp::inverse>;
  t.small_matrix[static_cast<int>(SmallMatrixOp::cholesky)][d] = &small_matrix<T, SmallMatrixOp::cholesky>;
}

}  // namespace

void register_small_matrix_kernels(KernelTable& t) {
  register_precision<float>(t);
  register_precision<double>(t);
  register_precision<c64>(t);
  register_precision<c128>(t);
}

}  // namespace kiln::cpu
