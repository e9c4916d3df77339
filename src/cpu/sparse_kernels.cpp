// CSR matrix-vector products on the CPU: rows split over the cores, each
// row's sum in order (as SciPy's csr_matvec); the transposed product
// scatters each row's entries into y on one core (as SciPy's csc_matvec).
#include <complex>
#include <cstdint>

#include "backend.hpp"
#include "parallel.hpp"

namespace kiln::cpu {
namespace {

constexpr int64_t kRowsPerTask = 1024;

template <class T, class I>
void matvec(const SparseMatvecArgs& a) {
  const I* starts = static_cast<const I*>(a.row_starts);
  const I* columns = static_cast<const I*>(a.columns);
  const T* values = static_cast<const T*>(a.values);
  const T* x = static_cast<const T*>(a.x);
  T* y = static_cast<T*>(a.y);
  if (a.transpose) {
    for (int64_t r = 0; r < a.rows; ++r)
      for (I k = starts[r]; k < starts[r + 1]; ++k) y[columns[k]] += values[k] * x[r];
    return;
  }
  parallel_for(a.rows, kRowsPerTask, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      T sum = T(0);
      for (I k = starts[r]; k < starts[r + 1]; ++k) sum += values[k] * x[columns[k]];
      y[r] = sum;
    }
  });
}

template <class T>
void entry(const SparseMatvecArgs& a) {
  if (a.index_dtype == DType::Int32) matvec<T, int32_t>(a);
  else matvec<T, int64_t>(a);
}

}  // namespace

void register_sparse_kernels(KernelTable& table) {
  table.sparse_matvec[static_cast<int>(DType::Float32)] = &entry<float>;
  table.sparse_matvec[static_cast<int>(DType::Float64)] = &entry<double>;
  table.sparse_matvec[static_cast<int>(DType::Complex64)] = &entry<std::complex<float>>;
  table.sparse_matvec[static_cast<int>(DType::Complex128)] = &entry<std::complex<double>>;
}

}  // namespace kiln::cpu
