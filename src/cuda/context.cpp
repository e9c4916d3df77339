#include "context.hpp"

#include <atomic>
#include <mutex>
#include <string>

#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"

namespace kiln::cuda {

void check_device(int device) {
  int n = device_count();
  if (n == 0) throw CudaError("CUDA is not available: " + unavailable_reason());
  if (device < 0 || device >= n)
    throw ValueError("device: CUDA device " + std::to_string(device) + " does not exist (" +
                     std::to_string(n) + " device" + (n == 1 ? "" : "s") + " found)");
}

CUcontext primary_context(int device) {
  // Looked up on every launch: a lock-free read once the context exists.
  static std::atomic<CUcontext> contexts[kMaxDevices] = {};
  if (device >= 0 && device < kMaxDevices)
    if (CUcontext known = contexts[device].load(std::memory_order_acquire)) return known;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  check_device(device);
  check_device_index(device);
  if (CUcontext known = contexts[device].load(std::memory_order_acquire)) return known;
  const Driver& d = driver();
  CUdevice dev;
  check(d.cuDeviceGet(&dev, device), "cuDeviceGet");
  // Retained for the life of the process: arrays may outlive any scope.
  CUcontext context;
  check(d.cuDevicePrimaryCtxRetain(&context, dev), "cuDevicePrimaryCtxRetain");
  contexts[device].store(context, std::memory_order_release);
  return context;
}

ContextScope::ContextScope(int device) {
  const Driver& d = driver();
  CUcontext want = primary_context(device);
  check(d.cuCtxGetCurrent(&previous_), "cuCtxGetCurrent");
  if (previous_ != want) {
    check(d.cuCtxSetCurrent(want), "cuCtxSetCurrent");
    // A thread with no context gets device 0's primary context for good, as
    // the CUDA runtime gives one at its first call (CuPy, PyTorch and Numba
    // leave it current likewise): restoring "none" after every op cost a
    // kiln-only program two driver calls an op. Any other context is put
    // back, so the runtime's idea of the current device never moves.
    changed_ = !(previous_ == nullptr && device == 0);
  }
}

ContextScope::~ContextScope() {
  if (changed_) driver().cuCtxSetCurrent(previous_);
}

}  // namespace kiln::cuda
