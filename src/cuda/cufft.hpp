#pragma once
// cuFFT, loaded with dlopen on first use.
#include <cufft.h>

namespace kiln::cuda {

struct Cufft {
#define KILN_CUFFT_FUNCTIONS(X)                                                                                 \
  X(cufftPlanMany) X(cufftSetStream) X(cufftDestroy) X(cufftExecC2C) X(cufftExecZ2Z) X(cufftExecR2C)           \
  X(cufftExecD2Z) X(cufftExecC2R) X(cufftExecZ2D)
#define KILN_CUFFT_MEMBER(name) decltype(&::name) name = nullptr;
  KILN_CUFFT_FUNCTIONS(KILN_CUFFT_MEMBER)
#undef KILN_CUFFT_MEMBER
};

// CudaError saying what is missing when cuFFT cannot be loaded.
const Cufft& cufft();
void check(cufftResult result, const char* what);

}  // namespace kiln::cuda
