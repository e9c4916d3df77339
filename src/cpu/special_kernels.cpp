// scipy.special's functions of one real argument on the CPU (float32 and
// float64 loops, as SciPy's): the same kiln/device/special_functions.h that
// the GPU's and the CPU runtime's kernels compute with.
#include "backend.hpp"
#include "kiln/device/special_functions.h"
#include "loops.hpp"

namespace kiln::cpu {
namespace {

#define KILN_SPECIAL_FUNCTIONS(X) X(erf) X(erfc) X(erfinv) X(erfcinv) X(gammaln) X(gamma) X(j0) X(j1) X(y0) X(y1)
#define KILN_SPECIAL_FUNCTOR(name) \
  struct name##_op {               \
    template <class T> static T call(T x) { return kiln::special::name(x); } \
  };
KILN_SPECIAL_FUNCTIONS(KILN_SPECIAL_FUNCTOR)
#undef KILN_SPECIAL_FUNCTOR

}  // namespace

void register_special_kernels(KernelTable& t) {
#define KILN_REGISTER_SPECIAL(name) \
  register_unary<name##_op, kExpensiveGrain>(t, OpId::name, TypeList<float, double>{});
  KILN_SPECIAL_FUNCTIONS(KILN_REGISTER_SPECIAL)
#undef KILN_REGISTER_SPECIAL
}

}  // namespace kiln::cpu
