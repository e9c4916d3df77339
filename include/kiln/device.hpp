#pragma once
#include <cstdint>
#include <string>

namespace kiln {

enum class DeviceKind : uint8_t { CPU, CUDA };
inline constexpr int kNumDeviceKinds = 2;

struct Device {
  DeviceKind kind = DeviceKind::CPU;
  int index = 0;

  static Device cpu() { return {DeviceKind::CPU, 0}; }
  static Device cuda(int index = 0) { return {DeviceKind::CUDA, index}; }
  // "cpu", "cuda", "cuda:1"; ValueError otherwise.
  static Device parse(const std::string& text);

  std::string str() const;
  bool operator==(const Device& o) const { return kind == o.kind && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

// Threads the CPU backend spreads large operations over (all cores by default;
// OMP_NUM_THREADS overrides).
int cpu_thread_count();

}  // namespace kiln
