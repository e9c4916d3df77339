#pragma once
// What kiln found at run time (for kiln.show_config()), and NVTX ranges for
// profilers such as Nsight Systems.
#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

// $KILN_CACHE_DIR, or ~/.cache/kiln.
std::string kernel_cache_directory();
// The kernel cache: its compiled kernels and users' extension builds, their
// bytes, the limit ($KILN_CACHE_MAX_BYTES, default 4 GiB; beyond it the
// least recently used are removed) and whether kiln can write there.
struct KernelCacheInfo {
  std::string directory;
  uint64_t entries = 0, bytes = 0, max_bytes = 0;
  bool writable = false;
};
KernelCacheInfo kernel_cache_info();
// Removes the cache's entries (processes using one keep it); how many.
uint64_t clear_kernel_cache();
// Removes least recently used entries until the cache is within its limit
// (kiln does this as it stores kernels; builders of other entries call it).
void trim_kernel_cache();

// The CUDA libraries kiln's lazy loader finds; a field is empty where nothing
// was found, and `problem` says why.
struct CudaLibraries {
  std::string driver;        // the libcuda file
  std::string nvrtc;         // the NVRTC file
  std::string nvrtc_version; // "13.0"
  std::string cccl_include;  // the directory with cub/ and cuda/std/
  std::string problem;
};
CudaLibraries cuda_libraries();

// The CPU's BLAS/LAPACK, loaded with dlopen on first use (see
// src/cpu/blas_library.hpp for where kiln looks): a library file to try
// before the system's, and the file in use ("" when none was found).
void add_blas_library_candidate(const std::string& path);
std::string blas_library_path();

// The host C++ compiler kiln runs for CUDA C on the CPU (the first of $CXX,
// c++, g++, clang++ on PATH): its command words and an identity (path,
// size, time) for cache keys. kiln.cpp_extension builds users' extensions
// with it. CompileError when there is none.
struct HostCompiler {
  std::vector<std::string> command;
  std::string identity;
};
HostCompiler host_compiler();

// Opens and closes a named range on this thread's NVTX stack (a no-op when no
// profiler is attached, or kiln was built without the NVTX headers).
// `argb` 0 leaves the colour to the tool.
void range_push(const std::string& message, uint32_t argb = 0);
void range_pop();
void mark(const std::string& message, uint32_t argb = 0);  // an instant event
bool has_nvtx();  // whether kiln was built with the NVTX headers

}  // namespace kiln
