#pragma once
// Sparse matrix products: the compressed-row (CSR) form SciPy and CuPy keep.
#include "kiln/array.hpp"

namespace kiln {

// y = A x for the rows x cols CSR matrix A given by row_starts (rows + 1
// offsets), columns and values (one per entry; both index arrays int32 or
// int64), or A^T x with `transpose`: the product of a CSC matrix, whose
// arrays are its transpose's CSR form. values and x are cast to their common
// floating dtype (float32 and up, complex as well); y is new.
Array csr_matvec(const Array& row_starts, const Array& columns, const Array& values, const Array& x, int64_t rows,
                 int64_t cols, bool transpose = false);

}  // namespace kiln
