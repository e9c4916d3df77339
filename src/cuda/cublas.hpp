#pragma once
// cuBLAS, loaded with dlopen on first use, with one handle per device that
// each call binds to kiln's current stream. TF32 stays off (cuBLAS's default
// math mode), as in PyTorch.
#include <cublas_api.h>

namespace kiln::cuda {

struct Cublas {
  cublasStatus_t (*create)(cublasHandle_t*);
  cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
  const char* (*status_string)(cublasStatus_t);
  cublasStatus_t (*gemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                         const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                         cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  cublasStatus_t (*gemm_strided_batched)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                         const void*, const void*, cudaDataType, int, long long, const void*,
                                         cudaDataType, int, long long, const void*, void*, cudaDataType, int,
                                         long long, int, cublasComputeType_t, cublasGemmAlgo_t);
  // The typed batched LU and QR routines, indexed by lapack_precision (S, D,
  // C, Z): their signatures differ only in the element type, taken here as void.
  cublasStatus_t (*getrf_batched[4])(cublasHandle_t, int n, void* const a[], int lda, int* pivots, int* info,
                                     int batch);
  cublasStatus_t (*getrs_batched[4])(cublasHandle_t, cublasOperation_t, int n, int nrhs, const void* const a[],
                                     int lda, const int* pivots, void* const b[], int ldb, int* info, int batch);
  cublasStatus_t (*geqrf_batched[4])(cublasHandle_t, int m, int n, void* const a[], int lda, void* const tau[],
                                     int* info, int batch);
};

// CudaError saying what is missing when cuBLAS cannot be loaded.
const Cublas& cublas();
// `device`'s handle, bound to its current stream; the caller holds a ContextScope.
cublasHandle_t cublas_handle(int device);
void check(cublasStatus_t status, const char* what);

}  // namespace kiln::cuda
