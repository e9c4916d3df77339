// Users' kernels on CUDA devices (kiln::RawModule through the CUDA
// KernelTable): compiled by NVRTC with their name expressions lowered,
// looked up in their modules, checked against the device's limits, launched.
#include <mutex>
#include <unordered_map>

#include "backend.hpp"
#include "context.hpp"
#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "module_cache.hpp"

namespace kiln::cuda {
namespace {

CUfunction as_function(uintptr_t f) { return reinterpret_cast<CUfunction>(f); }

// A kernel's block and dynamic shared memory limits, read from the driver
// once (they are checked on every launch) and forgotten when the user
// changes an attribute.
struct KernelLimits {
  int max_threads = 0, max_dynamic_shared = 0;
};
std::mutex limits_mutex;
std::unordered_map<uintptr_t, KernelLimits> limits_by_function;

KernelLimits kernel_limits(uintptr_t fn) {
  {
    std::lock_guard<std::mutex> lock(limits_mutex);
    auto it = limits_by_function.find(fn);
    if (it != limits_by_function.end()) return it->second;
  }
  KernelLimits limits{function_attribute(fn, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                      function_attribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)};
  std::lock_guard<std::mutex> lock(limits_mutex);
  limits_by_function[fn] = limits;
  return limits;
}

void launch_user_kernel(uintptr_t fn, int device, const unsigned grid[3], const unsigned block[3],
                        size_t shared_bytes, uintptr_t stream, void** args, bool cooperative);
long long max_resident_blocks(uintptr_t fn, int device, unsigned block_threads, size_t shared_bytes);

// A module loaded on one device; name expressions are looked up by their
// lowered symbols.
class CudaCompiledModule : public CompiledModule {
 public:
  CudaCompiledModule(int device, const std::string& source, const std::vector<std::string>& options,
                     const std::vector<std::string>& name_expressions)
      : device_(device), cooperative_(is_cooperative(source)), name_expressions_(name_expressions) {
    check_device_index(device);
    // Users' code written for nvcc may use what nvcc's host headers declare.
    std::vector<std::string> with_prelude = options;
    with_prelude.push_back("--pre-include=kiln_nvcc_prelude.h");
    module_ = load_program(device, source, with_prelude, name_expressions, &lowered_names_);
  }

  uintptr_t function(const std::string& name) const override {
    std::string symbol = name;
    for (size_t i = 0; i < name_expressions_.size(); ++i)
      if (name_expressions_[i] == name) symbol = lowered_names_.at(i);
    ContextScope scope(device_);
    CUfunction fn;
    CUresult r = driver().cuModuleGetFunction(&fn, module_, symbol.c_str());
    if (r == CUDA_ERROR_NOT_FOUND) throw ValueError("the module has no kernel named '" + name + "'");
    check(r, "cuModuleGetFunction");
    name_function(fn, name);
    return reinterpret_cast<uintptr_t>(fn);
  }

  std::pair<void*, size_t> global(const std::string& name) const override {
    ContextScope scope(device_);
    CUdeviceptr address = 0;
    size_t size = 0;
    CUresult r = driver().cuModuleGetGlobal_v2(&address, &size, module_, name.c_str());
    if (r == CUDA_ERROR_NOT_FOUND) throw ValueError("the module has no global variable named '" + name + "'");
    check(r, "cuModuleGetGlobal");
    return {reinterpret_cast<void*>(static_cast<uintptr_t>(address)), size};
  }

  void launch(uintptr_t function, const unsigned grid[3], const unsigned block[3], size_t shared_bytes,
              uintptr_t stream, void** args) const override {
    launch_user_kernel(function, device_, grid, block, shared_bytes, stream, args, cooperative_);
  }

  long long max_cooperative_blocks(uintptr_t function, unsigned block_threads, size_t shared_bytes) const override {
    return max_resident_blocks(function, device_, block_threads, shared_bytes);
  }

 private:
  int device_;
  bool cooperative_;
  std::vector<std::string> name_expressions_, lowered_names_;
  CUmodule module_ = nullptr;  // cached by the module cache for the process's life
};

std::shared_ptr<const CompiledModule> compile_module(int device, const std::string& source,
                                                     const std::vector<std::string>& options,
                                                     const std::vector<std::string>& name_expressions) {
  return std::make_shared<CudaCompiledModule>(device, source, options, name_expressions);
}

}  // namespace

void register_user_modules(KernelTable& table) {
  table.compile_module = &compile_module;
  table.current_stream = &current_stream_handle;
}

int function_attribute(uintptr_t fn, int attribute) {
  int value = 0;
  check(driver().cuFuncGetAttribute(&value, static_cast<CUfunction_attribute>(attribute), as_function(fn)),
        "cuFuncGetAttribute");
  return value;
}

void set_function_cache_config(uintptr_t fn, int config) {
  if (config < 0 || config > 3) throw ValueError("cache config: expected 0 to 3 (a CUfunc_cache), got " + std::to_string(config));
  check(driver().cuFuncSetCacheConfig(as_function(fn), static_cast<CUfunc_cache>(config)), "cuFuncSetCacheConfig");
}

void set_function_attribute(uintptr_t fn, int attribute, int value) {
  check(driver().cuFuncSetAttribute(as_function(fn), static_cast<CUfunction_attribute>(attribute), value),
        "cuFuncSetAttribute");
  std::lock_guard<std::mutex> lock(limits_mutex);
  limits_by_function.erase(fn);
}

namespace {

// The blocks of `fn` the whole device holds at once: what a cooperative
// launch may have.
long long max_resident_blocks(uintptr_t fn, int device, unsigned block_threads, size_t shared_bytes) {
  ContextScope scope(device);
  int per_multiprocessor = 0;
  check(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, as_function(fn),
                                                             static_cast<int>(block_threads), shared_bytes),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return 1ll * per_multiprocessor * cached_attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
}

void launch_user_kernel(uintptr_t fn, int device, const unsigned grid[3], const unsigned block[3],
                        size_t shared_bytes, uintptr_t stream, void** args, bool cooperative) {
  ContextScope scope(device);
  const CUdevice_attribute max_block[3] = {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                           CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  const CUdevice_attribute max_grid[3] = {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                          CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  for (int d = 0; d < 3; ++d) {
    if (grid[d] == 0 || block[d] == 0) throw ValueError("grid and block dimensions must be at least 1");
    const unsigned block_limit = static_cast<unsigned>(cached_attribute(device, max_block[d]));
    const unsigned grid_limit = static_cast<unsigned>(cached_attribute(device, max_grid[d]));
    if (block[d] > block_limit)
      throw ValueError("block dimension " + std::to_string(d) + " is " + std::to_string(block[d]) +
                       "; the device's limit is " + std::to_string(block_limit));
    if (grid[d] > grid_limit)
      throw ValueError("grid dimension " + std::to_string(d) + " is " + std::to_string(grid[d]) +
                       "; the device's limit is " + std::to_string(grid_limit));
  }
  const unsigned long long threads = 1ull * block[0] * block[1] * block[2];
  const KernelLimits limits = kernel_limits(fn);
  const int max_threads = limits.max_threads;
  if (threads > static_cast<unsigned long long>(max_threads))
    throw ValueError("a block of " + std::to_string(threads) + " threads is more than this kernel's limit of " +
                     std::to_string(max_threads));
  const int max_shared = limits.max_dynamic_shared;
  if (shared_bytes > static_cast<size_t>(max_shared))
    throw ValueError("shared_mem of " + std::to_string(shared_bytes) + " bytes is more than this kernel's limit of " +
                     std::to_string(max_shared) + " (raise it with max_dynamic_shared_size_bytes)");
  if (cooperative) {
    const long long blocks = 1ll * grid[0] * grid[1] * grid[2];
    const long long resident = max_resident_blocks(fn, device, static_cast<unsigned>(threads), shared_bytes);
    if (blocks > resident)
      throw ValueError("a cooperative launch (the kernel syncs its grid) of " + std::to_string(blocks) +
                       " blocks is more than the " + std::to_string(resident) +
                       " this kernel can have running at once on the device (max_cooperative_grid_blocks)");
  }
  launch_kernel(as_function(fn), grid, block, static_cast<unsigned>(shared_bytes), reinterpret_cast<CUstream>(stream),
                args, cooperative);
}

}  // namespace

}  // namespace kiln::cuda
