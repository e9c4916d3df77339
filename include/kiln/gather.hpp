#pragma once
// Picking and placing elements by integer indices: NumPy's take and put.
#include <optional>

#include "kiln/array.hpp"

namespace kiln {

// The elements of `a` at `indices` along `axis` (of the flattened `a` when
// there is none): out.shape = a.shape[:axis] + indices.shape + a.shape[axis+1:].
// Negative indices count from the end; IndexError for one outside [-n, n),
// TypeError for indices that are not integers.
Array take(const Array& a, const Array& indices, std::optional<int64_t> axis = std::nullopt);

// a.flat[indices] = values (values cast to a's dtype, repeated when shorter),
// as NumPy's put with mode "raise". Where an index repeats, which value stays
// is unspecified on the GPU (as in CuPy); on the CPU the last one does.
void put(const Array& a, const Array& indices, const Array& values);

}  // namespace kiln
