// Q from Householder reflectors, as LAPACK's org2r/ung2r form it, for stacks
// of small matrices: one thread block a matrix, one thread a column. cuSOLVER
// has no batched orgqr, and one call a matrix costs a launch and a
// synchronisation each (40 us; 10,000 4x4 QRs took 778 ms that way).
#pragma once
#include "kiln/device/complex_math.cuh"

namespace kiln { namespace dev {

template <class R> __device__ __forceinline__ R householder_conj(R x) { return x; }
template <class R> __device__ __forceinline__ complex<R> householder_conj(complex<R> z) {
  return make_complex(z.re, -z.im);
}
template <class T> struct householder_scalar {
  static __device__ __forceinline__ T of(double x) { return T(x); }
};
template <class R> struct householder_scalar<complex<R> > {
  static __device__ __forceinline__ complex<R> of(double x) { return make_complex(R(x), R(0)); }
};

// Block b forms its matrix's Q in place: q is column-major m x n (q + b m n),
// its first min(n, k) columns holding geqrf's reflectors below the diagonal;
// tau holds k scalars a matrix. Q = H(0) H(1) ... H(k-1) applied to the
// identity's first n columns, the reflectors taken last to first, each
// H(i) = I - tau_i v v^H with v = (0, .., 0, 1, q[i+1:m, i]).
// Column j belongs to thread j % blockDim.x throughout, so only the reads of
// reflector i by the other columns need a barrier before its own column is
// overwritten.
template <class T>
__device__ void form_q(T* q_stack, const T* tau_stack, int m, int n, int k) {
  T* q = q_stack + (long long)blockIdx.x * m * n;
  const T* tau = tau_stack + (long long)blockIdx.x * k;
  const T zero = householder_scalar<T>::of(0.0), one = householder_scalar<T>::of(1.0);
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    if (j >= k)
      for (int r = 0; r < m; ++r) q[(long long)j * m + r] = r == j ? one : zero;
  for (int i = k - 1; i >= 0; --i) {
    const T* v = q + (long long)i * m;
    const T t = tau[i];
    int j = threadIdx.x;
    while (j <= i) j += blockDim.x;
    for (; j < n; j += blockDim.x) {
      T* c = q + (long long)j * m;
      T w = c[i];
      for (int r = i + 1; r < m; ++r) w = w + householder_conj(v[r]) * c[r];
      w = t * w;
      c[i] = c[i] - w;
      for (int r = i + 1; r < m; ++r) c[r] = c[r] - v[r] * w;
    }
    __syncthreads();
    if (threadIdx.x == i % blockDim.x) {
      T* c = q + (long long)i * m;
      for (int r = i + 1; r < m; ++r) c[r] = -(t * c[r]);
      c[i] = one - t;
      for (int r = 0; r < i; ++r) c[r] = zero;
    }
  }
}

}}  // namespace kiln::dev
