// Basic indexing: integers, slices with any step, `...` and None make views.
#include <string>

#include "kiln/array.hpp"
#include "kiln/error.hpp"

namespace kiln {
namespace {

// Python's slice.indices(): clamps start/stop to the axis for the given step.
void resolve_slice(const Slice& s, int64_t length, int64_t* start, int64_t* step, int64_t* count) {
  int64_t st = s.step.value_or(1);
  if (st == 0) throw ValueError("slice step cannot be zero");
  st = std::max(st, -INT64_MAX);  // so that -st cannot overflow
  int64_t lo, hi;
  if (st > 0) {
    lo = s.start.value_or(0);
    hi = s.stop.value_or(length);
    if (lo < 0) lo = std::max<int64_t>(lo + length, 0);
    if (hi < 0) hi = std::max<int64_t>(hi + length, 0);
    lo = std::min(lo, length);
    hi = std::min(hi, length);
    *count = hi > lo ? (hi - lo - 1) / st + 1 : 0;
  } else {
    lo = s.start.has_value() ? *s.start : length - 1;
    hi = s.stop.has_value() ? *s.stop : -length - 1;
    if (lo < 0) lo = std::max<int64_t>(lo + length, -1);
    else lo = std::min(lo, length - 1);
    if (hi < 0) hi = std::max<int64_t>(hi + length, -1);
    else hi = std::min(hi, length - 1);
    *count = lo > hi ? (lo - hi - 1) / (-st) + 1 : 0;
  }
  *start = lo;
  *step = st;
}

}  // namespace

Array Array::index(const std::vector<IndexItem>& items) const {
  int consumed = 0, ellipses = 0;
  for (const IndexItem& it : items) {
    if (std::holds_alternative<int64_t>(it) || std::holds_alternative<Slice>(it)) ++consumed;
    if (std::holds_alternative<Ellipsis>(it)) ++ellipses;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > ndim())
    throw IndexError("too many indices for array: array is " + std::to_string(ndim()) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  Shape shape;
  Strides strides;
  int64_t offset = offset_;
  int axis = 0;
  for (const IndexItem& it : items) {
    if (const int64_t* i = std::get_if<int64_t>(&it)) {
      int64_t len = shape_[axis];
      int64_t k = *i < 0 ? *i + len : *i;
      if (k < 0 || k >= len)
        throw IndexError("index " + std::to_string(*i) + " is out of bounds for axis " +
                         std::to_string(axis) + " with size " + std::to_string(len));
      offset += k * strides_[axis];
      ++axis;
    } else if (const Slice* s = std::get_if<Slice>(&it)) {
      int64_t start, step, count;
      resolve_slice(*s, shape_[axis], &start, &step, &count);
      if (count > 0) offset += start * strides_[axis];
      shape.push_back(count);
      strides.push_back(strides_[axis] * step);
      ++axis;
    } else if (std::holds_alternative<NewAxis>(it)) {
      shape.push_back(1);
      strides.push_back(0);
    } else {  // Ellipsis: every axis the other items leave over
      for (int k = 0; k < ndim() - consumed; ++k, ++axis) {
        shape.push_back(shape_[axis]);
        strides.push_back(strides_[axis]);
      }
    }
  }
  for (; axis < ndim(); ++axis) {
    shape.push_back(shape_[axis]);
    strides.push_back(strides_[axis]);
  }
  return Array(buffer_, dtype_, shape, strides, offset);
}

}  // namespace kiln
