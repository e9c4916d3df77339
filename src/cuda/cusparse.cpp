#include "cusparse.hpp"

#include <atomic>
#include <string>

#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "loaded_api.hpp"
#include "toolkit_library.hpp"

namespace kiln::cuda {
namespace {

const LoadedApi<Cusparse>& load() {
  static const LoadedApi<Cusparse> loaded = load_api<Cusparse>(
      "cuSPARSE", "cuSPARSE (libcusparse.so) could not be loaded: install the CUDA toolkit or set CUDA_HOME",
      [] { return open_toolkit_library({"libcusparse.so.12", "libcusparse.so"}); },
      [](void* lib, Cusparse& api) -> const char* {
        KILN_CUSPARSE_FUNCTIONS(KILN_RESOLVE_OR_RETURN)
        return nullptr;
      });
  return loaded;
}

std::atomic<cusparseHandle_t> handles[kMaxDevices];

}  // namespace

const Cusparse& cusparse() { return api_or_throw(load()); }

void check(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw CudaError(std::string(what) + ": " + cusparse().cusparseGetErrorString(status));
}

cusparseHandle_t cusparse_handle(int device) {
  check_device_index(device);
  cusparseHandle_t handle = load_or_build(handles[device], [] {
    cusparseHandle_t h = nullptr;
    check(cusparse().cusparseCreate(&h), "cusparseCreate");
    return h;
  });
  check(cusparse().cusparseSetStream(handle, reinterpret_cast<cudaStream_t>(current_stream_handle(device))),
        "cusparseSetStream");
  return handle;
}

}  // namespace kiln::cuda
