// Arithmetic, min/max, clip and where on the CPU.
// First: see device_ops.hpp.
#include "device_ops.hpp"

#include "backend.hpp"
#include "loops.hpp"

namespace kiln::cpu {

void register_arithmetic_kernels(KernelTable& t) {
  register_binary<DeviceOp<dev::op_add>>(t, OpId::add, AllTypes{});
  register_binary<DeviceOp<dev::op_subtract>>(t, OpId::subtract, NumericTypes{});
  register_binary<DeviceOp<dev::op_multiply>>(t, OpId::multiply, AllTypes{});
  register_binary<DeviceOp<dev::op_divide>>(t, OpId::divide, InexactTypes{});
  register_binary<DeviceOp<dev::op_floor_divide>>(t, OpId::floor_divide, RealTypes{});
  register_binary<DeviceOp<dev::op_remainder>>(t, OpId::remainder, RealTypes{});
  register_binary<DeviceOp<dev::op_fmod>>(t, OpId::fmod, RealTypes{});
  register_binary<DeviceOp<dev::op_power>, kExpensiveGrain>(t, OpId::power, NumericTypes{});
  register_unary<DeviceOp<dev::op_negative>>(t, OpId::negative, NumericTypes{});
  register_unary<DeviceOp<dev::op_positive>>(t, OpId::positive, NumericTypes{});
  register_unary<DeviceOp<dev::op_abs>>(t, OpId::abs, AllTypes{});
  register_unary<DeviceOp<dev::op_sign>>(t, OpId::sign, NumericTypes{});
  register_unary<DeviceOp<dev::op_reciprocal>>(t, OpId::reciprocal, NumericTypes{});
  register_unary<DeviceOp<dev::op_square>>(t, OpId::square, NumericTypes{});
  register_binary<DeviceOp<dev::op_minimum>>(t, OpId::minimum, AllTypes{});
  register_binary<DeviceOp<dev::op_maximum>>(t, OpId::maximum, AllTypes{});
  register_binary<DeviceOp<dev::op_fmin>>(t, OpId::fmin, AllTypes{});
  register_binary<DeviceOp<dev::op_fmax>>(t, OpId::fmax, AllTypes{});
  register_ternary<Clip>(t, OpId::clip, AllTypes{});
  register_ternary<Where>(t, OpId::where, AllTypes{});
}

}  // namespace kiln::cpu
