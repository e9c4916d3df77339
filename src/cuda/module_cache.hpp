#pragma once
// Compiled kernels: CUBINs compiled by NVRTC for a device's exact
// architecture, cached on disk in $KILN_CACHE_DIR (default ~/.cache/kiln)
// and loaded once per device.
#include <cstdint>
#include <string>
#include <vector>

#include "driver.hpp"

namespace kiln::cuda {

// What a program includes besides kiln/device/*.cuh.
// What a program's #include finds besides NVRTC's own headers: kiln's device
// headers; with CCCL's (kiln's CUB-based kernels); or, for users' code, the
// CUDA toolkit's and CCCL's where they are installed.
enum class Includes : uint8_t { Kiln, KilnAndCccl, KilnAndToolkit };

// The function `kernel_name` of `source`, loaded on `device`. Compiles on a
// cache miss; CompileError on failure.
CUfunction load_kernel(int device, const std::string& source, const std::string& kernel_name,
                       Includes includes = Includes::Kiln);

// The CUBIN for `source` on sm_<arch>, from the disk cache or NVRTC.
std::string cubin_for(const std::string& source, const std::string& program_name, int arch,
                      Includes includes = Includes::Kiln);

std::string cache_directory();

// A user's program (RawModule, SourceModule) compiled with its own options,
// loaded on a device; (*lowered_names)[i] is the symbol of name_expressions[i].
CUmodule load_program(int device, const std::string& source, const std::vector<std::string>& options,
                      const std::vector<std::string>& name_expressions, std::vector<std::string>* lowered_names);

}  // namespace kiln::cuda
