#pragma once
// Stacks of small matrices in one library call: cuBLAS's getrf/getrs/
// geqrfBatched, cuSOLVER's potrfBatched, syevjBatched, XsyevBatched and
// gesvdjBatched, and kiln's own kernels for QR's Q and slogdet's tail
// (include/kiln/device/householder.cuh, lu_determinant.cuh). One call a matrix
// costs a launch and a synchronisation each, which rules at these sizes
// (10,000 4x4 solves took 514 ms that way on an H200).
//
// Each function runs its routine over the whole stack and returns true when
// the stack suits the batched routine (its sizes, its limits, a library that
// has it); false, having done nothing, when the caller should go one matrix
// at a time.
#include <library_types.h>

#include "kiln/registry.hpp"

namespace kiln::cuda {

bool getrf_batched(const LapackArgs& p, DType dt);
bool getrs_batched(const LapackArgs& p, DType dt);
bool potrf_batched(const LapackArgs& p, DType dt);
bool geqrf_batched(const LapackArgs& p, DType dt);
bool orgqr_batched(const LapackArgs& p, DType dt);
bool syevd_batched(const LapackArgs& p, DType dt);
bool gesvd_batched(const LapackArgs& p, DType dt);
// The SVD a matrix at a time by Jacobi rotations (m >= n), for stacks the
// batched routine does not take.
void gesvdj_each(const LapackArgs& p, DType dt);
// slogdet from getrf's factors and pivots (include/kiln/device/lu_determinant.cuh):
// signs into values, log|det| into b, a thread a matrix.
void lu_slogdet(const LapackArgs& p, DType dt);

// The cuda data type of a LAPACK dtype (float32/64, complex64/128), and its
// real part's; the index of its typed routines (S, D, C, Z).
int lapack_precision(DType dt);
cudaDataType lapack_data_type(DType dt);
cudaDataType lapack_real_type(DType dt);

// The infos of a stack (device ints) into LAPACK's host infos: the one wait.
void infos_to_host(const void* device_infos, int64_t batch, int device, int64_t* out);

// A table entry calling Op for dtype D, and a row of LAPACK kernels
// (KernelTable::lapack's or small_matrix's) filled with Op for each of the
// four LAPACK dtypes.
template <void (*Op)(const LapackArgs&, DType), int D>
void lapack_entry(const LapackArgs& p) {
  Op(p, static_cast<DType>(D));
}
template <void (*Op)(const LapackArgs&, DType)>
void fill_lapack_row(LapackKernel (&row)[kNumDTypes]) {
  row[static_cast<int>(DType::Float32)] = &lapack_entry<Op, static_cast<int>(DType::Float32)>;
  row[static_cast<int>(DType::Float64)] = &lapack_entry<Op, static_cast<int>(DType::Float64)>;
  row[static_cast<int>(DType::Complex64)] = &lapack_entry<Op, static_cast<int>(DType::Complex64)>;
  row[static_cast<int>(DType::Complex128)] = &lapack_entry<Op, static_cast<int>(DType::Complex128)>;
}

}  // namespace kiln::cuda
