#pragma once
// The CPU backend's entry: fills the CPU kernel table. Each kernel family
// registers itself from its own file.
#include "kiln/registry.hpp"

namespace kiln::cpu {

void register_kernels(KernelTable& table);

void register_allocator(KernelTable& table);
void register_arithmetic_kernels(KernelTable& table);
void register_comparison_kernels(KernelTable& table);
void register_math_kernels(KernelTable& table);
void register_special_kernels(KernelTable& table);
void register_complex_math_kernels(KernelTable& table);
void register_cast_kernels(KernelTable& table);
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

}  // namespace kiln::cpu
