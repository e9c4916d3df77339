// The inverse and the Cholesky factor of stacks of tiny matrices, one thread
// a matrix, the matrix in registers. For 10,000 4x4 matrices the batched
// library routines cost layout copies, address arrays and several launches
// (about 100 us on an H100, all overhead: the arithmetic is 2 MFLOP); this
// is one pass over the stack (src/cuda/small_matrix_kernels.cpp). The CPU
// backend calls the same functions a matrix at a time.
//
// Matrices are row-major (C-contiguous) n x n, one after another, n <= N:
// N is a compile-time bound, so that every index is a constant once the
// loops unroll and the matrix stays in registers.
#pragma once
#include "kiln/device/ops.cuh"

// Unrolls the loop that follows, for NVRTC or the host compiler alike.
#ifdef __CUDACC__
#define KILN_UNROLL _Pragma("unroll")
#else
#define KILN_UNROLL _Pragma("GCC unroll 8")
#endif

namespace kiln { namespace dev {

// The magnitude that chooses a pivot, LAPACK's (i?amax): |x| for a real,
// |re| + |im| for a complex value.
template <class T> __device__ __forceinline__ T pivot_magnitude(T x) { return op_abs::call(x); }
template <class R> __device__ __forceinline__ R pivot_magnitude(complex<R> z) {
  return op_abs::call(z.re) + op_abs::call(z.im);
}
template <class T> __device__ __forceinline__ T real_value(T x) { return x; }
template <class R> __device__ __forceinline__ R real_value(complex<R> z) { return z.re; }
template <class T> __device__ __forceinline__ T divided_by_real(T x, T s) { return x / s; }
template <class R> __device__ __forceinline__ complex<R> divided_by_real(complex<R> z, R s) {
  return make_complex(z.re / s, z.im / s);
}

// Swaps x and y where `swap` holds, by selects: a branch for each candidate
// row lets the compiler index the matrix by the pivot's row instead, which
// moves it from registers to memory.
template <class T> __device__ __forceinline__ void swap_if(bool swap, T& x, T& y) {
  const T a = x, b = y;
  x = swap ? b : a;
  y = swap ? a : b;
}

// Inverts the n x n matrix at `a` in place: Gauss-Jordan elimination with
// partial pivoting, which picks the pivots LU's getrf picks (eliminating
// above the diagonal leaves the rows below it as LU has them), and undoes
// the row swaps as column swaps at the end. Returns getrf's info: 0, or
// k + 1 when the k-th pivot is exactly zero (a singular matrix, left as it
// was).
template <class T, int N> __device__ int invert_small(T* a, int n) {
  // No early exit from the unrolled loops (a singular matrix runs on with
  // infinities and is not stored): an exit left the matrix in local memory.
  T m[N][N];
  KILN_UNROLL
  for (int i = 0; i < N; ++i)
    KILN_UNROLL
    for (int j = 0; j < N; ++j) m[i][j] = i < n && j < n ? a[i * n + j] : convert<T>(i == j ? 1 : 0);
  int info = 0;
  int swapped_with[N];
  KILN_UNROLL
  for (int k = 0; k < N; ++k) {
    // The pivot: the first of the largest magnitudes at or below the diagonal.
    int p = k;
    auto largest = pivot_magnitude(m[k][k]);
    KILN_UNROLL
    for (int r = k + 1; r < N; ++r) {
      const auto v = pivot_magnitude(m[r][k]);
      if (r < n && v > largest) {
        largest = v;
        p = r;
      }
    }
    if (largest == 0 && info == 0) info = k + 1;
    swapped_with[k] = p;
    KILN_UNROLL
    for (int r = k + 1; r < N; ++r)
      KILN_UNROLL
      for (int j = 0; j < N; ++j) swap_if(r == p, m[k][j], m[r][j]);
    const T pivot = m[k][k];
    m[k][k] = convert<T>(1);
    KILN_UNROLL
    for (int j = 0; j < N; ++j) m[k][j] = m[k][j] / pivot;
    KILN_UNROLL
    for (int i = 0; i < N; ++i) {
      if (i == k) continue;
      const T f = m[i][k];
      m[i][k] = convert<T>(0);
      KILN_UNROLL
      for (int j = 0; j < N; ++j) m[i][j] = m[i][j] - f * m[k][j];
    }
  }
  KILN_UNROLL
  for (int k = N - 1; k >= 0; --k)
    KILN_UNROLL
    for (int c = k + 1; c < N; ++c)
      KILN_UNROLL
      for (int i = 0; i < N; ++i) swap_if(c == swapped_with[k], m[i][k], m[i][c]);
  if (info == 0)
    KILN_UNROLL
    for (int i = 0; i < N; ++i)
      KILN_UNROLL
      for (int j = 0; j < N; ++j)
        if (i < n && j < n) a[i * n + j] = m[i][j];
  return info;
}

// The Cholesky factor of the n x n Hermitian positive-definite matrix at
// `a`, in place: lower (a = L L^H, read from the lower triangle) or upper
// (a = U^H U, read from the upper triangle), the other triangle zeroed, as
// NumPy returns it. Returns potrf's info: 0, or k + 1 when the leading minor
// of order k + 1 is not positive definite (`a` is then left as it was). A
// NaN passes through, as it does in NumPy's (OpenBLAS's) potrf.
template <class T, int N> __device__ int cholesky_small(T* a, int n, bool upper) {
  // The upper factor is the conjugate transpose of the lower factor of the
  // matrix whose lower triangle is the conjugated upper one.
  T l[N][N];
KILN_UNROLL
  for (int i = 0; i < N; ++i)
KILN_UNROLL
    for (int j = 0; j < N; ++j)
      l[i][j] = j <= i && i < n ? (upper ? op_conj::call(a[j * n + i]) : a[i * n + j]) : convert<T>(0);
KILN_UNROLL
  for (int j = 0; j < N; ++j) {
    if (j >= n) break;
    auto sum = squared_magnitude(convert<T>(0));
KILN_UNROLL
    for (int k = 0; k < j; ++k) sum += squared_magnitude(l[j][k]);
    const auto d = real_value(l[j][j]) - sum;
    if (d <= 0) return j + 1;
    const auto s = sqrt(d);
    l[j][j] = convert<T>(s);
KILN_UNROLL
    for (int i = j + 1; i < N; ++i) {
      T v = l[i][j];
KILN_UNROLL
      for (int k = 0; k < j; ++k) v = v - l[i][k] * op_conj::call(l[j][k]);
      l[i][j] = divided_by_real(v, s);
    }
  }
KILN_UNROLL
  for (int i = 0; i < N; ++i)
KILN_UNROLL
    for (int j = 0; j < N; ++j)
      if (i < n && j < n) {
        if (upper) a[j * n + i] = op_conj::call(l[i][j]);
        else a[i * n + j] = l[i][j];
      }
  return 0;
}

}}  // namespace kiln::dev
