#include "cusolver.hpp"

#include <dlfcn.h>

#include <atomic>
#include <string>

#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "toolkit_library.hpp"

namespace kiln::cuda {
namespace {

struct Loaded {
  Cusolver api;
  std::string error;
};

const Loaded& load() {
  static const Loaded loaded = [] {
    Loaded l;
    void* lib = open_toolkit_library({"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"});
    if (!lib) {
      l.error = "cuSOLVER (libcusolver.so) could not be loaded: install the CUDA toolkit or set CUDA_HOME";
      return l;
    }
#define KILN_CUSOLVER_RESOLVE(name)                                                   \
  l.api.name = reinterpret_cast<decltype(&::name)>(dlsym(lib, #name));               \
  if (!l.api.name) {                                                                  \
    l.error = "cuSOLVER is too old: it lacks " #name;                                 \
    return l;                                                                         \
  }
    KILN_CUSOLVER_FUNCTIONS(KILN_CUSOLVER_RESOLVE)
#undef KILN_CUSOLVER_RESOLVE
    return l;
  }();
  return loaded;
}

std::atomic<CusolverHandle*> handles[kMaxDevices];

}  // namespace

const Cusolver& cusolver() {
  const Loaded& l = load();
  if (!l.error.empty()) throw CudaError(l.error);
  return l.api;
}

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
