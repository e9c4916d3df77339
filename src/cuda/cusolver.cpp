#include "cusolver.hpp"

#include <atomic>
#include <string>

#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "loaded_api.hpp"
#include "toolkit_library.hpp"

namespace kiln::cuda {
namespace {

const LoadedApi<Cusolver>& load() {
  static const LoadedApi<Cusolver> loaded = load_api<Cusolver>(
      "cuSOLVER", "cuSOLVER (libcusolver.so) could not be loaded: install the CUDA toolkit or set CUDA_HOME",
      [] { return open_toolkit_library({"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"}); },
      [](void* lib, Cusolver& api) -> const char* {
        KILN_CUSOLVER_FUNCTIONS(KILN_RESOLVE_OR_RETURN)
        return nullptr;
      });
  return loaded;
}

std::atomic<CusolverHandle*> handles[kMaxDevices];

}  // namespace

const Cusolver& cusolver() { return api_or_throw(load()); }

void check(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS)
    throw CudaError(std::string(what) + " failed with cusolverStatus_t " + std::to_string(static_cast<int>(status)));
}

CusolverHandle cusolver_handle(int device) {
  check_device_index(device);
  CusolverHandle* h = load_or_build(handles[device], [] {
    auto* made = new CusolverHandle{};
    check(cusolver().cusolverDnCreate(&made->handle), "cusolverDnCreate");
    check(cusolver().cusolverDnCreateParams(&made->params), "cusolverDnCreateParams");
    return made;
  });
  check(cusolver().cusolverDnSetStream(h->handle, reinterpret_cast<cudaStream_t>(current_stream_handle(device))),
        "cusolverDnSetStream");
  return *h;
}

}  // namespace kiln::cuda
