// kernel_cache_directory, cuda_libraries and NVTX ranges (see kiln/config.hpp).
#include "kiln/config.hpp"

#include <dlfcn.h>

#include "disk_cache.hpp"
#include "kiln/error.hpp"
#ifdef KILN_WITH_CUDA
#include "../cuda/cccl.hpp"
#include "../cuda/driver.hpp"
#include "../cuda/nvrtc.hpp"
#include "kiln/cuda.hpp"
#endif
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define KILN_HAVE_NVTX 1
#endif

namespace kiln {

std::string kernel_cache_directory() { return detail::cache_directory(); }

CudaLibraries cuda_libraries() {
  CudaLibraries found;
#ifdef KILN_WITH_CUDA
  if (!cuda::is_available()) {
    found.problem = cuda::unavailable_reason();
  } else {
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(cuda::driver().cuInit), &info) && info.dli_fname) found.driver = info.dli_fname;
  }
  try {
    auto [major, minor] = cuda::nvrtc_version();
    found.nvrtc_version = std::to_string(major) + "." + std::to_string(minor);
    found.nvrtc = cuda::nvrtc_library_path();
    found.cccl_include = cuda::cccl_include_dir(found.nvrtc);
  } catch (const std::exception& e) {
    found.problem += (found.problem.empty() ? "" : "; ") + std::string(e.what());
  }
#else
  found.problem = "kiln was built without CUDA";
#endif
  return found;
}

#ifdef KILN_HAVE_NVTX
void range_push(const std::string& message, uint32_t argb) {
  nvtxEventAttributes_t a = {};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message.c_str();
  if (argb) {
    a.colorType = NVTX_COLOR_ARGB;
    a.color = argb;
  }
  nvtxRangePushEx(&a);
}
void range_pop() { nvtxRangePop(); }
bool has_nvtx() { return true; }
#else
void range_push(const std::string&, uint32_t) {}
void range_pop() {}
bool has_nvtx() { return false; }
#endif

}  // namespace kiln
