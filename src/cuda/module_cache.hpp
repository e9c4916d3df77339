#pragma once
// Compiled kernels: CUBINs compiled by NVRTC for a device's exact
// architecture, cached on disk in $KILN_CACHE_DIR (default ~/.cache/kiln)
// and loaded once per device.
#include <cstdint>
#include <string>

#include "driver.hpp"

namespace kiln::cuda {

// What a program includes besides kiln/device/*.cuh.
enum class Includes : uint8_t { Kiln, KilnAndCccl };

// The function `kernel_name` of `source`, loaded on `device`. Compiles on a
// cache miss; CompileError on failure.
CUfunction load_kernel(int device, const std::string& source, const std::string& kernel_name,
                       Includes includes = Includes::Kiln);

// The CUBIN for `source` on sm_<arch>, from the disk cache or NVRTC.
std::string cubin_for(const std::string& source, const std::string& program_name, int arch,
                      Includes includes = Includes::Kiln);

std::string cache_directory();

}  // namespace kiln::cuda
