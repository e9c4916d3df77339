#pragma once
// Primary contexts: kiln retains each device's primary context once and makes
// it current around every driver call, so it shares contexts with other CUDA
// libraries in the process.
#include "driver.hpp"

namespace kiln::cuda {

CUcontext primary_context(int device);
// CudaError when there is no usable GPU; ValueError unless 0 <= device < device_count().
void check_device(int device);

// Makes `device`'s primary context current for this scope (device 0's,
// where no context was current, stays current after it).
class ContextScope {
 public:
  explicit ContextScope(int device);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  CUcontext previous_ = nullptr;
  bool changed_ = false;
};

}  // namespace kiln::cuda
