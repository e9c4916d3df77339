#pragma once
// Compiled kernels: CUBINs compiled by NVRTC for a device's exact
// architecture, cached on disk in $KILN_CACHE_DIR (default ~/.cache/kiln)
// and loaded once per device.
#include <string>

#include "driver.hpp"

namespace kiln::cuda {

// The function `kernel_name` of `source` (which may include kiln/device/*.cuh),
// loaded on `device`. Compiles on a cache miss; CompileError on failure.
CUfunction load_kernel(int device, const std::string& source, const std::string& kernel_name);

// The CUBIN for `source` on sm_<arch>, from the disk cache or NVRTC.
std::string cubin_for(const std::string& source, const std::string& program_name, int arch);

std::string cache_directory();

}  // namespace kiln::cuda
