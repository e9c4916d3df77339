// scipy.special's functions of one real argument on the CPU (float32 and
// float64 loops, as SciPy's): ops.cuh's, over the same
// kiln/device/special_functions.h that the GPU's and generated kernels
// compute with.
// First: see device_ops.hpp.
#include "device_ops.hpp"

#include "backend.hpp"
#include "loops.hpp"

namespace kiln::cpu {

void register_special_kernels(KernelTable& t) {
#define KILN_REGISTER_SPECIAL(name) \
  register_unary<DeviceOp<dev::op_##name>, kExpensiveGrain>(t, OpId::name, TypeList<float, double>{});
  KILN_REGISTER_SPECIAL(erf) KILN_REGISTER_SPECIAL(erfc) KILN_REGISTER_SPECIAL(erfinv)
  KILN_REGISTER_SPECIAL(erfcinv) KILN_REGISTER_SPECIAL(gammaln) KILN_REGISTER_SPECIAL(gamma)
  KILN_REGISTER_SPECIAL(j0) KILN_REGISTER_SPECIAL(j1) KILN_REGISTER_SPECIAL(y0) KILN_REGISTER_SPECIAL(y1)
#undef KILN_REGISTER_SPECIAL
}

}  // namespace kiln::cpu
