#pragma once
// CUDA C compiled for the CPU by the host C++ compiler, against
// include/kiln/device/host_runtime.hpp, into a shared library that is cached
// on disk like the GPU's CUBINs and loaded once per process.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kiln/device/host_launch.hpp"

namespace kiln::cpu {

struct HostModule {
  void* library = nullptr;
  std::vector<kiln_host::Entry> entries;  // one per kernel expression
  std::vector<std::string> names;         // the kernel expressions, for messages
  // How its blocks run, as the entry points compiled it (kiln_host::run_grid
  // picks the form; these say which it picked):
  bool uses_barriers = false;             // the source calls __syncthreads or warp intrinsics
  std::vector<bool> blockwise;            // per kernel: it runs a block in one call, without fibers
  bool cooperative = false;               // its kernels sync their grid (kiln::is_cooperative)
};

// `kernels` are C++ expressions naming kernels of `source` ("add", "f<float>").
// Of `options` (NVRTC-style), -D, -U and -I are passed on; the rest only
// concern NVRTC. CompileError with the log and the source lines around the
// first error; CompileError also when no host compiler is found ($CXX, c++,
// g++, clang++).
std::shared_ptr<const HostModule> load_host_module(const std::string& source, const std::vector<std::string>& options,
                                                   const std::vector<std::string>& kernels);

// The address and size of the global variable `name` (a __device__ or
// __constant__ variable of the source); ValueError if there is none.
std::pair<void*, size_t> host_global(const HostModule& module, const std::string& name);

// Runs `entry` over the grid; ValueError naming the limit for a bad launch
// shape, RuntimeError when the kernel misbehaves (e.g. a barrier reached in
// a kernel run without fibers).
void launch_host(const HostModule& module, size_t kernel, const unsigned grid[3], const unsigned block[3],
                 size_t shared_bytes, void** args);

}  // namespace kiln::cpu
