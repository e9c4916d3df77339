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
#include <limits.h>
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

// ---- The rest of the CUDA Math API, with CUDA's results ---------------------
// The inverse error functions are kiln's own (special_functions.h, which
// kiln.scipy.special computes with); the Bessel functions of integer order
// are the C library's (j0, y0, their float forms j0f... and sincos are
// glibc's).
#include "kiln/device/special_functions.h"
inline double erfinv(double y) { return kiln::special::erfinv(y); }
inline float erfinvf(float y) { return kiln::special::erfinv(y); }
inline double erfcinv(double c) { return kiln::special::erfcinv(c); }
inline float erfcinvf(float c) { return kiln::special::erfcinv(c); }
// erfcx(x) = exp(x^2) erfc(x): directly where exp(x^2) is finite, else the
// continued fraction's first terms (relative error below 1e-16 for x > 26).
inline double erfcx(double x) {
  if (x < 26.0) return x < -26.7 ? HUGE_VAL : exp(x * x) * erfc(x);
  const double z = 1.0 / (x * x);
  return 0.5641895835477563 / x * (1.0 - 0.5 * z * (1.0 - 1.5 * z * (1.0 - 2.5 * z)));
}
inline float erfcxf(float x) { return static_cast<float>(erfcx(x)); }
inline double normcdf(double x) { return 0.5 * erfc(-x * 0.7071067811865476); }
inline float normcdff(float x) { return static_cast<float>(normcdf(x)); }
inline double normcdfinv(double p) { return -1.4142135623730951 * erfcinv(2.0 * p); }
inline float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float rcbrtf(float x) { return static_cast<float>(1.0 / cbrt(static_cast<double>(x))); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
// The modified Bessel functions I0 and I1 by their power series, summed
// until the terms no longer change the sum, and for |x| > 30 their
// asymptotic series (e^x / sqrt(2 pi x) times 1 - (4n^2-1)/(8x) + ...).
inline double kiln_bessel_i(int order, double x) {
  const double ax = fabs(x);
  double sum;
  if (ax <= 30.0) {
    double term = order == 0 ? 1.0 : 0.5 * ax;
    sum = term;
    const double q = 0.25 * ax * ax;
    for (int k = 1; k < 500 && term > sum * 1e-17; ++k) {
      term *= q / (k * static_cast<double>(k + order));
      sum += term;
    }
  } else {
    const double mu = 4.0 * order * order;
    double term = 1.0;
    sum = 1.0;
    for (int k = 1; k < 30; ++k) {
      term *= -(mu - (2 * k - 1) * (2 * k - 1)) / (k * 8.0 * ax);
      sum += term;
      if (fabs(term) < 1e-17 * fabs(sum)) break;
    }
    sum *= exp(ax) / sqrt(2.0 * M_PI * ax);
  }
  return order == 1 && x < 0 ? -sum : sum;
}
inline double cyl_bessel_i0(double x) { return kiln_bessel_i(0, x); }
inline float cyl_bessel_i0f(float x) { return static_cast<float>(kiln_bessel_i(0, x)); }
inline double cyl_bessel_i1(double x) { return kiln_bessel_i(1, x); }
inline float cyl_bessel_i1f(float x) { return static_cast<float>(kiln_bessel_i(1, x)); }
// Euclidean norms without overflow: scaled by the largest magnitude.
inline double norm(int dim, const double* p) {
  double scale = 0.0, sum = 0.0;
  for (int i = 0; i < dim; ++i) scale = fmax(scale, fabs(p[i]));
  if (scale == 0.0 || isinf(scale)) return scale;
  for (int i = 0; i < dim; ++i) sum += (p[i] / scale) * (p[i] / scale);
  return scale * sqrt(sum);
}
inline float normf(int dim, const float* p) {
  double scale = 0.0, sum = 0.0;
  for (int i = 0; i < dim; ++i) scale = fmax(scale, fabs(static_cast<double>(p[i])));
  if (scale == 0.0 || isinf(scale)) return static_cast<float>(scale);
  for (int i = 0; i < dim; ++i) sum += (p[i] / scale) * (p[i] / scale);
  return static_cast<float>(scale * sqrt(sum));
}
inline double rnorm(int dim, const double* p) { return 1.0 / norm(dim, p); }
inline float rnormf(int dim, const float* p) { return 1.0f / normf(dim, p); }
inline double norm3d(double a, double b, double c) { const double v[3] = {a, b, c}; return norm(3, v); }
inline float norm3df(float a, float b, float c) { const float v[3] = {a, b, c}; return normf(3, v); }
inline double norm4d(double a, double b, double c, double d) { const double v[4] = {a, b, c, d}; return norm(4, v); }
inline float norm4df(float a, float b, float c, float d) { const float v[4] = {a, b, c, d}; return normf(4, v); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
inline double rhypot(double a, double b) { return 1.0 / hypot(a, b); }
inline float rhypotf(float a, float b) { return 1.0f / hypotf(a, b); }
inline float __frsqrt_rn(float x) { return static_cast<float>(1.0 / sqrt(static_cast<double>(x))); }
inline double __drcp_rn(double x) { return 1.0 / x; }

// Arithmetic in a named rounding mode: the round-to-nearest result r and
// the sign of the exact result's excess over it (an error-free transform),
// stepped one ulp toward zero (rz), up (ru) or down (rd) where the exact
// result lies beyond r that way.
#define KILN_DIRECTED(T, suffix_t, inf)                                                          \
  inline T kiln_toward_##suffix_t(T r, T excess, char mode) {                                    \
    if (excess == 0 || isnan(r) || isinf(r)) return r;                                           \
    if (mode == 'u') return excess > 0 ? nextafter(r, inf) : r;                                  \
    if (mode == 'd') return excess < 0 ? nextafter(r, -inf) : r;                                 \
    return (r > 0 && excess < 0) || (r < 0 && excess > 0) ? nextafter(r, T(0)) : r;              \
  }                                                                                              \
  inline T kiln_add_##suffix_t(T a, T b, char m) {                                               \
    const T r = a + b, bb = r - a, excess = (a - (r - bb)) + (b - bb);                           \
    return kiln_toward_##suffix_t(r, excess, m);                                                 \
  }                                                                                              \
  inline T kiln_mul_##suffix_t(T a, T b, char m) { const T r = a * b; return kiln_toward_##suffix_t(r, fma(a, b, -r), m); } \
  inline T kiln_div_##suffix_t(T a, T b, char m) {                                               \
    const T q = a / b, rem = fma(-q, b, a);                                                      \
    return kiln_toward_##suffix_t(q, b < 0 ? -rem : rem, m);                                     \
  }                                                                                              \
  inline T kiln_sqrt_##suffix_t(T x, char m) { const T r = sqrt(x); return kiln_toward_##suffix_t(r, fma(-r, r, x), m); }
KILN_DIRECTED(float, f, HUGE_VALF)
KILN_DIRECTED(double, d, HUGE_VAL)
#undef KILN_DIRECTED
#define KILN_ROUNDED(mode, m)                                                                               \
  inline float __fadd_##mode(float a, float b) { return kiln_add_f(a, b, m); }                            \
  inline float __fsub_##mode(float a, float b) { return kiln_add_f(a, -b, m); }                           \
  inline float __fmul_##mode(float a, float b) { return kiln_mul_f(a, b, m); }                            \
  inline float __fdiv_##mode(float a, float b) { return kiln_div_f(a, b, m); }                            \
  inline float __frcp_##mode(float x) { return kiln_div_f(1.0f, x, m); }                                  \
  inline float __fsqrt_##mode(float x) { return kiln_sqrt_f(x, m); }                                      \
  inline double __dadd_##mode(double a, double b) { return kiln_add_d(a, b, m); }                         \
  inline double __dsub_##mode(double a, double b) { return kiln_add_d(a, -b, m); }                        \
  inline double __dmul_##mode(double a, double b) { return kiln_mul_d(a, b, m); }                         \
  inline double __ddiv_##mode(double a, double b) { return kiln_div_d(a, b, m); }                         \
  inline double __drcp_##mode(double x) { return kiln_div_d(1.0, x, m); }                                \
  inline double __dsqrt_##mode(double x) { return kiln_sqrt_d(x, m); }
KILN_ROUNDED(rz, 'z') KILN_ROUNDED(ru, 'u') KILN_ROUNDED(rd, 'd')
#undef KILN_ROUNDED
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __ddiv_rn(double a, double b) { return a / b; }

// Conversions in a rounding mode (rn: to nearest even, rz: toward zero,
// ru: up, rd: down), saturating at the target's range as the GPU's do
// (NaN converts to 0 for integers).
#define KILN_CONVERSIONS(From, from, To, to, lo, hi)                                             \
  inline To kiln_##from##2##to(From x, char m) {                                                 \
    if (x != x) return 0;                                                                        \
    const From r = m == 'n' ? nearbyint(x) : m == 'z' ? trunc(x) : m == 'u' ? ceil(x) : floor(x); \
    if (r <= static_cast<From>(lo)) return lo;                                                   \
    if (r >= static_cast<From>(hi)) return hi;                                                   \
    return static_cast<To>(r);                                                                   \
  }                                                                                              \
  inline To __##from##2##to##_rn(From x) { return kiln_##from##2##to(x, 'n'); }                  \
  inline To __##from##2##to##_rz(From x) { return kiln_##from##2##to(x, 'z'); }                  \
  inline To __##from##2##to##_ru(From x) { return kiln_##from##2##to(x, 'u'); }                  \
  inline To __##from##2##to##_rd(From x) { return kiln_##from##2##to(x, 'd'); }
KILN_CONVERSIONS(double, double, int, int, INT_MIN, INT_MAX)
KILN_CONVERSIONS(double, double, unsigned, uint, 0u, UINT_MAX)
KILN_CONVERSIONS(double, double, long long, ll, LLONG_MIN, LLONG_MAX)
KILN_CONVERSIONS(double, double, unsigned long long, ull, 0ull, ULLONG_MAX)
KILN_CONVERSIONS(float, float, unsigned, uint, 0u, UINT_MAX)
KILN_CONVERSIONS(float, float, long long, ll, LLONG_MIN, LLONG_MAX)
KILN_CONVERSIONS(float, float, unsigned long long, ull, 0ull, ULLONG_MAX)
#undef KILN_CONVERSIONS
inline int __float2int_ru(float x) { return static_cast<int>(ceilf(x)); }
inline int __float2int_rd(float x) { return static_cast<int>(floorf(x)); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline float __double2float_rz(double x) {
  const float r = static_cast<float>(x);
  const double excess = x - static_cast<double>(r);  // its sign is exact
  return excess == 0 ? r : kiln_toward_f(r, excess > 0 ? 1.0f : -1.0f, 'z');
}
inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned x) { return x; }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline float __ull2float_rn(unsigned long long x) { return static_cast<float>(x); }
inline double __ll2double_rn(long long x) { return static_cast<double>(x); }
inline double __ull2double_rn(unsigned long long x) { return static_cast<double>(x); }
inline int __double2hiint(double x) { long long b; memcpy(&b, &x, 8); return static_cast<int>(b >> 32); }
inline int __double2loint(double x) { long long b; memcpy(&b, &x, 8); return static_cast<int>(b); }
inline double __hiloint2double(int hi, int lo) {
  const unsigned long long b = (static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) | static_cast<unsigned>(lo);
  double x;
  memcpy(&x, &b, 8);
  return x;
}

// The integer intrinsics beyond __mulhi/__umulhi.
inline long long __mul64hi(long long a, long long b) { return static_cast<long long>((static_cast<__int128>(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline int __hadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b) >> 1); }
inline int __rhadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b + 1) >> 1); }
inline unsigned __uhadd(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b) >> 1); }
inline unsigned __urhadd(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b + 1) >> 1); }
inline unsigned __sad(int a, int b, unsigned c) { return c + static_cast<unsigned>(a > b ? static_cast<long long>(a) - b : static_cast<long long>(b) - a); }
inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }
// Bytes of (b:a) picked by the four selector nibbles of s (only their low 3 bits).
inline unsigned __byte_perm(unsigned a, unsigned b, unsigned s) {
  const unsigned long long both = (static_cast<unsigned long long>(b) << 32) | a;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((both >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
// The 64-bit (hi:lo) shifted left (the high word kept) or right (the low
// word kept); the shift taken mod 32 (plain) or clamped to 32 (c).
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) << (shift < 32 ? shift : 32)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>(((static_cast<unsigned long long>(hi) << 32) | lo) >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>(((static_cast<unsigned long long>(hi) << 32) | lo) >> (shift < 32 ? shift : 32));
}

#endif  // KILN_HOST_LANGUAGE_HPP
