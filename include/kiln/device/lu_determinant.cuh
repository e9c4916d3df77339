// slogdet of a stack of matrices from their LU factors, one thread a matrix:
// after getrf, det = (-1)^(row swaps) * prod(u_ii), so the sign is the
// swaps' parity times the product of the diagonal's signs and log|det| the
// sum of log|u_ii|.
// One kernel instead of the dozen array operations that spell it in NumPy's
// terms (each a launch over the stack).
#pragma once
#include "kiln/device/ops.cuh"

namespace kiln { namespace dev {

// A pivot's share of the sign, as NumPy's slogdet takes it: -1, 0 or 1 for a
// real pivot (1 for NaN: NumPy's sign stays finite, its log|det| is NaN), z / |z|
// for a complex one (0 for 0).
template <class T> __device__ __forceinline__ T pivot_sign(T d) {
  return convert<T>(d < T(0) ? -1 : (d == T(0) ? 0 : 1));
}
template <class R> __device__ __forceinline__ complex<R> pivot_sign(complex<R> d) { return op_sign::call(d); }

// lu: `batch` column-major n x n factors; pivots: n 1-based rows a matrix;
// sign: one T a matrix; logabsdet: one real a matrix.
template <class T, class R>
__device__ void lu_slogdet(const T* lu, const long long* pivots, int n, long long batch, T* sign, R* logabsdet) {
  for (long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x; b < batch;
       b += (long long)gridDim.x * blockDim.x) {
    const T* f = lu + b * n * n;
    const long long* p = pivots + b * n;
    T s = convert<T>(1);
    R total = R(0);
    bool odd = false;
    for (int i = 0; i < n; ++i) {
      const T d = f[(long long)i * n + i];
      odd ^= p[i] != i + 1;
      total += op_log::call(op_abs::call(d));
      s = op_multiply::call(s, pivot_sign(d));
    }
    sign[b] = odd ? op_negative::call(s) : s;
    logabsdet[b] = total;
  }
}

}}  // namespace kiln::dev
