#include "context.hpp"

#include <mutex>
#include <string>
#include <vector>

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
  static std::mutex mutex;
  static std::vector<CUcontext> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  check_device(device);
  if (contexts.empty()) contexts.resize(device_count(), nullptr);
  if (!contexts[device]) {
    const Driver& d = driver();
    CUdevice dev;
    check(d.cuDeviceGet(&dev, device), "cuDeviceGet");
    // Retained for the life of the process: arrays may outlive any scope.
    check(d.cuDevicePrimaryCtxRetain(&contexts[device], dev), "cuDevicePrimaryCtxRetain");
  }
  return contexts[device];
}

ContextScope::ContextScope(int device) {
  const Driver& d = driver();
  CUcontext want = primary_context(device);
  check(d.cuCtxGetCurrent(&previous_), "cuCtxGetCurrent");
  if (previous_ != want) {
    check(d.cuCtxSetCurrent(want), "cuCtxSetCurrent");
    changed_ = true;
  }
}

ContextScope::~ContextScope() {
  if (changed_) driver().cuCtxSetCurrent(previous_);
}

}  // namespace kiln::cuda
