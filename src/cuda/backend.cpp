#include "backend.hpp"

#include "kiln/cuda.hpp"
#include "memory_pool.hpp"
#include "transfer.hpp"

namespace kiln::cuda {

void register_kernels(KernelTable& table) {
  table.allocate = &allocate_device;
  table.pool_stats = [](Device device) { return kiln::cuda::pool_stats(device.index); };
  table.free_all_blocks = [](Device device) { kiln::cuda::free_all_blocks(device.index); };
  table.set_pool_limit = [](Device device, size_t bytes) { kiln::cuda::set_pool_limit(device.index, bytes); };
  table.transfer = &transfer;
  table.cast_across = &cast_across;
  register_elementwise_kernels(table);
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

}  // namespace kiln::cuda
