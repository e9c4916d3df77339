// kiln::cuda_libraries (see kiln/config.hpp): what the lazy loader finds.
#include <dlfcn.h>

#include "cccl.hpp"
#include "driver.hpp"
#include "kiln/config.hpp"
#include "kiln/cuda.hpp"
#include "nvrtc.hpp"

namespace kiln {

CudaLibraries cuda_libraries() {
  CudaLibraries found;
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
  return found;
}

}  // namespace kiln
