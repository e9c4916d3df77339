#pragma once
// Per-device caches on the launch path: a lookup that hits is one atomic
// load, and only a miss takes a lock and builds.
#include <atomic>
#include <mutex>
#include <string>

#include "driver.hpp"
#include "kiln/error.hpp"

namespace kiln::cuda {

inline constexpr int kMaxDevices = 16;

inline void check_device_index(int device) {
  if (device < 0 || device >= kMaxDevices)
    throw ValueError("kiln supports CUDA devices 0 to " + std::to_string(kMaxDevices - 1));
}

// The value in `slot`, built by `build()` on first use (P is a pointer type).
template <class P, class Build>
P load_or_build(std::atomic<P>& slot, Build build) {
  if (P p = slot.load(std::memory_order_acquire)) return p;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  P p = slot.load(std::memory_order_relaxed);
  if (!p) {
    p = build();
    slot.store(p, std::memory_order_release);
  }
  return p;
}

// A device attribute read once per device (they never change).
int cached_attribute(int device, CUdevice_attribute attribute);

}  // namespace kiln::cuda
