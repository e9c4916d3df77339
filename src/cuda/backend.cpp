#include "backend.hpp"

#include "memory_pool.hpp"
#include "transfer.hpp"

namespace kiln::cuda {

void register_kernels(KernelTable& table) {
  table.allocate = &allocate_device;
  table.transfer = &transfer;
  register_elementwise_kernels(table);
  register_reduction_kernels(table);
  register_counting_kernels(table);
  register_random_kernels(table);
  register_gather_kernels(table);
  register_sort_kernels(table);
  register_matmul_kernels(table);
  register_lapack_kernels(table);
  register_fft_kernels(table);
  register_user_modules(table);
}

}  // namespace kiln::cuda
