#pragma once
// The CUDA C++ of kiln's hand-written kernel families, one NVRTC program
// each (compiled on first use; the C++ tests compile every one of them).
#include <string>

namespace kiln::cuda {

std::string counting_kernel_source();
const char* gather_kernel_source();
const char* random_kernel_source();
const char* sort_kernel_source();
const char* matmul_kernel_source();
const char* householder_kernel_source();
const char* lu_determinant_kernel_source();
const char* small_matrix_kernel_source();

}  // namespace kiln::cuda
