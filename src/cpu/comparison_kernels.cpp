// Comparisons, logical and bitwise ops, predicates and rounding on the CPU.
#include "backend.hpp"
#include "loops.hpp"
#include "scalar_ops.hpp"

namespace kiln::cpu {

void register_comparison_kernels(KernelTable& t) {
  register_binary<ops::Equal>(t, OpId::equal, AllTypes{});
  register_binary<ops::NotEqual>(t, OpId::not_equal, AllTypes{});
  register_binary<ops::Less>(t, OpId::less, AllTypes{});
  register_binary<ops::LessEqual>(t, OpId::less_equal, AllTypes{});
  register_binary<ops::Greater>(t, OpId::greater, AllTypes{});
  register_binary<ops::GreaterEqual>(t, OpId::greater_equal, AllTypes{});
  register_binary<ops::LogicalAnd>(t, OpId::logical_and, TypeList<bool>{});
  register_binary<ops::LogicalOr>(t, OpId::logical_or, TypeList<bool>{});
  register_binary<ops::LogicalXor>(t, OpId::logical_xor, TypeList<bool>{});
  register_unary<ops::LogicalNot>(t, OpId::logical_not, TypeList<bool>{});
  register_binary<ops::BitwiseAnd>(t, OpId::bitwise_and, BoolIntTypes{});
  register_binary<ops::BitwiseOr>(t, OpId::bitwise_or, BoolIntTypes{});
  register_binary<ops::BitwiseXor>(t, OpId::bitwise_xor, BoolIntTypes{});
  register_unary<ops::BitwiseInvert>(t, OpId::bitwise_invert, BoolIntTypes{});
  register_binary<ops::LeftShift>(t, OpId::bitwise_left_shift, IntTypes{});
  register_binary<ops::RightShift>(t, OpId::bitwise_right_shift, IntTypes{});
  register_unary<ops::IsNan>(t, OpId::isnan, AllTypes{});
  register_unary<ops::IsInf>(t, OpId::isinf, AllTypes{});
  register_unary<ops::IsFinite>(t, OpId::isfinite, AllTypes{});
  register_unary<ops::SignBit>(t, OpId::signbit, FloatTypes{});
  register_unary<ops::Floor>(t, OpId::floor, BoolRealTypes{});
  register_unary<ops::Ceil>(t, OpId::ceil, BoolRealTypes{});
  register_unary<ops::Trunc>(t, OpId::trunc, BoolRealTypes{});
  register_unary<ops::Rint>(t, OpId::rint, InexactTypes{});
  register_unary<ops::Conj>(t, OpId::conj, NumericTypes{});
}

}  // namespace kiln::cpu
