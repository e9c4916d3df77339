#pragma once
// A user's CUDA C source compiled for one device, as its backend made it:
// what kiln::RawModule and kiln::RawKernel (and through them the Python
// faces RawKernel, RawModule, SourceModule, ElementwiseKernel,
// ReductionKernel and cuda.jit) compile, cache and launch with. The core
// asks a device kind's backend for one through its KernelTable.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

class CompiledModule {
 public:
  virtual ~CompiledModule() = default;
  // The kernel `name` (one of the module's name expressions, or the symbol
  // of a kernel that is not a template) as a handle for launch(); ValueError
  // when the module has none. The handle is the backend's own (a CUfunction
  // on a GPU).
  virtual uintptr_t function(const std::string& name) const = 0;
  // The address and size in bytes of the __device__ or __constant__
  // variable `name`; ValueError when there is none.
  virtual std::pair<void*, size_t> global(const std::string& name) const = 0;
  // Launches `function` over the grid on `stream` (a CUstream; ignored where
  // work is done when the call returns, the CPU). ValueError names a limit
  // the launch shape breaks.
  // The kernels of a module whose source holds kCooperativeMarker launch
  // cooperatively: all their blocks run at once, so that they can meet at
  // a grid barrier (kiln/device/grid_sync.cuh).
  virtual void launch(uintptr_t function, const unsigned grid[3], const unsigned block[3], size_t shared_bytes,
                      uintptr_t stream, void** args) const = 0;
  // The most blocks a cooperative launch of `function` with blocks of
  // `block_threads` threads and `shared_bytes` of dynamic shared memory can
  // have (Numba's max_cooperative_grid_blocks).
  virtual long long max_cooperative_blocks(uintptr_t function, unsigned block_threads, size_t shared_bytes) const = 0;
};

// The line that marks a module's kernels as cooperative (see launch()).
inline constexpr const char* kCooperativeMarker = "#define KILN_COOPERATIVE_KERNEL";
inline bool is_cooperative(const std::string& source) { return source.find(kCooperativeMarker) != std::string::npos; }

// Compiles `source` for device `device` of the backend's kind with `options`
// (NVRTC's; the host compiler takes -D, -U and -I), lowering each of
// `name_expressions` ("f<float>"); CompileError with the log on failure.
// Backends cache the result (in memory and on disk).
using CompileModuleFn = std::shared_ptr<const CompiledModule> (*)(int device, const std::string& source,
                                                                  const std::vector<std::string>& options,
                                                                  const std::vector<std::string>& name_expressions);

}  // namespace kiln
