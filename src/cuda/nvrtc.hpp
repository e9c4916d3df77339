#pragma once
// NVRTC, loaded with dlopen on first use (the toolkit's or NVIDIA's wheels').
#include <string>
#include <utility>
#include <vector>

namespace kiln::cuda {

// (major, minor) of the NVRTC found; CudaError when there is none.
std::pair<int, int> nvrtc_version();
// The file the NVRTC library was loaded from ("" if unknown).
std::string nvrtc_library_path();

// Compiles CUDA C++ for sm_<arch> to a CUBIN. `headers` are (include name,
// contents) pairs the source may #include. CompileError carries the log and
// the source lines around the first error.
std::string compile_cubin(const std::string& source, const std::string& program_name, int arch,
                          const std::vector<std::string>& options,
                          const std::vector<std::pair<std::string, std::string>>& headers);

}  // namespace kiln::cuda
