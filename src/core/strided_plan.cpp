#include "strided_plan.hpp"

namespace kiln::detail {

StridedPlan::StridedPlan(const Array* const* operands, int count, const Shape& shape, const void* const* by_value,
                         int device)
    : shape_(shape) {
  const int n = count;
  Strides* all[kMaxOperands];
  for (int i = 0; i < n; ++i) {
    const Array* a = operands[i];
    if (!a) strides_[i].assign(shape.size(), 0);  // a value by itself: broadcast everywhere
    else strides_[i] = a->shape() == shape ? a->strides() : broadcast_strides(a->shape(), a->strides(), shape);
    all[i] = &strides_[i];
  }
  coalesce_dims(shape_, all, n);
  args_.device = n && operands[0] ? operands[0]->device().index : device;
  args_.nargs = n;
  args_.ndim = static_cast<int>(shape_.size());
  args_.size = shape_size(shape_);
  args_.shape = shape_.data();
  for (int i = 0; i < n; ++i) {
    if (!operands[i]) {
      args_.data[i] = static_cast<char*>(const_cast<void*>(by_value[i]));
      args_.by_value[i] = by_value[i];
    } else {
      // An empty array may have no memory behind it; kernels see size 0 then.
      args_.data[i] = operands[i]->size() ? operands[i]->data() : nullptr;
    }
    args_.strides[i] = strides_[i].data();
  }
}

}  // namespace kiln::detail
