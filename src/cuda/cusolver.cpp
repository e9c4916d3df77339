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
#define KILN_RESOLVE_OPTIONAL(name) api.name = reinterpret_cast<decltype(&::name)>(dlsym(lib, #name));
        KILN_CUSOLVER_OPTIONAL_FUNCTIONS(KILN_RESOLVE_OPTIONAL)
#undef KILN_RESOLVE_OPTIONAL
        static const char* const potrf_names[4] = {"cusolverDnSpotrfBatched", "cusolverDnDpotrfBatched",
                                                   "cusolverDnCpotrfBatched", "cusolverDnZpotrfBatched"};
        static const char* const gesvdj_size_names[4] = {
            "cusolverDnSgesvdjBatched_bufferSize", "cusolverDnDgesvdjBatched_bufferSize",
            "cusolverDnCgesvdjBatched_bufferSize", "cusolverDnZgesvdjBatched_bufferSize"};
        static const char* const gesvdj_names[4] = {"cusolverDnSgesvdjBatched", "cusolverDnDgesvdjBatched",
                                                    "cusolverDnCgesvdjBatched", "cusolverDnZgesvdjBatched"};
        if (const char* missing = resolve_typed(lib, api.potrf_batched, potrf_names)) return missing;
        static const char* const syevj_size_names[4] = {
            "cusolverDnSsyevjBatched_bufferSize", "cusolverDnDsyevjBatched_bufferSize",
            "cusolverDnCheevjBatched_bufferSize", "cusolverDnZheevjBatched_bufferSize"};
        static const char* const syevj_names[4] = {"cusolverDnSsyevjBatched", "cusolverDnDsyevjBatched",
                                                   "cusolverDnCheevjBatched", "cusolverDnZheevjBatched"};
        if (const char* missing = resolve_typed(lib, api.gesvdj_batched_buffer_size, gesvdj_size_names))
          return missing;
        if (const char* missing = resolve_typed(lib, api.gesvdj_batched, gesvdj_names)) return missing;
        static const char* const gesvdj_one_size_names[4] = {
            "cusolverDnSgesvdj_bufferSize", "cusolverDnDgesvdj_bufferSize", "cusolverDnCgesvdj_bufferSize",
            "cusolverDnZgesvdj_bufferSize"};
        static const char* const gesvdj_one_names[4] = {"cusolverDnSgesvdj", "cusolverDnDgesvdj",
                                                        "cusolverDnCgesvdj", "cusolverDnZgesvdj"};
        if (const char* missing = resolve_typed(lib, api.gesvdj_buffer_size, gesvdj_one_size_names)) return missing;
        if (const char* missing = resolve_typed(lib, api.gesvdj, gesvdj_one_names)) return missing;
        if (const char* missing = resolve_typed(lib, api.syevj_batched_buffer_size, syevj_size_names))
          return missing;
        return resolve_typed(lib, api.syevj_batched, syevj_names);
      });
  return loaded;
}

std::atomic<CusolverHandle*> handles[kMaxDevices];

}  // namespace

const Cusolver& cusolver() { return api_or_throw(load()); }

int cusolver_version() {
  int version = 0;
  check(cusolver().cusolverGetVersion(&version), "cusolverGetVersion");
  return version;
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
