// Transcendental functions of real floats on the CPU.
//
// float32/float64 loops are vectorised through glibc's libmvec: declaring the
// scalar functions `simd` lets GCC call their vector variants, and
// target_clones picks the AVX-512, AVX2 or SSE build of the loop when the
// library loads. Results stay within libmvec's documented 4 ulp; NaN and inf
// are handled by libmvec's scalar fallback lanes. float16 computes in float.
#include <cmath>
#include <cstring>

#include "backend.hpp"
#include "loops.hpp"

#if defined(KILN_HAVE_LIBMVEC) && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define KILN_VECTOR_MATH 1
#define KILN_SIMD_DECL __attribute__((simd("notinbranch")))
#else
#define KILN_SIMD_DECL
#endif

#define KILN_MATH_FUNCTIONS(X) \
  X(sqrt) X(cbrt) X(exp) X(exp2) X(expm1) X(log) X(log1p) X(log2) X(log10) X(sin) X(cos) \
  X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh)

extern "C" {
#define KILN_DECLARE_SIMD(fn) \
  KILN_SIMD_DECL float fn##f(float) noexcept; KILN_SIMD_DECL double fn(double) noexcept;
KILN_MATH_FUNCTIONS(KILN_DECLARE_SIMD)
KILN_SIMD_DECL float atan2f(float, float) noexcept;
KILN_SIMD_DECL double atan2(double, double) noexcept;
KILN_SIMD_DECL float hypotf(float, float) noexcept;
KILN_SIMD_DECL double hypot(double, double) noexcept;
#undef KILN_DECLARE_SIMD
}

namespace kiln::cpu {
namespace {

#define KILN_MATH_FUNCTOR(fn)                                                       \
  struct fn##_op {                                                                  \
    static float call(float x) { return ::fn##f(x); }                               \
    static double call(double x) { return ::fn(x); }                                \
    static float16 call(float16 x) { return static_cast<float16>(::fn##f(static_cast<float>(x))); } \
  };
KILN_MATH_FUNCTIONS(KILN_MATH_FUNCTOR)
#undef KILN_MATH_FUNCTOR

struct atan2_op {
  static float call(float a, float b) { return ::atan2f(a, b); }
  static double call(double a, double b) { return ::atan2(a, b); }
  static float16 call(float16 a, float16 b) { return static_cast<float16>(::atan2f(a, b)); }
};
struct hypot_op {
  static float call(float a, float b) { return ::hypotf(a, b); }
  static double call(double a, double b) { return ::hypot(a, b); }
  static float16 call(float16 a, float16 b) { return static_cast<float16>(::hypotf(a, b)); }
};
struct deg2rad_op {
  template <class T> static T call(T x) {
    return static_cast<T>(compute_t<T>(x) * static_cast<compute_t<T>>(M_PI / 180.0));
  }
};
struct rad2deg_op {
  template <class T> static T call(T x) {
    return static_cast<T>(compute_t<T>(x) * static_cast<compute_t<T>>(180.0 / M_PI));
  }
};
// NumPy's logaddexp: log(exp(a) + exp(b)) without overflow.
struct logaddexp_op {
  template <class T> static T call(T a, T b) {
    using C = compute_t<T>;
    C x = a, y = b;
    if (x == y) return static_cast<T>(x + static_cast<C>(M_LN2));
    C d = x - y;
    if (d > 0) return static_cast<T>(x + std::log1p(std::exp(-d)));
    if (d <= 0) return static_cast<T>(y + std::log1p(std::exp(d)));
    return static_cast<T>(d);  // NaN
  }
};
struct copysign_op {
  template <class T> static T call(T a, T b) {
    return static_cast<T>(std::copysign(compute_t<T>(a), compute_t<T>(b)));
  }
};
struct nextafter_op {
  static float call(float a, float b) { return std::nextafter(a, b); }
  static double call(double a, double b) { return std::nextafter(a, b); }
  // float16 steps its own bit pattern; float's nextafter would step too finely.
  static float16 call(float16 a, float16 b) {
    if (a != a || b != b) return static_cast<float16>(static_cast<float>(a) + static_cast<float>(b));
    if (a == b) return b;
    uint16_t bits;
    if (a == static_cast<float16>(0)) {
      bits = 1;  // smallest subnormal, with b's sign
      if (b < static_cast<float16>(0)) bits |= 0x8000;
    } else {
      std::memcpy(&bits, &a, sizeof bits);
      if ((a < b) == (a > static_cast<float16>(0))) ++bits;
      else --bits;
    }
    float16 r;
    std::memcpy(&r, &bits, sizeof r);
    return r;
  }
};

template <class F, class T>
KILN_VECTOR_CLONES void vector_unary_loop(char* const* d, const int64_t* s, int64_t n) {
  if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
    const T* x = reinterpret_cast<const T*>(d[0]);
    T* y = reinterpret_cast<T*>(d[1]);
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = F::call(x[i]);
    return;
  }
  unary_loop<F, T>(d, s, n);
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
  binary_loop<F, T>(d, s, n);
}

template <class F>
void register_vector_unary(KernelTable& t, OpId op) {
  int o = static_cast<int>(op);
  t.elementwise[o][dtype_index<float>] = &run_loop<&vector_unary_loop<F, float>, kExpensiveGrain>;
  t.elementwise[o][dtype_index<double>] = &run_loop<&vector_unary_loop<F, double>, kExpensiveGrain>;
  t.elementwise[o][dtype_index<float16>] = &run_loop<&unary_loop<F, float16>, kExpensiveGrain>;
}

template <class F>
void register_vector_binary(KernelTable& t, OpId op) {
  int o = static_cast<int>(op);
  t.elementwise[o][dtype_index<float>] = &run_loop<&vector_binary_loop<F, float>, kExpensiveGrain>;
  t.elementwise[o][dtype_index<double>] = &run_loop<&vector_binary_loop<F, double>, kExpensiveGrain>;
  t.elementwise[o][dtype_index<float16>] = &run_loop<&binary_loop<F, float16>, kExpensiveGrain>;
}

}  // namespace

void register_math_kernels(KernelTable& t) {
#define KILN_REGISTER_MATH(fn) register_vector_unary<fn##_op>(t, OpId::fn);
  KILN_MATH_FUNCTIONS(KILN_REGISTER_MATH)
#undef KILN_REGISTER_MATH
  register_vector_binary<atan2_op>(t, OpId::atan2);
  register_vector_binary<hypot_op>(t, OpId::hypot);
  register_unary<deg2rad_op>(t, OpId::deg2rad, FloatTypes{});
  register_unary<rad2deg_op>(t, OpId::rad2deg, FloatTypes{});
  register_binary<logaddexp_op, kExpensiveGrain>(t, OpId::logaddexp, FloatTypes{});
  register_binary<copysign_op>(t, OpId::copysign, FloatTypes{});
  register_binary<nextafter_op>(t, OpId::nextafter, FloatTypes{});
}

}  // namespace kiln::cpu
