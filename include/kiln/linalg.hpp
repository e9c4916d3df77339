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

namespace kiln {

// Decompositions of the matrices in the last two axes (the leading axes are a
// batch), LAPACK on the CPU and cuSOLVER on the GPU. Integer and bool input is
// computed in float64; float16 is refused, as in NumPy. Failures raise
// LinAlgError with NumPy's messages.

// x with a @ x == b: b is (..., n, k), or (n,) for one vector; batches broadcast.
Array solve(const Array& a, const Array& b);
Array inv(const Array& a);

// LU with partial pivoting of each m x n matrix (SciPy's lu_factor): U on and
// above the diagonal and L's multipliers below it, as LAPACK's getrf leaves
// them, and the 1-based row interchanges, min(m, n) a matrix.
struct LuFactors {
  Array lu;
  Array pivots;
};
LuFactors lu_factor(const Array& a);
Array det(const Array& a);
struct SignLogDet {
  Array sign;       // a's dtype: +-1 (or a unit complex number), 0 for a singular matrix
  Array logabsdet;  // real: log|det a|, -inf for a singular matrix
};
SignLogDet slogdet(const Array& a);
// The lower Cholesky factor L with a = L L^H (upper: U with a = U^H U).
Array cholesky(const Array& a, bool upper = false);

enum class QrMode : uint8_t { Reduced, Complete, R };
struct QR {
  Array q;  // empty for QrMode::R
  Array r;
};
QR qr(const Array& a, QrMode mode = QrMode::Reduced);

struct Eigh {
  Array eigenvalues;   // ascending, real
  Array eigenvectors;  // columns; empty from eigvalsh
};
// From the lower triangle of a (upper: the upper one).
Eigh eigh(const Array& a, bool upper = false, bool vectors = true);

struct Eig {
  Array eigenvalues;   // complex, in LAPACK's order
  Array eigenvectors;  // unit columns, complex; empty from eigvals
};
// Any square matrices; real ones are solved as complex (NumPy's results are
// complex too unless every eigenvalue is real: kiln's, as CuPy's, always are).
Eig eig(const Array& a, bool vectors = true);

struct SVD {
  Array u, s, vh;  // u and vh are empty without compute_uv
};
SVD svd(const Array& a, bool full_matrices = true, bool compute_uv = true);

}  // namespace kiln
