#pragma once
// The CUDA backend's entry: fills the CUDA kernel table. Nothing here touches
// the driver; it loads on the first allocation or transfer.
#include "kiln/registry.hpp"

namespace kiln::cuda {

void register_kernels(KernelTable& table);
void register_elementwise_kernels(KernelTable& table);
void register_reduction_kernels(KernelTable& table);
void register_counting_kernels(KernelTable& table);
void register_random_kernels(KernelTable& table);
void register_gather_kernels(KernelTable& table);
void register_sort_kernels(KernelTable& table);
void register_matmul_kernels(KernelTable& table);
void register_lapack_kernels(KernelTable& table);
void register_small_matrix_kernels(KernelTable& table);
void register_sparse_kernels(KernelTable& table);
void register_fft_kernels(KernelTable& table);
void register_user_modules(KernelTable& table);

}  // namespace kiln::cuda
