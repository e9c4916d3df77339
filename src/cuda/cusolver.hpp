#pragma once
// cuSOLVER's dense API, loaded with dlopen on first use, with one handle (and
// one parameter object) per device bound to kiln's current stream at each
// call. kiln uses the 64-bit generic API (cusolverDnX*), and the typed
// orgqr/ungqr, which has no generic form.
#include <cusolverDn.h>

namespace kiln::cuda {

struct Cusolver {
#define KILN_CUSOLVER_FUNCTIONS(X)                                                                                 \
  X(cusolverDnCreate) X(cusolverDnSetStream) X(cusolverDnCreateParams) X(cusolverDnXgetrf_bufferSize)             \
  X(cusolverDnXgetrf) X(cusolverDnXgetrs) X(cusolverDnXpotrf_bufferSize) X(cusolverDnXpotrf)                      \
  X(cusolverDnXgeqrf_bufferSize) X(cusolverDnXgeqrf) X(cusolverDnXsyevd_bufferSize) X(cusolverDnXsyevd)           \
  X(cusolverDnXgesvd_bufferSize) X(cusolverDnXgesvd) X(cusolverDnSorgqr_bufferSize) X(cusolverDnSorgqr)          \
  X(cusolverDnDorgqr_bufferSize) X(cusolverDnDorgqr) X(cusolverDnCungqr_bufferSize) X(cusolverDnCungqr)          \
  X(cusolverDnZungqr_bufferSize) X(cusolverDnZungqr) X(cusolverDnXgeev_bufferSize) X(cusolverDnXgeev)
#define KILN_CUSOLVER_MEMBER(name) decltype(&::name) name = nullptr;
  KILN_CUSOLVER_FUNCTIONS(KILN_CUSOLVER_MEMBER)
#undef KILN_CUSOLVER_MEMBER
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
