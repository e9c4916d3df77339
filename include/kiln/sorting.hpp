#pragma once
// Sorting, binary search and unique elements, in NumPy's order: NaN after
// every number, complex values by real part and then imaginary part.
#include "kiln/array.hpp"

namespace kiln {

// x sorted along `axis`, stably (equal keys keep their order).
Array sort(const Array& x, int axis = -1);
// The int64 positions along `axis` that sort x, stably.
Array argsort(const Array& x, int axis = -1);

// Where each of `values` would be inserted into the ascending 1-D `sorted` to
// keep it sorted: before equal keys (right = false) or after them. int64, of
// values' shape; both are compared in their common dtype.
Array searchsorted(const Array& sorted, const Array& values, bool right = false);

// The sorted distinct values of x (flattened). With equal_nan, all NaNs count
// as one value (numpy.unique); without, each NaN is its own (unique_values).
Array unique_values(const Array& x, bool equal_nan = true);

struct UniqueAll {
  Array values;   // the sorted distinct values
  Array indices;  // where each first occurs in the flattened x (int64)
  Array inverse;  // for each element of x, its value's position in `values` (int64, x's shape)
  Array counts;   // how often each occurs (int64)
};
UniqueAll unique_all(const Array& x, bool equal_nan = true);

}  // namespace kiln
