// Where the library is assembled: the backends this build has fill their
// device kinds' tables (see kiln::detail::register_backends). The core knows
// them only through those tables.
#include "cpu/backend.hpp"
#include "kiln/config.hpp"
#include "kiln/registry.hpp"
#ifdef KILN_WITH_CUDA
#include "cuda/backend.hpp"
#endif

namespace kiln {

namespace detail {
void register_backends(KernelTable (&tables)[kNumDeviceKinds]) {
  cpu::register_kernels(tables[static_cast<int>(DeviceKind::CPU)]);
#ifdef KILN_WITH_CUDA
  cuda::register_kernels(tables[static_cast<int>(DeviceKind::CUDA)]);
#endif
}
}  // namespace detail

#ifndef KILN_WITH_CUDA
CudaLibraries cuda_libraries() {
  CudaLibraries found;
  found.problem = "kiln was built without CUDA";
  return found;
}
#endif

}  // namespace kiln
