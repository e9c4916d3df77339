// CUDA C's language for the host compiler: the function qualifiers and the
// math and bit functions CUDA declares beyond <cmath>. The host runtime
// (host_runtime.hpp) gives them to users' kernels; kiln's CPU backend
// compiles the device headers' op definitions (ops.cuh) into its own loops
// through them (src/cpu/device_ops.hpp), so both run one definition.
#ifndef KILN_HOST_LANGUAGE_HPP
#define KILN_HOST_LANGUAGE_HPP
// C++17's special math functions (std::beta, std::riemann_zeta...) are
// inline functions over templates, which every translation unit would
// instantiate anew, precompiled header or not (a small kernel compiled in
// 80 ms with them, 58 without). CUDA has none of them, so kernels do
// without: this must come before anything includes <cmath>.
#if __has_include(<bits/c++config.h>)
#include <bits/c++config.h>
#undef _GLIBCXX_USE_STD_SPEC_FUNCS
#endif
#include <string.h>

#include <cmath>

#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))

// ---- CUDA's math and bit functions beyond <cmath> ----------------------
#define KILN_MINMAX(T)                                             \
  inline T min(T a, T b) { return a < b ? a : b; }                 \
  inline T max(T a, T b) { return a > b ? a : b; }
KILN_MINMAX(int) KILN_MINMAX(unsigned int) KILN_MINMAX(long long) KILN_MINMAX(unsigned long long)
KILN_MINMAX(long) KILN_MINMAX(unsigned long)
#undef KILN_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float a, float b) { return powf(a, b); }
inline void __sincosf(float x, float* s, float* c) { *s = sinf(x); *c = cosf(x); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
// CUDA declares the IEEE tests and the float overloads of the math functions
// (sin(float) computing in float) in the global namespace; <cmath> puts them
// in std.
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;
using std::acos; using std::acosh; using std::asin; using std::asinh; using std::atan; using std::atan2;
using std::atanh; using std::cbrt; using std::ceil; using std::copysign; using std::cos; using std::cosh;
using std::erf; using std::erfc; using std::exp; using std::exp2; using std::expm1; using std::fabs;
using std::floor; using std::fma; using std::fmax; using std::fmin; using std::fmod; using std::frexp;
using std::hypot; using std::ldexp; using std::lgamma; using std::log; using std::log10; using std::log1p;
using std::log2; using std::modf; using std::nearbyint; using std::pow; using std::remainder; using std::rint;
using std::round; using std::sin; using std::sinh; using std::sqrt; using std::tan; using std::tanh;
using std::tgamma; using std::trunc;
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline double __dsqrt_rn(double x) { return sqrt(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float exp10f(float x) { return powf(10.0f, x); }
inline float sinpif(float x) { return sinf(static_cast<float>(M_PI) * x); }
inline float cospif(float x) { return cosf(static_cast<float>(M_PI) * x); }
inline double sinpi(double x) { return sin(M_PI * x); }
inline double cospi(double x) { return cos(M_PI * x); }
// Each with its own copy, not a template: one these non-template inline
// functions used would be instantiated again for each kernel compiled
// against the precompiled runtime header.
#define KILN_BIT_CAST(name, To, From) \
  inline To name(From v) {            \
    To t;                             \
    memcpy(&t, &v, sizeof t);         \
    return t;                         \
  }
KILN_BIT_CAST(__int_as_float, float, int)
KILN_BIT_CAST(__float_as_int, int, float)
KILN_BIT_CAST(__uint_as_float, float, unsigned)
KILN_BIT_CAST(__float_as_uint, unsigned, float)
KILN_BIT_CAST(__longlong_as_double, double, long long)
KILN_BIT_CAST(__double_as_longlong, long long, double)
#undef KILN_BIT_CAST
inline int __popc(unsigned v) { return __builtin_popcount(v); }
inline int __popcll(unsigned long long v) { return __builtin_popcountll(v); }
inline int __clz(int v) { return v == 0 ? 32 : __builtin_clz(static_cast<unsigned>(v)); }
inline int __clzll(long long v) { return v == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(v)); }
inline int __ffs(int v) { return __builtin_ffs(v); }
inline int __ffsll(long long v) { return __builtin_ffsll(v); }
inline unsigned __brev(unsigned v) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long v) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(v))) << 32) | __brev(static_cast<unsigned>(v >> 32));
}
inline int __mul24(int a, int b) { return a * b; }
inline unsigned __umul24(unsigned a, unsigned b) { return a * b; }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
template <class T> inline T __ldg(const T* p) { return *p; }
inline long long clock64() { return static_cast<long long>(__builtin_ia32_rdtsc()); }

#endif  // KILN_HOST_LANGUAGE_HPP
