#include "kiln/registry.hpp"

#include "../cpu/backend.hpp"

namespace kiln {

KernelTable& kernel_table(DeviceKind kind) {
  // Backends fill their tables once, on first use, so that a static library
  // cannot drop a backend whose registration nothing referenced.
  static KernelTable tables[kNumDeviceKinds];
  static const bool registered = [] {
    cpu::register_kernels(tables[static_cast<int>(DeviceKind::CPU)]);
    return true;
  }();
  (void)registered;
  return tables[static_cast<int>(kind)];
}

}  // namespace kiln
