// Arithmetic, min/max, clip and where on the CPU.
#include "backend.hpp"
#include "loops.hpp"
#include "scalar_ops.hpp"

namespace kiln::cpu {

void register_arithmetic_kernels(KernelTable& t) {
  register_binary<ops::Add>(t, OpId::add, AllTypes{});
  register_binary<ops::Subtract>(t, OpId::subtract, NumericTypes{});
  register_binary<ops::Multiply>(t, OpId::multiply, AllTypes{});
  register_binary<ops::Divide>(t, OpId::divide, InexactTypes{});
  register_binary<ops::FloorDivide>(t, OpId::floor_divide, RealTypes{});
  register_binary<ops::Remainder>(t, OpId::remainder, RealTypes{});
  register_binary<ops::Fmod>(t, OpId::fmod, RealTypes{});
  register_binary<ops::Power, kExpensiveGrain>(t, OpId::power, NumericTypes{});
  register_unary<ops::Negative>(t, OpId::negative, NumericTypes{});
  register_unary<ops::Positive>(t, OpId::positive, NumericTypes{});
  register_unary<ops::Abs>(t, OpId::abs, AllTypes{});
  register_unary<ops::Sign>(t, OpId::sign, NumericTypes{});
  register_unary<ops::Reciprocal>(t, OpId::reciprocal, NumericTypes{});
  register_unary<ops::Square>(t, OpId::square, NumericTypes{});
  register_binary<ops::Minimum>(t, OpId::minimum, AllTypes{});
  register_binary<ops::Maximum>(t, OpId::maximum, AllTypes{});
  register_binary<ops::Fmin>(t, OpId::fmin, AllTypes{});
  register_binary<ops::Fmax>(t, OpId::fmax, AllTypes{});
  register_ternary<ops::Clip>(t, OpId::clip, AllTypes{});
  register_ternary<ops::Where>(t, OpId::where, AllTypes{});
}

}  // namespace kiln::cpu
