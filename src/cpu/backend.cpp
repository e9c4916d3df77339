#include "backend.hpp"

namespace kiln::cpu {

void register_kernels(KernelTable& table) {
  register_allocator(table);
  register_arithmetic_kernels(table);
  register_comparison_kernels(table);
  register_math_kernels(table);
  register_special_kernels(table);
  register_complex_math_kernels(table);
  register_cast_kernels(table);
  register_reduction_kernels(table);
  register_counting_kernels(table);
  register_random_kernels(table);
  register_gather_kernels(table);
  register_sort_kernels(table);
  register_matmul_kernels(table);
  register_lapack_kernels(table);
  register_small_matrix_kernels(table);
  register_sparse_kernels(table);
  register_fft_kernels(table);
  register_user_modules(table);
}

}  // namespace kiln::cpu
