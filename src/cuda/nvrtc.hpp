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
// contents) pairs the source may #include; each of `name_expressions` (e.g.
// "f<float>") gets its mangled name in `lowered_names`; `log`, where given,
// gets the compiler's messages (ptxas's report under -Xptxas=-v).
// CompileError carries the log and the source lines around the first error.
std::string compile_cubin(const std::string& source, const std::string& program_name, int arch,
                          const std::vector<std::string>& options,
                          const std::vector<std::pair<std::string, std::string>>& headers,
                          const std::vector<std::string>& name_expressions = {},
                          std::vector<std::string>* lowered_names = nullptr, std::string* log = nullptr);

// The PTX of CUDA C++ for compute_<arch> (what cuda.jit's inspect_asm and
// compile_ptx show); needs NVRTC only, no GPU.
std::string compile_ptx(const std::string& source, const std::string& program_name, int arch,
                        const std::vector<std::string>& options,
                        const std::vector<std::pair<std::string, std::string>>& headers);

}  // namespace kiln::cuda
