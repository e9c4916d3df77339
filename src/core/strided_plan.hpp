#pragma once
// Lays out operands for a backend's strided kernel: broadcast to one shape,
// dimensions coalesced, raw pointers gathered.
#include <array>
#include <vector>

#include "kiln/array.hpp"
#include "kiln/registry.hpp"

namespace kiln::detail {

class StridedPlan {
 public:
  // `count` operands walked over `shape`; each must broadcast to it. Where
  // `by_value` is given, operand k may be null with by_value[k] its one value
  // in host memory (StridedArgs::by_value); `device` is then the arrays'.
  StridedPlan(const Array* const* operands, int count, const Shape& shape,
              const void* const* by_value = nullptr, int device = 0);
  StridedPlan(std::initializer_list<const Array*> operands, const Shape& shape)
      : StridedPlan(operands.begin(), static_cast<int>(operands.size()), shape) {}
  const StridedArgs& args() const { return args_; }

 private:
  Shape shape_;
  std::array<Strides, kMaxOperands> strides_;
  StridedArgs args_;
};

}  // namespace kiln::detail
