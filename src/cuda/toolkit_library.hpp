#pragma once
// Opens a CUDA toolkit library (NVRTC, cuBLAS, ...) with dlopen: the
// versioned names on the loader's path first, then in lib64/ and lib/ of
// $CUDA_HOME, $CUDA_PATH and /usr/local/cuda. nullptr when none opens.
#include <initializer_list>

namespace kiln::cuda {

void* open_toolkit_library(std::initializer_list<const char*> names);

}  // namespace kiln::cuda
