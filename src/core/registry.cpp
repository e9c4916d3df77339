#include "kiln/registry.hpp"

namespace kiln {

KernelTable& kernel_table(DeviceKind kind) {
  // Filled once, on first use, by a call the library's assembly defines, so
  // that a static library cannot drop a backend whose registration nothing
  // referenced.
  static KernelTable tables[kNumDeviceKinds];
  static const bool registered = [] {
    detail::register_backends(tables);
    return true;
  }();
  (void)registered;
  return tables[static_cast<int>(kind)];
}

}  // namespace kiln
