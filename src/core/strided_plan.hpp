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
  // `operands` are walked over `shape`; each must broadcast to it.
  StridedPlan(const std::vector<const Array*>& operands, const Shape& shape);
  const StridedArgs& args() const { return args_; }

 private:
  Shape shape_;
  std::array<Strides, kMaxOperands> strides_;
  StridedArgs args_;
};

}  // namespace kiln::detail
