#pragma once
// Picking elements by integer indices: NumPy's take.
#include <optional>

#include "kiln/array.hpp"

namespace kiln {

// The elements of `a` at `indices` along `axis` (of the flattened `a` when
// there is none): out.shape = a.shape[:axis] + indices.shape + a.shape[axis+1:].
// Negative indices count from the end; IndexError for one outside [-n, n),
// TypeError for indices that are not integers.
Array take(const Array& a, const Array& indices, std::optional<int64_t> axis = std::nullopt);

}  // namespace kiln
