// The scalar semantics of kiln's elementwise ops, one functor per op named
// op_<name>: NumPy's wrap-around integers, Python-style floor division and
// remainder, NaN-propagating minimum/maximum, lexicographic complex ordering,
// float16 computed in float. The one definition: NVRTC compiles them into
// kiln's GPU kernels, the host compiler into generated CPU kernels and the
// CPU backend's own loops (src/cpu/device_ops.hpp).
#pragma once
#include "kiln/device/complex_math.cuh"
#include "kiln/device/libmvec.hpp"  // KILN_MVEC: on the CPU, one rounding per function wherever it runs
#include "kiln/device/special_functions.h"
#include "kiln/device/types.cuh"

namespace kiln { namespace dev {

// ---- helpers ------------------------------------------------------------------
template <class T> __device__ __forceinline__ bool is_nan(T) { return false; }
__device__ __forceinline__ bool is_nan(float x) { return x != x; }
__device__ __forceinline__ bool is_nan(double x) { return x != x; }
__device__ __forceinline__ bool is_nan(half x) { return to_float(x) != to_float(x); }
template <class R> __device__ __forceinline__ bool is_nan(complex<R> z) { return z.re != z.re || z.im != z.im; }

template <class T> __device__ __forceinline__ bool less(T a, T b) { return a < b; }
__device__ __forceinline__ bool less(half a, half b) { return to_float(a) < to_float(b); }
template <class R> __device__ __forceinline__ bool less(complex<R> a, complex<R> b) {
  return a.re < b.re || (a.re == b.re && a.im < b.im);
}
template <class T> __device__ __forceinline__ bool less_equal(T a, T b) { return a <= b; }
__device__ __forceinline__ bool less_equal(half a, half b) { return to_float(a) <= to_float(b); }
template <class R> __device__ __forceinline__ bool less_equal(complex<R> a, complex<R> b) {
  return a.re < b.re || (a.re == b.re && a.im <= b.im);
}
template <class T> __device__ __forceinline__ bool equal(T a, T b) { return a == b; }
__device__ __forceinline__ bool equal(half a, half b) { return to_float(a) == to_float(b); }

// ---- unary ------------------------------------------------------------------------

struct op_negative {
  template <class T> __device__ static T call(T x) { return (T)(-x); }
  __device__ static half call(half x) { return to_half(-to_float(x)); }
  template <class R> __device__ static complex<R> call(complex<R> z) { return -z; }
};
struct op_positive {
  template <class T> __device__ static T call(T x) { return x; }
};
struct op_abs {
  template <class T> __device__ static T call(T x) { return is_signed_int<T>::value && x < 0 ? (T)(-x) : x; }
  __device__ static float call(float x) { return fabsf(x); }
  __device__ static double call(double x) { return fabs(x); }
  __device__ static half call(half x) { half h = x; h.bits &= 0x7fff; return h; }
  template <class R> __device__ static R call(complex<R> z) { return cabs(z); }
};
struct op_sign {
  // NumPy's: a zero of either sign gives +0, NaN itself.
  template <class T> __device__ static T call(T x) {
    return x > T(0) ? T(1) : (x < T(0) ? T(-1) : (x == T(0) ? T(0) : x));
  }
  __device__ static uint8 call(uint8 x) { return x > 0; }
  __device__ static uint16 call(uint16 x) { return x > 0; }
  __device__ static uint32 call(uint32 x) { return x > 0; }
  __device__ static uint64 call(uint64 x) { return x > 0; }
  __device__ static half call(half h) {
    float x = to_float(h);
    return to_half(x > 0 ? 1.0f : (x < 0 ? -1.0f : (x == 0 ? 0.0f : x)));
  }
  template <class R> __device__ static complex<R> call(complex<R> z) {
    if (is_nan(z)) return make_complex(quiet_nan<R>(), quiet_nan<R>());
    R m = cabs(z);
    if (m == 0) return make_complex(R(0), R(0));
    if (isinf(m)) {
      R re = isinf(z.re) ? copysign(R(1), z.re) : R(0), im = isinf(z.im) ? copysign(R(1), z.im) : R(0);
      R n = hypot(re, im);
      return make_complex(re / n, im / n);
    }
    return make_complex(z.re / m, z.im / m);
  }
};
struct op_reciprocal {
  template <class T> __device__ static T call(T x) { return x == 0 ? T(0) : (T)(1 / x); }
  __device__ static float call(float x) { return 1.0f / x; }
  __device__ static double call(double x) { return 1.0 / x; }
  __device__ static half call(half x) { return to_half(1.0f / to_float(x)); }
  template <class R> __device__ static complex<R> call(complex<R> z) { return creciprocal(z); }
};
struct op_square {
  template <class T> __device__ static T call(T x) {
    typedef typename unsigned_of<T>::type U;
    return (T)((U)x * (U)x);
  }
  __device__ static float call(float x) { return x * x; }
  __device__ static double call(double x) { return x * x; }
  __device__ static half call(half x) { float f = to_float(x); return to_half(f * f); }
  template <class R> __device__ static complex<R> call(complex<R> z) { return z * z; }
};

// Real functions with a complex counterpart (cname) where one exists.
#define KILN_DEV_MATH(name, fn, cfn)                                                  \
  struct op_##name {                                                                  \
    __device__ static float call(float x) { return KILN_MVEC(fn##f)(x); }             \
    __device__ static double call(double x) { return KILN_MVEC(fn)(x); }              \
    __device__ static half call(half x) { return to_half(KILN_MVEC(fn##f)(to_float(x))); } \
    template <class R> __device__ static complex<R> call(complex<R> z) { return cfn(z); } \
  };
template <class R> __device__ complex<R> cexp2(complex<R> z) { return cexp(scale(z, R(0.6931471805599453))); }
template <class R> __device__ complex<R> clog2(complex<R> z) { return scale(clog(z), R(1.4426950408889634)); }
template <class R> __device__ complex<R> clog10(complex<R> z) { return scale(clog(z), R(0.4342944819032518)); }
KILN_DEV_MATH(sqrt, sqrt, csqrt)
KILN_DEV_MATH(exp, exp, cexp)
KILN_DEV_MATH(exp2, exp2, cexp2)
KILN_DEV_MATH(expm1, expm1, cexpm1)
KILN_DEV_MATH(log, log, clog)
KILN_DEV_MATH(log1p, log1p, clog1p)
KILN_DEV_MATH(log2, log2, clog2)
KILN_DEV_MATH(log10, log10, clog10)
KILN_DEV_MATH(sin, sin, csin)
KILN_DEV_MATH(cos, cos, ccos)
KILN_DEV_MATH(tan, tan, ctan)
KILN_DEV_MATH(asin, asin, casin)
KILN_DEV_MATH(acos, acos, cacos)
KILN_DEV_MATH(atan, atan, catan)
KILN_DEV_MATH(sinh, sinh, csinh)
KILN_DEV_MATH(cosh, cosh, ccosh)
KILN_DEV_MATH(tanh, tanh, ctanh)
KILN_DEV_MATH(asinh, asinh, casinh)
KILN_DEV_MATH(acosh, acosh, cacosh)
KILN_DEV_MATH(atanh, atanh, catanh)
#undef KILN_DEV_MATH

#define KILN_DEV_REAL(name, ffn, dfn)                                                  \
  struct op_##name {                                                                   \
    __device__ static float call(float x) { return ffn; }                              \
    __device__ static double call(double x) { return dfn; }                            \
    __device__ static half call(half h) { float x = to_float(h); return to_half(ffn); } \
  };
KILN_DEV_REAL(cbrt, KILN_MVEC(cbrtf)(x), KILN_MVEC(cbrt)(x))
KILN_DEV_REAL(deg2rad, x * 0.017453292519943295f, x * 0.017453292519943295)
KILN_DEV_REAL(rad2deg, x * 57.29577951308232f, x * 57.29577951308232)
#undef KILN_DEV_REAL

// scipy.special's functions (kiln.scipy.special): float32 and float64 loops only.
#define KILN_DEV_SPECIAL(name) \
  struct op_##name { \
    template <class T> __device__ static T call(T x) { return kiln::special::name(x); } \
  };
KILN_DEV_SPECIAL(erf) KILN_DEV_SPECIAL(erfc) KILN_DEV_SPECIAL(erfinv) KILN_DEV_SPECIAL(erfcinv)
KILN_DEV_SPECIAL(gammaln) KILN_DEV_SPECIAL(gamma) KILN_DEV_SPECIAL(j0) KILN_DEV_SPECIAL(j1)
KILN_DEV_SPECIAL(y0) KILN_DEV_SPECIAL(y1)
#undef KILN_DEV_SPECIAL

// floor/ceil/trunc keep integers as they are (NumPy 2).
#define KILN_DEV_ROUNDING(name, fn)                                               \
  struct op_##name {                                                              \
    template <class T> __device__ static T call(T x) { return x; }                \
    __device__ static float call(float x) { return fn##f(x); }                    \
    __device__ static double call(double x) { return fn(x); }                     \
    __device__ static half call(half x) { return to_half(fn##f(to_float(x))); }   \
  };
KILN_DEV_ROUNDING(floor, floor)
KILN_DEV_ROUNDING(ceil, ceil)
KILN_DEV_ROUNDING(trunc, trunc)
#undef KILN_DEV_ROUNDING
struct op_rint {
  __device__ static float call(float x) { return rintf(x); }
  __device__ static double call(double x) { return rint(x); }
  __device__ static half call(half x) { return to_half(rintf(to_float(x))); }
  template <class R> __device__ static complex<R> call(complex<R> z) { return make_complex(rint(z.re), rint(z.im)); }
};

struct op_isnan {
  template <class T> __device__ static bool call(T x) { return is_nan(x); }
};
struct op_isinf {
  template <class T> __device__ static bool call(T) { return false; }
  __device__ static bool call(float x) { return isinf(x); }
  __device__ static bool call(double x) { return isinf(x); }
  __device__ static bool call(half x) { return isinf(to_float(x)); }
  template <class R> __device__ static bool call(complex<R> z) { return isinf(z.re) || isinf(z.im); }
};
struct op_isfinite {
  template <class T> __device__ static bool call(T) { return true; }
  __device__ static bool call(float x) { return isfinite(x); }
  __device__ static bool call(double x) { return isfinite(x); }
  __device__ static bool call(half x) { return isfinite(to_float(x)); }
  template <class R> __device__ static bool call(complex<R> z) { return isfinite(z.re) && isfinite(z.im); }
};
struct op_signbit {
  __device__ static bool call(float x) { return signbit(x); }
  __device__ static bool call(double x) { return signbit(x); }
  __device__ static bool call(half x) { return (x.bits & 0x8000) != 0; }
};
struct op_logical_not {
  __device__ static bool call(bool x) { return !x; }
};
struct op_bitwise_invert {
  template <class T> __device__ static T call(T x) { return (T)~x; }
  __device__ static bool call(bool x) { return !x; }
};
struct op_conj {
  template <class T> __device__ static T call(T x) { return x; }
  template <class R> __device__ static complex<R> call(complex<R> z) { return make_complex(z.re, -z.im); }
};

// ---- binary -------------------------------------------------------------------------
// Integer arithmetic wraps (computed unsigned); half computes in float.
#define KILN_DEV_ARITH(name, sym)                                                           \
  struct op_##name {                                                                        \
    template <class T> __device__ static T call(T a, T b) {                                 \
      typedef typename unsigned_of<T>::type U;                                              \
      return (T)((U)a sym (U)b);                                                            \
    }                                                                                       \
    __device__ static float call(float a, float b) { return a sym b; }                      \
    __device__ static double call(double a, double b) { return a sym b; }                   \
    __device__ static half call(half a, half b) { return to_half(to_float(a) sym to_float(b)); } \
    template <class R> __device__ static complex<R> call(complex<R> a, complex<R> b) { return a sym b; } \
  };
KILN_DEV_ARITH(add, +)
KILN_DEV_ARITH(subtract, -)
KILN_DEV_ARITH(multiply, *)
#undef KILN_DEV_ARITH
template <> __device__ __forceinline__ bool op_add::call<bool>(bool a, bool b) { return a || b; }
template <> __device__ __forceinline__ bool op_multiply::call<bool>(bool a, bool b) { return a && b; }

struct op_divide {
  __device__ static float call(float a, float b) { return a / b; }
  __device__ static double call(double a, double b) { return a / b; }
  __device__ static half call(half a, half b) { return to_half(to_float(a) / to_float(b)); }
  template <class R> __device__ static complex<R> call(complex<R> a, complex<R> b) { return a / b; }
};

// NumPy's npy_divmod for floats.
template <class F> __device__ void float_divmod(F a, F b, F* div_out, F* mod_out) {
  F mod = fmod(a, b);
  if (b == F(0)) {
    *mod_out = mod;
    *div_out = a / b;
    return;
  }
  F div = (a - mod) / b;
  if (mod != F(0)) {
    if ((b < F(0)) != (mod < F(0))) {
      mod += b;
      div -= F(1);
    }
  } else {
    mod = copysign(F(0), b);
  }
  F floordiv;
  if (div != F(0)) {
    floordiv = floor(div);
    if (div - floordiv > F(0.5)) floordiv += F(1);
  } else {
    floordiv = copysign(F(0), a / b);
  }
  *div_out = floordiv;
  *mod_out = mod;
}

struct op_floor_divide {
  template <class T> __device__ static T call(T a, T b) {
    if (b == 0) return 0;
    if (is_signed_int<T>::value) {
      if (b == T(-1)) return (T)(0 - (typename unsigned_of<T>::type)a);
      T q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return q;
    }
    return a / b;
  }
  __device__ static float call(float a, float b) { float d, m; float_divmod(a, b, &d, &m); return d; }
  __device__ static double call(double a, double b) { double d, m; float_divmod(a, b, &d, &m); return d; }
  __device__ static half call(half a, half b) { return to_half(call(to_float(a), to_float(b))); }
};
struct op_remainder {
  template <class T> __device__ static T call(T a, T b) {
    if (b == 0) return 0;
    if (is_signed_int<T>::value) {
      if (b == T(-1)) return 0;
      T r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b);
      return r;
    }
    return a % b;
  }
  __device__ static float call(float a, float b) { float d, m; float_divmod(a, b, &d, &m); return m; }
  __device__ static double call(double a, double b) { double d, m; float_divmod(a, b, &d, &m); return m; }
  __device__ static half call(half a, half b) { return to_half(call(to_float(a), to_float(b))); }
};
struct op_fmod {
  template <class T> __device__ static T call(T a, T b) {
    if (b == 0) return 0;
    if (is_signed_int<T>::value && b == T(-1)) return 0;
    return a % b;
  }
  __device__ static float call(float a, float b) { return fmodf(a, b); }
  __device__ static double call(double a, double b) { return fmod(a, b); }
  __device__ static half call(half a, half b) { return to_half(fmodf(to_float(a), to_float(b))); }
};
// NumPy's gcd and lcm of integers: of the magnitudes, never negative;
// gcd(0, 0) and lcm(0, x) are 0 (Euclid's algorithm, as npy_gcd).
struct op_gcd {
  template <class T> __device__ static T call(T a, T b) {
    if (is_signed_int<T>::value) {
      a = a < 0 ? (T)(-a) : a;
      b = b < 0 ? (T)(-b) : b;
    }
    while (b != 0) {
      const T r = a % b;
      a = b;
      b = r;
    }
    return a;
  }
};
struct op_lcm {
  template <class T> __device__ static T call(T a, T b) {
    // of the magnitudes, wrapping where the product does not fit (as NumPy's)
    if (is_signed_int<T>::value) {
      a = a < 0 ? (T)(-a) : a;
      b = b < 0 ? (T)(-b) : b;
    }
    const T g = op_gcd::call(a, b);
    return g == 0 ? T(0) : (T)(a / g * b);
  }
};
// NumPy's ldexp: x * 2**e, the exponent an integer (clamped to int's range,
// where every result has long saturated to 0 or inf).
struct op_ldexp {
  template <class E> __device__ static int exponent(E e) {
    if (!is_signed_int<E>::value) return (unsigned long long)e > 2147483647ull ? 2147483647 : (int)e;
    const long long v = (long long)e;
    return v > 2147483647LL ? 2147483647 : (v < -2147483647LL - 1 ? -2147483647 - 1 : (int)v);
  }
  template <class E> __device__ static float call(float x, E e) { return ldexpf(x, exponent(e)); }
  template <class E> __device__ static double call(double x, E e) { return ldexp(x, exponent(e)); }
  template <class E> __device__ static half call(half x, E e) { return to_half(ldexpf(to_float(x), exponent(e))); }
};
struct op_power {
  // Square-and-multiply with wrap-around; negative exponents are refused on the host.
  template <class T> __device__ static T call(T a, T b) {
    typedef typename unsigned_of<T>::type U;
    U base = (U)a, result = 1, e = (U)b;
    while (e) {
      if (e & 1) result = (U)(result * base);
      base = (U)(base * base);
      e >>= 1;
    }
    return (T)result;
  }
  __device__ static float call(float a, float b) { return powf(a, b); }
  __device__ static double call(double a, double b) { return pow(a, b); }
  __device__ static half call(half a, half b) { return to_half(powf(to_float(a), to_float(b))); }
  template <class R> __device__ static complex<R> call(complex<R> a, complex<R> b) { return cpow(a, b); }
};

#define KILN_DEV_COMPARE(name, expr)                                   \
  struct op_##name {                                                   \
    template <class T> __device__ static bool call(T a, T b) { return expr; } \
  };
KILN_DEV_COMPARE(equal, equal(a, b))
KILN_DEV_COMPARE(not_equal, !equal(a, b))
KILN_DEV_COMPARE(less, less(a, b))
KILN_DEV_COMPARE(less_equal, less_equal(a, b))
KILN_DEV_COMPARE(greater, less(b, a))
KILN_DEV_COMPARE(greater_equal, less_equal(b, a))
#undef KILN_DEV_COMPARE
template <class R> __device__ __forceinline__ bool equal(complex<R> a, complex<R> b) { return a == b; }

struct op_logical_and { __device__ static bool call(bool a, bool b) { return a && b; } };
struct op_logical_or { __device__ static bool call(bool a, bool b) { return a || b; } };
struct op_logical_xor { __device__ static bool call(bool a, bool b) { return a != b; } };
struct op_bitwise_and { template <class T> __device__ static T call(T a, T b) { return (T)(a & b); } };
struct op_bitwise_or { template <class T> __device__ static T call(T a, T b) { return (T)(a | b); } };
struct op_bitwise_xor { template <class T> __device__ static T call(T a, T b) { return (T)(a ^ b); } };
// Shifts by the width or more give 0 (-1 for negative values shifted right).
struct op_bitwise_left_shift {
  template <class T> __device__ static T call(T a, T b) {
    typedef typename unsigned_of<T>::type U;
    if ((U)b >= sizeof(T) * 8) return 0;
    return (T)((U)a << (U)b);
  }
};
struct op_bitwise_right_shift {
  template <class T> __device__ static T call(T a, T b) {
    typedef typename unsigned_of<T>::type U;
    if ((U)b >= sizeof(T) * 8) return is_signed_int<T>::value && a < 0 ? T(-1) : T(0);
    return (T)(a >> b);
  }
};

struct op_maximum {
  template <class T> __device__ static T call(T a, T b) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return less(a, b) ? b : a;
  }
};
struct op_minimum {
  template <class T> __device__ static T call(T a, T b) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return less(b, a) ? b : a;
  }
};
struct op_fmax {
  template <class T> __device__ static T call(T a, T b) {
    if (is_nan(b)) return a;
    if (is_nan(a)) return b;
    return less(a, b) ? b : a;
  }
};
struct op_fmin {
  template <class T> __device__ static T call(T a, T b) {
    if (is_nan(b)) return a;
    if (is_nan(a)) return b;
    return less(b, a) ? b : a;
  }
};

#define KILN_DEV_REAL2(name, ffn, dfn)                                                     \
  struct op_##name {                                                                       \
    __device__ static float call(float a, float b) { return ffn; }                         \
    __device__ static double call(double a, double b) { return dfn; }                      \
    __device__ static half call(half x, half y) { float a = to_float(x), b = to_float(y); return to_half(ffn); } \
  };
KILN_DEV_REAL2(atan2, KILN_MVEC(atan2f)(a, b), KILN_MVEC(atan2)(a, b))
#ifdef KILN_MVEC_WRAPPED
KILN_DEV_REAL2(hypot, kiln_mvec_hypotf(a, b), kiln_mvec_hypot(a, b))
#else
KILN_DEV_REAL2(hypot, real_hypot(a, b), real_hypot(a, b))
#endif
KILN_DEV_REAL2(copysign, copysignf(a, b), copysign(a, b))
#undef KILN_DEV_REAL2
struct op_logaddexp {
  template <class F> __device__ static F impl(F x, F y) {
    if (x == y) return x + F(0.6931471805599453);
    F d = x - y;
    if (d > 0) return x + log1p(exp(-d));
    if (d <= 0) return y + log1p(exp(d));
    return d;
  }
  __device__ static float call(float a, float b) { return impl(a, b); }
  __device__ static double call(double a, double b) { return impl(a, b); }
  __device__ static half call(half a, half b) { return to_half(impl(to_float(a), to_float(b))); }
};
struct op_nextafter {
  __device__ static float call(float a, float b) { return nextafterf(a, b); }
  __device__ static double call(double a, double b) { return nextafter(a, b); }
  // float16 steps its own bit pattern.
  __device__ static half call(half a, half b) {
    float fa = to_float(a), fb = to_float(b);
    if (fa != fa || fb != fb) return to_half(fa + fb);
    if (fa == fb) return b;
    half r;
    if (fa == 0.0f) {
      r.bits = fb < 0 ? 0x8001 : 0x0001;
    } else {
      r.bits = (unsigned short)(((fa < fb) == (fa > 0.0f)) ? a.bits + 1 : a.bits - 1);
    }
    return r;
  }
};

// ---- ternary --------------------------------------------------------------------------
struct op_clip {
  template <class T> __device__ static T call(T x, T lo, T hi) { return op_minimum::call(op_maximum::call(x, lo), hi); }
};
struct op_where {
  template <class T> __device__ static T call(bool c, T x, T y) { return c ? x : y; }
};

}}  // namespace kiln::dev
