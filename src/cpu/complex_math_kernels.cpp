// Transcendental functions of complex numbers on the CPU: the device
// headers' (complex_math.cuh through ops.cuh; C99's special values, NumPy's
// forms of expm1, log1p and powers), as generated kernels and the GPU run them.
// First: see device_ops.hpp.
#include "device_ops.hpp"

#include "backend.hpp"
#include "loops.hpp"

namespace kiln::cpu {
namespace {

template <class Op>
void reg(KernelTable& t, OpId op) {
  register_unary<DeviceOp<Op>, kExpensiveGrain>(t, op, ComplexTypes{});
}

}  // namespace

void register_complex_math_kernels(KernelTable& t) {
  reg<dev::op_sqrt>(t, OpId::sqrt);
  reg<dev::op_exp>(t, OpId::exp);
  reg<dev::op_exp2>(t, OpId::exp2);
  reg<dev::op_expm1>(t, OpId::expm1);
  reg<dev::op_log>(t, OpId::log);
  reg<dev::op_log1p>(t, OpId::log1p);
  reg<dev::op_log2>(t, OpId::log2);
  reg<dev::op_log10>(t, OpId::log10);
  reg<dev::op_sin>(t, OpId::sin);
  reg<dev::op_cos>(t, OpId::cos);
  reg<dev::op_tan>(t, OpId::tan);
  reg<dev::op_asin>(t, OpId::asin);
  reg<dev::op_acos>(t, OpId::acos);
  reg<dev::op_atan>(t, OpId::atan);
  reg<dev::op_sinh>(t, OpId::sinh);
  reg<dev::op_cosh>(t, OpId::cosh);
  reg<dev::op_tanh>(t, OpId::tanh);
  reg<dev::op_asinh>(t, OpId::asinh);
  reg<dev::op_acosh>(t, OpId::acosh);
  reg<dev::op_atanh>(t, OpId::atanh);
}

}  // namespace kiln::cpu
