#include "cublas.hpp"

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
  Cublas api{};
  std::string error;
};

const Loaded& load() {
  static const Loaded loaded = [] {
    Loaded l;
    void* lib = open_toolkit_library({"libcublas.so.13", "libcublas.so.12", "libcublas.so"});
    if (!lib) {
      l.error = "cuBLAS (libcublas.so) could not be loaded: install the CUDA toolkit or set CUDA_HOME";
      return l;
    }
    auto resolve = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && l.error.empty()) l.error = std::string("cuBLAS is too old: it lacks ") + name;
    };
    resolve(l.api.create, "cublasCreate_v2");
    resolve(l.api.set_stream, "cublasSetStream_v2");
    resolve(l.api.status_string, "cublasGetStatusString");
    resolve(l.api.gemm, "cublasGemmEx");
    resolve(l.api.gemm_strided_batched, "cublasGemmStridedBatchedEx");
    return l;
  }();
  return loaded;
}

std::atomic<cublasHandle_t> handles[kMaxDevices];

}  // namespace

const Cublas& cublas() {
  const Loaded& l = load();
  if (!l.error.empty()) throw CudaError(l.error);
  return l.api;
}

void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) throw CudaError(std::string(what) + ": " + cublas().status_string(status));
}

cublasHandle_t cublas_handle(int device) {
  check_device_index(device);
  cublasHandle_t handle = load_or_build(handles[device], [] {
    cublasHandle_t h = nullptr;
    check(cublas().create(&h), "cublasCreate");
    return h;
  });
  check(cublas().set_stream(handle, reinterpret_cast<cudaStream_t>(current_stream_handle(device))),
        "cublasSetStream");
  return handle;
}

}  // namespace kiln::cuda
