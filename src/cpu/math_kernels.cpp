// Transcendental and other math functions of real floats on the CPU: the
// device headers' ops (ops.cuh, through device_ops.hpp), as generated
// kernels and the GPU compute them.
//
// float32/float64 loops are vectorised through glibc's libmvec (the `simd`
// declarations of kiln/device/libmvec.hpp's wrappers let GCC call their
// vector forms, which all compute through the variant the process picked, so
// an element's bits do not depend on its place or layout), and target_clones
// picks the AVX-512, AVX2 or SSE build of the loop when the library loads.
// Results stay within libmvec's documented 4 ulp; NaN and inf are handled by
// libmvec's scalar fallback lanes. float16 computes in float.
// First: see device_ops.hpp.
#include <algorithm>

#include "device_ops.hpp"
#include "kiln/device/libmvec.hpp"

#include "backend.hpp"
#include "loops.hpp"

namespace kiln::cpu {
namespace {

// Strided operands (and broadcast ones) go through contiguous tiles, so
// that every element is computed by the vector loop: kiln_mvec's scalar form
// rounds as its vector forms do (kiln/device/libmvec.hpp), but costs a whole
// vector call for its one element.
constexpr int64_t kTile = 512;

template <class T>
const T& element(const char* base, int64_t i, int64_t stride) {
  return *reinterpret_cast<const T*>(base + i * stride);
}

template <class F, class T>
KILN_VECTOR_CLONES void vector_unary_loop(char* const* d, const int64_t* s, int64_t n) {
  if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
    const T* x = reinterpret_cast<const T*>(d[0]);
    T* y = reinterpret_cast<T*>(d[1]);
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = F::call(x[i]);
    return;
  }
  alignas(64) T x[kTile], y[kTile];
  for (int64_t first = 0; first < n; first += kTile) {
    const int64_t m = std::min(kTile, n - first);
    for (int64_t i = 0; i < m; ++i) x[i] = element<T>(d[0], first + i, s[0]);
#pragma omp simd
    for (int64_t i = 0; i < m; ++i) y[i] = F::call(x[i]);
    for (int64_t i = 0; i < m; ++i) *reinterpret_cast<T*>(d[1] + (first + i) * s[1]) = y[i];
  }
}

template <class F, class T>
KILN_VECTOR_CLONES void vector_binary_loop(char* const* d, const int64_t* s, int64_t n) {
  if (s[0] == sizeof(T) && s[1] == sizeof(T) && s[2] == sizeof(T)) {
    const T* a = reinterpret_cast<const T*>(d[0]);
    const T* b = reinterpret_cast<const T*>(d[1]);
    T* y = reinterpret_cast<T*>(d[2]);
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = F::call(a[i], b[i]);
    return;
  }
  alignas(64) T a[kTile], b[kTile], y[kTile];
  for (int64_t first = 0; first < n; first += kTile) {
    const int64_t m = std::min(kTile, n - first);
    for (int64_t i = 0; i < m; ++i) {
      a[i] = element<T>(d[0], first + i, s[0]);
      b[i] = element<T>(d[1], first + i, s[1]);
    }
#pragma omp simd
    for (int64_t i = 0; i < m; ++i) y[i] = F::call(a[i], b[i]);
    for (int64_t i = 0; i < m; ++i) *reinterpret_cast<T*>(d[2] + (first + i) * s[2]) = y[i];
  }
}

template <class Op>
void register_vector_unary(KernelTable& t, OpId op) {
  using F = DeviceOp<Op>;
  int o = static_cast<int>(op);
  t.elementwise[o][dtype_index<float>] = &run_loop<&vector_unary_loop<F, float>, kExpensiveGrain>;
  t.elementwise[o][dtype_index<double>] = &run_loop<&vector_unary_loop<F, double>, kExpensiveGrain>;
  t.elementwise[o][dtype_index<float16>] = &run_loop<&unary_loop<F, float16>, kExpensiveGrain>;
}

template <class Op>
void register_vector_binary(KernelTable& t, OpId op) {
  using F = DeviceOp<Op>;
  int o = static_cast<int>(op);
  t.elementwise[o][dtype_index<float>] = &run_loop<&vector_binary_loop<F, float>, kExpensiveGrain>;
  t.elementwise[o][dtype_index<double>] = &run_loop<&vector_binary_loop<F, double>, kExpensiveGrain>;
  t.elementwise[o][dtype_index<float16>] = &run_loop<&binary_loop<F, float16>, kExpensiveGrain>;
}

}  // namespace

void register_math_kernels(KernelTable& t) {
#define KILN_REGISTER_MATH(fn) register_vector_unary<dev::op_##fn>(t, OpId::fn);
  KILN_LIBMVEC_UNARY(KILN_REGISTER_MATH)
#undef KILN_REGISTER_MATH
  register_vector_binary<dev::op_atan2>(t, OpId::atan2);
  register_vector_binary<dev::op_hypot>(t, OpId::hypot);
  register_unary<DeviceOp<dev::op_deg2rad>>(t, OpId::deg2rad, FloatTypes{});
  register_unary<DeviceOp<dev::op_rad2deg>>(t, OpId::rad2deg, FloatTypes{});
  register_binary<DeviceOp<dev::op_logaddexp>, kExpensiveGrain>(t, OpId::logaddexp, FloatTypes{});
  register_binary<DeviceOp<dev::op_copysign>>(t, OpId::copysign, FloatTypes{});
  register_binary<DeviceOp<dev::op_nextafter>>(t, OpId::nextafter, FloatTypes{});
}

}  // namespace kiln::cpu
