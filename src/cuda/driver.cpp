#include "driver.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "kiln/error.hpp"

namespace kiln::cuda {
namespace {

struct Loaded {
  Driver api;
  std::string error;  // empty when the driver works
};

const Loaded& load() {
  static const Loaded loaded = [] {
    Loaded l;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      l.error = "the CUDA driver (libcuda.so.1) could not be loaded: no NVIDIA driver is installed";
      return l;
    }
#define KILN_DRIVER_RESOLVE(name)                                                     \
  l.api.name = reinterpret_cast<decltype(&::name)>(dlsym(lib, #name));               \
  if (!l.api.name) {                                                                  \
    l.error = "the CUDA driver is too old: it lacks " #name;                          \
    return l;                                                                         \
  }
    KILN_DRIVER_FUNCTIONS(KILN_DRIVER_RESOLVE)
#undef KILN_DRIVER_RESOLVE
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

const Driver& driver() {
  const Loaded& l = load();
  if (!l.error.empty()) throw CudaError(l.error);
  return l.api;
}

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
