// Decompositions: NumPy's checks and dtypes, then the backend's LAPACK-style
// kernel on column-major copies of the matrices (LAPACK's and cuSOLVER's
// layout), then the outputs viewed back in row-major order.
#include <string>

#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/linalg.hpp"
#include "kiln/ops.hpp"
#include "kiln/reductions.hpp"
#include "kiln/registry.hpp"

namespace kiln {
namespace {

DType linalg_dtype(DType dt) {
  if (dt == DType::Float16) throw TypeError("array type float16 is unsupported in linalg");
  return is_inexact(dt) ? dt : DType::Float64;
}

void check_matrices(const Array& a) {
  if (a.ndim() < 2)
    throw LinAlgError(std::to_string(a.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
}

void check_square(const Array& a) {
  check_matrices(a);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw LinAlgError("Last 2 dimensions of the array must be square");
}

int64_t rows(const Array& a) { return a.shape()[a.ndim() - 2]; }
int64_t cols(const Array& a) { return a.shape()[a.ndim() - 1]; }
Shape batch_of(const Array& a) { return Shape(a.shape().begin(), a.shape().end() - 2); }
int64_t count(const Shape& shape) {
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  return n;
}
Shape with(Shape shape, std::initializer_list<int64_t> tail) {
  for (int64_t e : tail) shape.push_back(e);
  return shape;
}

// A copy of x's matrices, each stored column-major (the factorizations
// overwrite it): the C-contiguous transpose, whose matrix_transpose() views
// it as x again. Always a new buffer, never x's own memory.
Array column_major(const Array& x, DType dt) {
  const Array transposed = x.matrix_transpose();
  Array out = Array::empty(transposed.shape(), dt, x.device());
  out.assign(transposed);
  return out;
}

// Runs a backend's kernel; returns the first nonzero info, or 0.
int64_t call(LapackKernel kernel, const Device& device, LapackArgs args) {
  std::vector<int64_t> info(static_cast<size_t>(args.batch));
  args.device = device.index;
  args.info = info.data();
  kernel(args);
  for (int64_t i : info)
    if (i != 0) return i;
  return 0;
}

int64_t run(LapackOp op, DType dt, const Device& device, LapackArgs args) {
  LapackKernel kernel = kernel_table(device.kind).lapack[static_cast<int>(op)][static_cast<int>(dt)];
  if (!kernel) throw TypeError("linalg does not support " + std::string(name(dt)) + " on " + device.str());
  return call(kernel, device, args);
}

// The backend's one-pass kernel for a's stack of tiny square matrices, or
// null where it has none or the matrices are not tiny.
LapackKernel small_matrix_kernel(SmallMatrixOp op, DType dt, const Array& a) {
  if (rows(a) == 0 || rows(a) > kSmallMatrixMaxSide) return nullptr;
  return kernel_table(a.device().kind).small_matrix[static_cast<int>(op)][static_cast<int>(dt)];
}

// A C-contiguous copy of a in dt (a new buffer), which `kernel` overwrites
// with its result; throws LinAlgError(`failure`) on a nonzero info.
Array run_small(LapackKernel kernel, const Array& a, DType dt, bool upper, const char* failure) {
  Array x = Array::empty(a.shape(), dt, a.device());
  x.assign(a);
  LapackArgs args;
  args.a = x.data();
  args.batch = count(batch_of(a));
  args.m = args.n = rows(a);
  args.upper = upper;
  if (args.batch > 0 && call(kernel, a.device(), args) > 0) throw LinAlgError(failure);
  return x;
}

// The triangle at and below (lower) or above (upper) the diagonal of each matrix, zeros elsewhere.
Array triangle(const Array& x, bool upper) {
  const Array i = arange(Scalar::from_int(0), Scalar::from_int(rows(x)), Scalar::from_int(1), DType::Int64,
                         x.device()).reshape({rows(x), 1});
  const Array j = arange(Scalar::from_int(0), Scalar::from_int(cols(x)), Scalar::from_int(1), DType::Int64,
                         x.device());
  return where(upper ? less_equal(i, j) : greater_equal(i, j), x, Operand(0));
}

struct LU {
  Array factors;  // column-major, as getrf leaves them
  Array pivots;   // (batch..., n), 1-based
  int64_t info;
};

// LU with partial pivoting of each m x n matrix of a.
LU lu(const Array& a, DType dt) {
  const int64_t m = rows(a), n = cols(a);
  LU out{column_major(a, dt), Array::empty(with(batch_of(a), {std::min(m, n)}), DType::Int64, a.device()), 0};
  LapackArgs args;
  args.a = out.factors.data();
  args.batch = count(batch_of(a));
  args.m = m;
  args.n = n;
  args.pivots = reinterpret_cast<int64_t*>(out.pivots.data());
  if (m > 0 && n > 0 && args.batch > 0) out.info = run(LapackOp::getrf, dt, a.device(), args);
  return out;
}

}  // namespace

Array solve(const Array& a, const Array& b) {
  check_square(a);
  if (a.device() != b.device())
    throw TypeError("solve: b is on " + b.device().str() + " but a is on " + a.device().str());
  const DType dt = linalg_dtype(result_type({a.dtype(), b.dtype()}));
  const int64_t n = rows(a);
  const bool vector = b.ndim() == 1;
  const Array b2 = vector ? b.reshape({b.size(), 1}) : b;
  if (b2.ndim() < 2 || rows(b2) != n)
    throw ValueError("solve: b must be (..., " + std::to_string(n) + ", k) or (" + std::to_string(n) +
                     ",) for a of " + shape_str(a.shape()) + ", got " + shape_str(b.shape()));
  const Shape batch = broadcast_shapes(batch_of(a), batch_of(b2));
  const int64_t k = cols(b2);
  LU factors = lu(a.broadcast_to(with(batch, {n, n})), dt);
  if (factors.info > 0) throw LinAlgError("Singular matrix");
  Array x = column_major(b2.broadcast_to(with(batch, {n, k})), dt);
  LapackArgs args;
  args.a = factors.factors.data();
  args.b = x.data();
  args.batch = count(batch);
  args.m = args.n = n;
  args.nrhs = k;
  args.pivots = reinterpret_cast<int64_t*>(factors.pivots.data());
  if (n > 0 && k > 0 && args.batch > 0) run(LapackOp::getrs, dt, a.device(), args);
  Array result = x.matrix_transpose();
  return vector ? result.index({Ellipsis{}, int64_t{0}}) : result;
}

LuFactors lu_factor(const Array& a) {
  check_matrices(a);
  LU factors = lu(a, linalg_dtype(a.dtype()));
  return {factors.factors.matrix_transpose(), factors.pivots};
}

Array inv(const Array& a) {
  check_square(a);
  const DType dt = linalg_dtype(a.dtype());
  if (LapackKernel kernel = small_matrix_kernel(SmallMatrixOp::inverse, dt, a))
    return run_small(kernel, a, dt, false, "Singular matrix");
  // inv(a) = inv(a^T)^T: solving with a^T leaves inv(a) row-major in the
  // solver's column-major output, so the result is C-contiguous as NumPy's.
  const Array identity = eye(rows(a), std::nullopt, 0, dt, a.device()).broadcast_to(a.shape());
  return solve(a.matrix_transpose(), identity).matrix_transpose();
}

SignLogDet slogdet(const Array& a) {
  check_square(a);
  const DType dt = linalg_dtype(a.dtype());
  const int64_t n = rows(a);
  LU factors = lu(a, dt);
  if (kernel_table(a.device().kind).lapack[static_cast<int>(LapackOp::lu_slogdet)][static_cast<int>(dt)] &&
      n > 0) {
    SignLogDet out;
    out.sign = Array::empty(batch_of(a), dt, a.device());
    out.logabsdet = Array::empty(batch_of(a), real_dtype(dt), a.device());
    LapackArgs args;
    args.a = factors.factors.data();
    args.pivots = reinterpret_cast<int64_t*>(factors.pivots.data());
    args.values = out.sign.data();
    args.b = out.logabsdet.data();
    args.batch = count(batch_of(a));
    args.m = args.n = n;
    if (args.batch > 0) run(LapackOp::lu_slogdet, dt, a.device(), args);
    return out;
  }
  // The same in array operations, for a backend without the kernel.
  const Array diagonal = factors.factors.matrix_transpose().diagonal();
  const Array magnitude = abs(diagonal);
  // Each row swap flips the sign.
  const Array positions = arange(Scalar::from_int(1), Scalar::from_int(n + 1), Scalar::from_int(1), DType::Int64,
                                 a.device());
  const Array swaps = sum(not_equal(factors.pivots, positions), std::vector<int64_t>{-1}, false, DType::Int64);
  const Array parity_sign = subtract(Operand(1), multiply(remainder(swaps, Operand(2)), Operand(2)));
  // A pivot's share of the sign as NumPy takes it: z / |z| (0 for 0); -1, 0
  // or 1 for a real one, 1 for NaN (the sign stays finite, log|det| is NaN).
  const Array unit = is_complex(dt) ? where(equal(magnitude, Operand(0)), Operand(0), divide(diagonal, magnitude))
                                    : subtract(not_equal(diagonal, Operand(0)),
                                               multiply(less(diagonal, Operand(0)), Operand(2)));
  SignLogDet out;
  out.sign = multiply(prod(unit, std::vector<int64_t>{-1}), parity_sign).astype(dt, false);
  out.logabsdet = sum(log(magnitude), std::vector<int64_t>{-1});
  return out;
}

Array det(const Array& a) {
  // NumPy's det is sign * exp(logabsdet), from the same LU.
  SignLogDet s = slogdet(a);
  return multiply(s.sign, exp(s.logabsdet)).astype(linalg_dtype(a.dtype()), false);
}

Array cholesky(const Array& a, bool upper) {
  check_square(a);
  const DType dt = linalg_dtype(a.dtype());
  if (LapackKernel kernel = small_matrix_kernel(SmallMatrixOp::cholesky, dt, a))
    return run_small(kernel, a, dt, upper, "Matrix is not positive definite");
  Array factor = column_major(a, dt);
  LapackArgs args;
  args.a = factor.data();
  args.batch = count(batch_of(a));
  args.m = args.n = rows(a);
  args.upper = upper;
  if (args.n > 0 && args.batch > 0 && run(LapackOp::potrf, dt, a.device(), args) > 0)
    throw LinAlgError("Matrix is not positive definite");
  return triangle(factor.matrix_transpose(), upper);
}

QR qr(const Array& a, QrMode mode) {
  check_matrices(a);
  const DType dt = linalg_dtype(a.dtype());
  const int64_t m = rows(a), n = cols(a), k = std::min(m, n), batch = count(batch_of(a));
  Array factors = column_major(a, dt);
  Array tau = Array::empty(with(batch_of(a), {k}), dt, a.device());
  LapackArgs args;
  args.a = factors.data();
  args.values = tau.data();
  args.batch = batch;
  args.m = m;
  args.n = n;
  const bool work = batch > 0 && k > 0;
  if (work) run(LapackOp::geqrf, dt, a.device(), args);
  // R's rows and Q's columns: k of each (reduced), or m (complete).
  const int64_t q_cols = mode == QrMode::Complete ? m : k;
  QR out;
  out.r = triangle(factors.matrix_transpose().index({Ellipsis{}, Slice{{}, q_cols, {}}, Slice{}}), true);
  if (mode == QrMode::R) return out;
  // Q's first columns come from geqrf's reflectors.
  Array q = zeros(with(batch_of(a), {q_cols, m}), dt, a.device());  // column-major m x q_cols
  const int64_t shared = std::min(q_cols, n);
  q.index({Ellipsis{}, Slice{{}, shared, {}}, Slice{}}).assign(factors.index({Ellipsis{}, Slice{{}, shared, {}}, Slice{}}));
  LapackArgs form = args;
  form.a = q.data();
  form.n = q_cols;
  form.reflectors = k;
  if (work) run(LapackOp::orgqr, dt, a.device(), form);
  else if (q_cols > 0 && batch > 0)  // no reflectors: Q is the identity
    q.assign(eye(q_cols, m, 0, dt, a.device()));
  out.q = q.matrix_transpose();
  return out;
}

Eigh eigh(const Array& a, bool upper, bool vectors) {
  check_square(a);
  const DType dt = linalg_dtype(a.dtype());
  const int64_t n = rows(a);
  Array v = column_major(a, dt);
  Eigh out;
  out.eigenvalues = Array::empty(with(batch_of(a), {n}), real_dtype(dt), a.device());
  LapackArgs args;
  args.a = v.data();
  args.values = out.eigenvalues.data();
  args.batch = count(batch_of(a));
  args.m = args.n = n;
  args.upper = upper;
  args.vectors = vectors;
  if (n > 0 && args.batch > 0 && run(LapackOp::syevd, dt, a.device(), args) > 0)
    throw LinAlgError("Eigenvalues did not converge");
  if (vectors) out.eigenvectors = v.matrix_transpose();
  return out;
}

Eig eig(const Array& a, bool vectors) {
  check_square(a);
  const DType real_or_complex = linalg_dtype(a.dtype());
  const DType dt = is_complex(real_or_complex) ? real_or_complex : complex_dtype(real_or_complex);
  const int64_t n = rows(a);
  Array work = column_major(a, dt);
  Eig out;
  out.eigenvalues = Array::empty(with(batch_of(a), {n}), dt, a.device());
  Array right;  // column-major: its matrix_transpose() is the eigenvector matrix
  if (vectors) right = Array::empty(with(batch_of(a), {n, n}), dt, a.device());
  LapackArgs args;
  args.a = work.data();
  args.values = out.eigenvalues.data();
  args.u = vectors ? right.data() : nullptr;
  args.batch = count(batch_of(a));
  args.m = args.n = n;
  args.vectors = vectors;
  if (n > 0 && args.batch > 0 && run(LapackOp::geev, dt, a.device(), args) > 0)
    throw LinAlgError("Eigenvalues did not converge");
  if (vectors) out.eigenvectors = right.matrix_transpose();
  return out;
}

SVD svd(const Array& a, bool full_matrices, bool compute_uv) {
  check_matrices(a);
  const DType dt = linalg_dtype(a.dtype());
  const int64_t m = rows(a), n = cols(a);
  if (m < n) {
    // cuSOLVER wants m >= n: decompose a^H = V S U^H instead.
    SVD t = svd(conj(a.matrix_transpose()), full_matrices, compute_uv);
    if (compute_uv) return {conj(t.vh.matrix_transpose()), t.s, conj(t.u.matrix_transpose())};
    return t;
  }
  const int64_t k = std::min(m, n), batch = count(batch_of(a));
  Array work = column_major(a, dt);
  SVD out;
  out.s = Array::empty(with(batch_of(a), {k}), real_dtype(dt), a.device());
  Array u, vt;
  LapackArgs args;
  if (compute_uv) {
    const int64_t u_cols = full_matrices ? m : k, vt_rows = full_matrices ? n : k;
    u = Array::empty(with(batch_of(a), {u_cols, m}), dt, a.device());
    vt = Array::empty(with(batch_of(a), {n, vt_rows}), dt, a.device());
    args.u = u.data();
    args.vt = vt.data();
    args.full = full_matrices;
  }
  args.a = work.data();
  args.values = out.s.data();
  args.batch = batch;
  args.m = m;
  args.n = n;
  if (k > 0 && batch > 0) {
    if (run(LapackOp::gesvd, dt, a.device(), args) > 0) throw LinAlgError("SVD did not converge");
  } else if (compute_uv && batch > 0) {  // an empty matrix: identity factors, as NumPy's
    u.assign(eye(u.shape()[u.ndim() - 2], m, 0, dt, a.device()));
    vt.assign(eye(n, vt.shape()[vt.ndim() - 1], 0, dt, a.device()));
  }
  if (compute_uv) {
    out.u = u.matrix_transpose();
    out.vh = vt.matrix_transpose();
  }
  return out;
}

}  // namespace kiln
