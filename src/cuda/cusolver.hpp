#pragma once
// cuSOLVER's dense API, loaded with dlopen on first use, with one handle (and
// one parameter object) per device bound to kiln's current stream at each
// call. kiln uses the 64-bit generic API (cusolverDnX*), and the typed
// orgqr/ungqr, which has no generic form.
#include <cusolverDn.h>

namespace kiln::cuda {

struct Cusolver {
#define KILN_CUSOLVER_FUNCTIONS(X)                                                                                 \
  X(cusolverGetVersion) X(cusolverDnCreate) X(cusolverDnSetStream) X(cusolverDnCreateParams)                      \
  X(cusolverDnXgetrf_bufferSize) X(cusolverDnXgetrf) X(cusolverDnXgetrs) X(cusolverDnXpotrf_bufferSize)          \
  X(cusolverDnXpotrf)                                                                                          \
  X(cusolverDnXgeqrf_bufferSize) X(cusolverDnXgeqrf) X(cusolverDnXsyevd_bufferSize) X(cusolverDnXsyevd)           \
  X(cusolverDnSorgqr_bufferSize) X(cusolverDnSorgqr)                                                            \
  X(cusolverDnDorgqr_bufferSize) X(cusolverDnDorgqr) X(cusolverDnCungqr_bufferSize) X(cusolverDnCungqr)          \
  X(cusolverDnZungqr_bufferSize) X(cusolverDnZungqr) X(cusolverDnXgeev_bufferSize) X(cusolverDnXgeev)             \
  X(cusolverDnCreateGesvdjInfo) X(cusolverDnDestroyGesvdjInfo) X(cusolverDnCreateSyevjInfo)                      \
  X(cusolverDnDestroySyevjInfo)
// Newer than the rest (cuSOLVER 11.7, CUDA 12.6): null where the library lacks them.
#define KILN_CUSOLVER_OPTIONAL_FUNCTIONS(X) X(cusolverDnXsyevBatched_bufferSize) X(cusolverDnXsyevBatched)
#define KILN_CUSOLVER_MEMBER(name) decltype(&::name) name = nullptr;
  KILN_CUSOLVER_FUNCTIONS(KILN_CUSOLVER_MEMBER)
  KILN_CUSOLVER_OPTIONAL_FUNCTIONS(KILN_CUSOLVER_MEMBER)
#undef KILN_CUSOLVER_MEMBER
  // The typed batched routines, indexed by lapack_precision (S, D, C, Z):
  // their signatures differ only in the element type, taken here as void
  // (gesvdj's singular values are real).
  cusolverStatus_t (*potrf_batched[4])(cusolverDnHandle_t, cublasFillMode_t, int n, void* a[], int lda, int* info,
                                       int batch) = {};
  cusolverStatus_t (*gesvdj_batched_buffer_size[4])(cusolverDnHandle_t, cusolverEigMode_t, int m, int n,
                                                    const void* a, int lda, const void* s, const void* u, int ldu,
                                                    const void* v, int ldv, int* lwork, gesvdjInfo_t,
                                                    int batch) = {};
  cusolverStatus_t (*gesvdj_batched[4])(cusolverDnHandle_t, cusolverEigMode_t, int m, int n, void* a, int lda,
                                        void* s, void* u, int ldu, void* v, int ldv, void* work, int lwork,
                                        int* info, gesvdjInfo_t, int batch) = {};
  // gesvdj, one matrix a call (econ: U m x min(m, n), V n x min(m, n)).
  cusolverStatus_t (*gesvdj_buffer_size[4])(cusolverDnHandle_t, cusolverEigMode_t, int econ, int m, int n,
                                            const void* a, int lda, const void* s, const void* u, int ldu,
                                            const void* v, int ldv, int* lwork, gesvdjInfo_t) = {};
  cusolverStatus_t (*gesvdj[4])(cusolverDnHandle_t, cusolverEigMode_t, int econ, int m, int n, void* a, int lda,
                                void* s, void* u, int ldu, void* v, int ldv, void* work, int lwork, int* info,
                                gesvdjInfo_t) = {};
  // syevj/heevjBatched (eigenvalues real).
  cusolverStatus_t (*syevj_batched_buffer_size[4])(cusolverDnHandle_t, cusolverEigMode_t, cublasFillMode_t, int n,
                                                   const void* a, int lda, const void* w, int* lwork, syevjInfo_t,
                                                   int batch) = {};
  cusolverStatus_t (*syevj_batched[4])(cusolverDnHandle_t, cusolverEigMode_t, cublasFillMode_t, int n, void* a,
                                       int lda, void* w, void* work, int lwork, int* info, syevjInfo_t,
                                       int batch) = {};
};

// CudaError saying what is missing when cuSOLVER cannot be loaded.
const Cusolver& cusolver();

struct CusolverHandle {
  cusolverDnHandle_t handle;
  cusolverDnParams_t params;
};
// `device`'s handle, bound to its current stream; the caller holds a ContextScope.
CusolverHandle cusolver_handle(int device);
void check(cusolverStatus_t status, const char* what);

}  // namespace kiln::cuda
