#include "driver.hpp"

#include <string>

#include "kiln/error.hpp"
#include "loaded_api.hpp"

namespace kiln::cuda {
namespace {

// The driver, once resolved, is initialised; a failing cuInit is the error.
const LoadedApi<Driver>& load() {
  static const LoadedApi<Driver> loaded = [] {
    LoadedApi<Driver> l = load_api<Driver>(
        "the CUDA driver", "the CUDA driver (libcuda.so.1) could not be loaded: no NVIDIA driver is installed",
        [] {
          void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
          return lib ? lib : dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
        },
        [](void* lib, Driver& api) -> const char* {
          KILN_DRIVER_FUNCTIONS(KILN_RESOLVE_OR_RETURN)
          return nullptr;
        });
    if (!l.error.empty()) return l;
    CUresult r = l.api.cuInit(0);
    if (r != CUDA_SUCCESS) {
      const char* name = nullptr;
      l.api.cuGetErrorName(r, &name);
      l.error = std::string("cuInit failed: ") + (name ? name : "unknown error");
    }
    return l;
  }();
  return loaded;
}

}  // namespace

const Driver& driver() { return api_or_throw(load()); }

bool driver_available() { return load().error.empty(); }

const char* driver_error() { return load().error.c_str(); }

void check(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return;
  const Driver& d = load().api;
  const char* name = nullptr;
  const char* text = nullptr;
  if (d.cuGetErrorName) d.cuGetErrorName(result, &name);
  if (d.cuGetErrorString) d.cuGetErrorString(result, &text);
  std::string message = std::string(what) + ": " + (name ? name : "CUDA error " + std::to_string(result));
  if (text) message += std::string(" (") + text + ")";
  if (result == CUDA_ERROR_ILLEGAL_ADDRESS || result == CUDA_ERROR_LAUNCH_FAILED ||
      result == CUDA_ERROR_ILLEGAL_INSTRUCTION || result == CUDA_ERROR_MISALIGNED_ADDRESS)
    message += "; a kernel fault poisons the CUDA context: restart the process to use this GPU again";
  throw CudaError(message);
}

}  // namespace kiln::cuda
