#include "driver.hpp"

#include <pthread.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include "kiln/error.hpp"
#include "loaded_api.hpp"

namespace kiln::cuda {
namespace {

// Set in a child forked after the driver was initialised: CUDA's state does
// not survive fork, and the driver's own errors there are unrelated-looking.
std::atomic<bool> forked_after_init{false};
constexpr const char* kForked =
    "CUDA initialized before forking: this process is a fork of one that had initialised CUDA, and CUDA cannot "
    "be used in it (start child processes with multiprocessing's 'spawn' or 'forkserver' method)";
void mark_forked() { forked_after_init.store(true, std::memory_order_relaxed); }

// The driver, once resolved, is initialised; a failing cuInit is the error.
const LoadedApi<Driver>& load() {
  static const LoadedApi<Driver> loaded = [] {
    LoadedApi<Driver> l = load_api<Driver>(
        "the CUDA driver", "the CUDA driver (libcuda.so.1) could not be loaded: no NVIDIA driver is installed",
        [] {
          void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
          return lib ? lib : dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
        },
        [](void* lib, Driver& api) -> const char* {
          KILN_DRIVER_FUNCTIONS(KILN_RESOLVE_OR_RETURN)
          return nullptr;
        });
    if (!l.error.empty()) return l;
    CUresult r = l.api.cuInit(0);
    if (r != CUDA_SUCCESS) {
      const char* name = nullptr;
      l.api.cuGetErrorName(r, &name);
      l.error = std::string("cuInit failed: ") + (name ? name : "unknown error");
    } else {
      pthread_atfork(nullptr, nullptr, &mark_forked);
    }
    return l;
  }();
  return loaded;
}

}  // namespace

const Driver& driver() {
  if (forked_after_init.load(std::memory_order_relaxed)) throw CudaError(kForked);
  return api_or_throw(load());
}

bool driver_available() { return !forked_after_init.load(std::memory_order_relaxed) && load().error.empty(); }

const char* driver_error() {
  return forked_after_init.load(std::memory_order_relaxed) ? kForked : load().error.c_str();
}

namespace {

std::mutex blame_mutex;
std::unordered_map<CUfunction, std::string>& function_names() {
  static auto* names = new std::unordered_map<CUfunction, std::string>();  // outlives static destruction
  return *names;
}
std::atomic<CUfunction> last_launched{nullptr};
std::map<int, std::string>& poisoned_devices() {  // device -> the message every later failure repeats
  static auto* poisoned = new std::map<int, std::string>();
  return *poisoned;
}

// Errors after which the context cannot be used again (CUDA's "sticky" errors).
bool is_sticky(CUresult r) {
  switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS: case CUDA_ERROR_LAUNCH_TIMEOUT: case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR: case CUDA_ERROR_ILLEGAL_INSTRUCTION: case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE: case CUDA_ERROR_INVALID_PC: case CUDA_ERROR_LAUNCH_FAILED:
      return true;
    default:
      return false;
  }
}

}  // namespace

void name_function(CUfunction fn, const std::string& name) {
  std::lock_guard<std::mutex> lock(blame_mutex);
  function_names()[fn] = name;
}

void launch_kernel(CUfunction fn, const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
                   CUstream stream, void** args, bool cooperative) {
  last_launched.store(fn, std::memory_order_relaxed);
  if (cooperative)
    check(driver().cuLaunchCooperativeKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes,
                                             stream, args),
          "cuLaunchCooperativeKernel");
  else
    check(driver().cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes, stream,
                                  args, nullptr),
          "cuLaunchKernel");
}

void check(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return;
  const Driver& d = load().api;
  const char* name = nullptr;
  const char* text = nullptr;
  if (d.cuGetErrorName) d.cuGetErrorName(result, &name);
  if (d.cuGetErrorString) d.cuGetErrorString(result, &text);
  std::string message = std::string(what) + ": " + (name ? name : "CUDA error " + std::to_string(result));
  if (text) message += std::string(" (") + text + ")";
  CUdevice device = -1;
  if (d.cuCtxGetDevice && d.cuCtxGetDevice(&device) != CUDA_SUCCESS) device = -1;
  std::lock_guard<std::mutex> lock(blame_mutex);
  auto& poisoned = poisoned_devices();
  if (auto known = poisoned.find(device); known != poisoned.end()) throw ContextPoisoned(known->second);
  if (!is_sticky(result)) throw CudaError(message);
  std::string kernel = "a kernel";
  if (auto named = function_names().find(last_launched.load()); named != function_names().end())
    kernel = "kernel '" + named->second + "'";
  const std::string where = device >= 0 ? "CUDA device " + std::to_string(device) : "the current CUDA device";
  throw ContextPoisoned(poisoned[device] =
                            where + " is unusable: " + message + ", reported after " + kernel +
                            " (the last kiln launched before the error). A kernel fault poisons the CUDA "
                            "context, so every later call on this device fails: restart the process to use "
                            "this GPU again.");
}

}  // namespace kiln::cuda
