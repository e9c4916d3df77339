#pragma once
// Counting and finding: NumPy's bincount, flatnonzero and extract.
#include <optional>

#include "kiln/array.hpp"

namespace kiln {

// How often each non-negative integer occurs in the 1-D integer array x, as
// int64 counts of length max(max(x) + 1, minlength); with `weights` (x's
// shape, cast safely to float64) the float64 sums of the weights instead.
Array bincount(const Array& x, const std::optional<Array>& weights = std::nullopt, int64_t minlength = 0);

// The int64 positions, in the flattened C order of x, of its nonzero (true)
// elements, ascending. The output's length needs the count on the host.
Array flatnonzero(const Array& x);

// The elements of x where `condition` (of x's size) is nonzero, in flattened
// C order: x[condition] for a condition of x's shape, without the positions
// in between.
Array extract(const Array& condition, const Array& x);

}  // namespace kiln
