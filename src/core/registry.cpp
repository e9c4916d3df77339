#include "kiln/registry.hpp"

#include "../cpu/backend.hpp"
#ifdef KILN_WITH_CUDA
#include "../cuda/backend.hpp"
#endif

namespace kiln {

KernelTable& kernel_table(DeviceKind kind) {
  // Backends fill their tables once, on first use, so that a static library
  // cannot drop a backend whose registration nothing referenced.
  static KernelTable tables[kNumDeviceKinds];
  static const bool registered = [] {
    cpu::register_kernels(tables[static_cast<int>(DeviceKind::CPU)]);
#ifdef KILN_WITH_CUDA
    cuda::register_kernels(tables[static_cast<int>(DeviceKind::CUDA)]);
#endif
    return true;
  }();
  (void)registered;
  return tables[static_cast<int>(kind)];
}

}  // namespace kiln
