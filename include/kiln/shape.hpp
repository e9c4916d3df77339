#pragma once
// Shapes, byte strides and the arithmetic on them that views and broadcasting need.
#include <cstdint>
#include <string>
#include <vector>

#include "kiln/small_vector.hpp"

namespace kiln {

// Up to six dimensions live inline; more spill to the heap.
using Shape = SmallVector<int64_t, 6>;
using Strides = SmallVector<int64_t, 6>;  // in bytes, may be negative or zero

inline constexpr int kMaxDims = 64;

int64_t shape_size(const Shape& shape);
Strides contiguous_strides(const Shape& shape, int64_t itemsize);
std::string shape_str(const Shape& shape);

// NumPy broadcasting; ValueError naming both shapes when they do not fit.
Shape broadcast_shapes(const Shape& a, const Shape& b);
// Strides of `shape`/`strides` seen as `target` (zero stride on broadcast axes).
Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target);

// An axis in [-ndim, ndim) mapped to [0, ndim); IndexError naming `arg` otherwise.
int normalize_axis(int64_t axis, int ndim, const char* arg = "axis");

bool is_c_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize);
bool is_f_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize);

// Strides a reshape can keep without copying, or false when the layout does not
// allow a view (NumPy's attempt_nocopy_reshape).
bool reshape_strides(const Shape& old_shape, const Strides& old_strides, const Shape& new_shape,
                     Strides* new_strides);

// Merges adjacent dimensions that every operand walks as one, so that loops
// run over as few and as long dimensions as possible. `strides` holds one
// stride vector per operand; all are rewritten in place along with `shape`.
void coalesce_dims(Shape& shape, Strides* const* strides, int count);

}  // namespace kiln
