#pragma once
// NumPy's ufuncs called inside kiln.cuda.jit kernels (np.sin(x),
// np.add(a, b, out)): each computes with kiln's one definition of the op
// (ops.cuh, op_<name>), on numbers or, with an output array, element by
// element over it with NumPy's broadcasting. The translator
// (python/kiln/_jit/constructs/numpy_ufuncs.py) casts the arguments to the
// types of the loop NumPy would pick; this file converts between the
// kernel's number types (complex<T>, float16) and the ops' (kiln::dev::complex,
// float), and walks the output.
#include "kiln/device/jit_support.cuh"
// std_complex.cuh's complex sqrt, sin... live in kiln::dev and would hide the
// C library's from ops.cuh's code there: both sets, for ops.cuh.
namespace kiln { namespace dev {
using ::acos; using ::acosh; using ::asin; using ::asinh; using ::atan; using ::atanh; using ::cos; using ::cosh;
using ::exp; using ::log; using ::log10; using ::pow; using ::sin; using ::sinh; using ::sqrt; using ::tan;
using ::tanh;
}}  // namespace kiln::dev
#include "kiln/device/ops.cuh"

template <class T> __device__ __forceinline__ T kiln_op_value(T x) { return x; }
template <class T> __device__ __forceinline__ kiln::dev::complex<T> kiln_op_value(kiln::dev::std_complex<T> z) {
  return kiln::dev::make_complex(z.re, z.im);
}
__device__ __forceinline__ float kiln_op_value(float16 h) { return (float)h; }

// A number's truth (the logical ufuncs' inputs): complex numbers by either part.
template <class T> __device__ __forceinline__ bool kiln_truth(T x) { return x != T(0); }
template <class T> __device__ __forceinline__ bool kiln_truth(kiln::dev::std_complex<T> z) {
  return z.re != T(0) || z.im != T(0);
}

// Op on the arguments, converted to R (the loop's result type).
template <class Op, class R, class... A> __device__ __forceinline__ R kiln_ufunc(A... a) {
  return R(Op::call(kiln_op_value(a)...));
}

// -1, 0 or 1 as a is below, equal to or above b, for integers of different
// signedness (NumPy's int64-against-uint64 comparison loops), exactly.
template <class A, class B> __device__ __forceinline__ int kiln_mixed_order(A a, B b) {
  if (a < 0) return -1;
  if (b < 0) return 1;
  const unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
  return ua < ub ? -1 : (ua > ub ? 1 : 0);
}

// An argument at the output's multi-index `at` (of `nd` dimensions):
// numbers as they are, arrays broadcast (aligned at the right; a length-1
// dimension repeats its one element).
template <class T> __device__ __forceinline__ T kiln_broadcast_at(T x, const long long*, int) { return x; }
template <class T, int ND>
__device__ __forceinline__ T kiln_broadcast_at(const kiln_view<T, ND>& a, const long long* at, int nd) {
  long long offset = 0;
  if constexpr (ND > 0)  // a 0-d view has no extents (jit_support.cuh)
    for (int d = 0; d < ND; ++d)
      if (a.shape[d] != 1) offset += at[nd - ND + d] * a.strides[d];
  return a.element(offset);
}

// out[...] = f(args[...]...) over every element of out, in C order; returns out.
template <class T, int ND, class F, class... A>
__device__ __forceinline__ kiln_view<T, ND> kiln_ufunc_loop(const kiln_view<T, ND>& out, F f, const A&... args) {
  long long at[ND > 0 ? ND : 1];
  for (long long k = 0, n = out.size(); k < n; ++k) {
    long long rest = k, offset = 0;
    if constexpr (ND > 0)
      for (int d = ND - 1; d >= 0; --d) {
        at[d] = rest % out.shape[d];
        rest /= out.shape[d];
        offset += at[d] * out.strides[d];
      }
    out.element(offset) = (T)f(kiln_broadcast_at(args, at, ND)...);
  }
  return out;
}
