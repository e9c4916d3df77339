// The CUDA runtime's name for an error an entry point of this library returned.
#include <cuda_runtime.h>

extern "C" __attribute__((visibility("default"))) const char* kiln_cub_error_string(int status) {
  return cudaGetErrorString(static_cast<cudaError_t>(status));
}
