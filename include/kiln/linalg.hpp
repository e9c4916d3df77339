#pragma once
// Linear algebra: the matrix product (cuBLAS on the GPU, the CPU's BLAS
// through dlopen, kiln's own loops for integer, bool and float16 on the CPU
// and integer and bool on the GPU).
#include "kiln/array.hpp"

namespace kiln {

// NumPy's matmul: a (..., m, k) @ b (..., k, n) -> (..., m, n), the leading
// axes broadcast; a 1-D a is a row and a 1-D b a column, dropped from the
// result. Operands are promoted to their common dtype.
Array matmul(const Array& a, const Array& b);

}  // namespace kiln
