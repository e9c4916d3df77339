#pragma once
// cuSPARSE's generic API, loaded with dlopen on first use, with one handle
// per device that each call binds to kiln's current stream.
#include <cusparse.h>

namespace kiln::cuda {

struct Cusparse {
#define KILN_CUSPARSE_FUNCTIONS(X)                                                                         \
  X(cusparseCreate) X(cusparseSetStream) X(cusparseGetErrorString) X(cusparseCreateCsr)                 \
  X(cusparseDestroySpMat) X(cusparseCreateDnVec) X(cusparseDestroyDnVec) X(cusparseSpMV_bufferSize)     \
  X(cusparseSpMV)
#define KILN_CUSPARSE_MEMBER(name) decltype(&::name) name = nullptr;
  KILN_CUSPARSE_FUNCTIONS(KILN_CUSPARSE_MEMBER)
#undef KILN_CUSPARSE_MEMBER
};

// CudaError saying what is missing when cuSPARSE cannot be loaded.
const Cusparse& cusparse();
// `device`'s handle, bound to its current stream; the caller holds a ContextScope.
cusparseHandle_t cusparse_handle(int device);
void check(cusparseStatus_t status, const char* what);

}  // namespace kiln::cuda
