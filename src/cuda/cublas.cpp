#include "cublas.hpp"

#include <atomic>
#include <string>

#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "loaded_api.hpp"
#include "toolkit_library.hpp"

namespace kiln::cuda {
namespace {

// Cublas's members are named for what they do; the symbols carry _v2.
const LoadedApi<Cublas>& load() {
  static const LoadedApi<Cublas> loaded = load_api<Cublas>(
      "cuBLAS", "cuBLAS (libcublas.so) could not be loaded: install the CUDA toolkit or set CUDA_HOME",
      [] { return open_toolkit_library({"libcublas.so.13", "libcublas.so.12", "libcublas.so"}); },
      [](void* lib, Cublas& api) -> const char* {
        const char* missing = nullptr;
        auto resolve = [&](auto& fn, const char* name) { resolve_named(lib, fn, name, missing); };
        resolve(api.create, "cublasCreate_v2");
        resolve(api.set_stream, "cublasSetStream_v2");
        resolve(api.status_string, "cublasGetStatusString");
        resolve(api.gemm, "cublasGemmEx");
        resolve(api.gemm_strided_batched, "cublasGemmStridedBatchedEx");
        static const char* const getrf_names[4] = {"cublasSgetrfBatched", "cublasDgetrfBatched",
                                                   "cublasCgetrfBatched", "cublasZgetrfBatched"};
        static const char* const getrs_names[4] = {"cublasSgetrsBatched", "cublasDgetrsBatched",
                                                   "cublasCgetrsBatched", "cublasZgetrsBatched"};
        static const char* const geqrf_names[4] = {"cublasSgeqrfBatched", "cublasDgeqrfBatched",
                                                   "cublasCgeqrfBatched", "cublasZgeqrfBatched"};
        for (const char* typed : {resolve_typed(lib, api.getrf_batched, getrf_names),
                                  resolve_typed(lib, api.getrs_batched, getrs_names),
                                  resolve_typed(lib, api.geqrf_batched, geqrf_names)})
          if (!missing) missing = typed;
        return missing;
      });
  return loaded;
}

std::atomic<cublasHandle_t> handles[kMaxDevices];

}  // namespace

const Cublas& cublas() { return api_or_throw(load()); }

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
