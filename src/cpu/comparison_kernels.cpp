// Comparisons, logical and bitwise ops, predicates and rounding on the CPU.
// First: see device_ops.hpp.
#include "device_ops.hpp"

#include "backend.hpp"
#include "loops.hpp"

namespace kiln::cpu {

void register_comparison_kernels(KernelTable& t) {
  register_binary<DeviceOp<dev::op_equal>>(t, OpId::equal, AllTypes{});
  register_binary<DeviceOp<dev::op_not_equal>>(t, OpId::not_equal, AllTypes{});
  register_binary<DeviceOp<dev::op_less>>(t, OpId::less, AllTypes{});
  register_binary<DeviceOp<dev::op_less_equal>>(t, OpId::less_equal, AllTypes{});
  register_binary<DeviceOp<dev::op_greater>>(t, OpId::greater, AllTypes{});
  register_binary<DeviceOp<dev::op_greater_equal>>(t, OpId::greater_equal, AllTypes{});
  register_binary<DeviceOp<dev::op_logical_and>>(t, OpId::logical_and, TypeList<bool>{});
  register_binary<DeviceOp<dev::op_logical_or>>(t, OpId::logical_or, TypeList<bool>{});
  register_binary<DeviceOp<dev::op_logical_xor>>(t, OpId::logical_xor, TypeList<bool>{});
  register_unary<DeviceOp<dev::op_logical_not>>(t, OpId::logical_not, TypeList<bool>{});
  register_binary<DeviceOp<dev::op_bitwise_and>>(t, OpId::bitwise_and, BoolIntTypes{});
  register_binary<DeviceOp<dev::op_bitwise_or>>(t, OpId::bitwise_or, BoolIntTypes{});
  register_binary<DeviceOp<dev::op_bitwise_xor>>(t, OpId::bitwise_xor, BoolIntTypes{});
  register_unary<DeviceOp<dev::op_bitwise_invert>>(t, OpId::bitwise_invert, BoolIntTypes{});
  register_binary<DeviceOp<dev::op_bitwise_left_shift>>(t, OpId::bitwise_left_shift, IntTypes{});
  register_binary<DeviceOp<dev::op_bitwise_right_shift>>(t, OpId::bitwise_right_shift, IntTypes{});
  register_unary<DeviceOp<dev::op_isnan>>(t, OpId::isnan, AllTypes{});
  register_unary<DeviceOp<dev::op_isinf>>(t, OpId::isinf, AllTypes{});
  register_unary<DeviceOp<dev::op_isfinite>>(t, OpId::isfinite, AllTypes{});
  register_unary<DeviceOp<dev::op_signbit>>(t, OpId::signbit, FloatTypes{});
  register_unary<DeviceOp<dev::op_floor>>(t, OpId::floor, BoolRealTypes{});
  register_unary<DeviceOp<dev::op_ceil>>(t, OpId::ceil, BoolRealTypes{});
  register_unary<DeviceOp<dev::op_trunc>>(t, OpId::trunc, BoolRealTypes{});
  register_unary<DeviceOp<dev::op_rint>>(t, OpId::rint, InexactTypes{});
  register_unary<DeviceOp<dev::op_conj>>(t, OpId::conj, NumericTypes{});
}

}  // namespace kiln::cpu
