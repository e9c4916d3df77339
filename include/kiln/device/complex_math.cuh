// Complex arithmetic and functions for device code (NumPy's algorithms for
// division and reciprocal; textbook identities for the rest).
#pragma once
#include "kiln/device/types.cuh"

namespace kiln { namespace dev {

template <class R> __device__ __forceinline__ complex<R> operator+(complex<R> a, complex<R> b) { return make_complex(a.re + b.re, a.im + b.im); }
template <class R> __device__ __forceinline__ complex<R> operator-(complex<R> a, complex<R> b) { return make_complex(a.re - b.re, a.im - b.im); }
template <class R> __device__ __forceinline__ complex<R> operator-(complex<R> a) { return make_complex(-a.re, -a.im); }
// Each product rounded on its own (no FMA contraction), so that overflow
// goes as in NumPy's textbook product (an infinite term stays infinite).
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
template <class R> __device__ __forceinline__ complex<R> operator*(complex<R> a, complex<R> b) {
  return make_complex(mul_rn(a.re, b.re) - mul_rn(a.im, b.im), mul_rn(a.re, b.im) + mul_rn(a.im, b.re));
}
template <class R> __device__ __forceinline__ complex<R> scale(complex<R> a, R s) { return make_complex(a.re * s, a.im * s); }
template <class R> __device__ __forceinline__ bool operator==(complex<R> a, complex<R> b) { return a.re == b.re && a.im == b.im; }
template <class R> __device__ __forceinline__ bool operator!=(complex<R> a, complex<R> b) { return !(a == b); }
// Smith's division with NumPy's handling of a zero divisor.
template <class R> __device__ complex<R> operator/(complex<R> a, complex<R> b) {
  R br = fabs(b.re), bi = fabs(b.im);
  if (br >= bi) {
    if (br == 0 && bi == 0) return make_complex(a.re / br, a.im / br);
    R rat = b.im / b.re, scl = R(1) / (b.re + b.im * rat);
    return make_complex((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
  }
  R rat = b.re / b.im, scl = R(1) / (b.im + b.re * rat);
  return make_complex((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}
template <class R> __device__ complex<R> creciprocal(complex<R> z) {
  if (fabs(z.im) <= fabs(z.re)) {
    R r = z.im / z.re, d = z.re + z.im * r;
    return make_complex(R(1) / d, -r / d);
  }
  R r = z.re / z.im, d = z.im + z.re * r;
  return make_complex(r / d, R(-1) / d);
}

// hypot scaled by the larger magnitude: CUDA's own overflows to inf just
// below the largest double (hypot(1, DBL_MAX)), where C's and NumPy's do not.
template <class F> __device__ F scaled_hypot(F a, F b) {
  a = fabs(a);
  b = fabs(b);
  if (isinf(a) || isinf(b)) return infinity<F>();
  if (a != a || b != b) return a + b;  // NaN (fmax and fmin would drop it)
  const F big = fmax(a, b), small = fmin(a, b);
  if (big == 0) return big;
  const F r = small / big;
  return big * sqrt(F(1) + r * r);
}

template <class R> __device__ __forceinline__ R cabs(complex<R> z) { return scaled_hypot(z.re, z.im); }
template <class R> __device__ complex<R> cexp(complex<R> z) {
  R e = exp(z.re);
  if (z.im == 0) return make_complex(e, z.im);
  return make_complex(e * cos(z.im), e * sin(z.im));
}
template <class R> __device__ complex<R> clog(complex<R> z) { return make_complex(log(cabs(z)), atan2(z.im, z.re)); }
template <class R> __device__ complex<R> csqrt(complex<R> z) {
  if (z.re == 0 && z.im == 0) return make_complex(R(0), z.im);
  if (isinf(z.im)) return make_complex(infinity<R>(), z.im);
  R t = sqrt((fabs(z.re) + cabs(z)) / 2);
  if (z.re >= 0) return make_complex(t, z.im / (2 * t));
  return make_complex(fabs(z.im) / (2 * t), copysign(t, z.im));
}
// A part of these is (a zero) times (a cosh or sinh that may have overflowed):
// C99 gives that part the signed zero of the product, not 0 * inf = NaN.
template <class R> __device__ __forceinline__ R zero_times(R zero, R other) { return copysign(R(0), zero) * copysign(R(1), other); }
template <class R> __device__ complex<R> csinh(complex<R> z) {
  const R re = z.re == 0 ? zero_times(z.re, cos(z.im)) : sinh(z.re) * cos(z.im);
  const R im = z.im == 0 ? zero_times(z.im, cosh(z.re)) : cosh(z.re) * sin(z.im);
  return make_complex(re, im);
}
template <class R> __device__ complex<R> ccosh(complex<R> z) {
  const R im = z.im == 0 || z.re == 0 ? zero_times(z.re * z.im, R(1)) : sinh(z.re) * sin(z.im);
  return make_complex(cosh(z.re) * cos(z.im), im);
}
template <class R> __device__ complex<R> ctanh(complex<R> z) {
  if (fabs(z.re) > R(20)) return make_complex(copysign(R(1), z.re), copysign(R(0), sin(2 * z.im)));
  R d = cosh(2 * z.re) + cos(2 * z.im);
  return make_complex(sinh(2 * z.re) / d, sin(2 * z.im) / d);
}
// i*z and -i*z
template <class R> __device__ __forceinline__ complex<R> times_i(complex<R> z) { return make_complex(-z.im, z.re); }
template <class R> __device__ __forceinline__ complex<R> times_minus_i(complex<R> z) { return make_complex(z.im, -z.re); }
template <class R> __device__ complex<R> ctan(complex<R> z) { return times_minus_i(ctanh(times_i(z))); }
// sin z = -i sinh(iz), cos z = cosh(iz): the zero cases carry over.
template <class R> __device__ complex<R> csin(complex<R> z) { return times_minus_i(csinh(times_i(z))); }
template <class R> __device__ complex<R> ccos(complex<R> z) { return ccosh(times_i(z)); }
template <class R> __device__ complex<R> casinh(complex<R> z) {
  complex<R> one = make_complex(R(1), R(0));
  return clog(z + csqrt(z * z + one));
}
template <class R> __device__ complex<R> cacosh(complex<R> z) {
  complex<R> one = make_complex(R(1), R(0));
  return clog(z + csqrt(z + one) * csqrt(z - one));
}
template <class R> __device__ complex<R> catanh(complex<R> z) {
  complex<R> one = make_complex(R(1), R(0));
  return scale(clog(one + z) - clog(one - z), R(0.5));
}
template <class R> __device__ complex<R> casin(complex<R> z) { return times_minus_i(casinh(times_i(z))); }
template <class R> __device__ complex<R> cacos(complex<R> z) {
  complex<R> a = casin(z);
  return make_complex(R(1.5707963267948966) - a.re, -a.im);
}
template <class R> __device__ complex<R> catan(complex<R> z) { return times_minus_i(catanh(times_i(z))); }
// NumPy's nc_pow: zero bases by rule, integral exponents below 100 in
// magnitude by repeated squaring (exact where multiplication is), the rest
// through exp(b log a).
template <class R> __device__ complex<R> cpow(complex<R> a, complex<R> b) {
  if (b.re == 0 && b.im == 0) return make_complex(R(1), R(0));
  if (a.re == 0 && a.im == 0) {
    if (b.re > 0) return make_complex(R(0), R(0));
    return make_complex(quiet_nan<R>(), quiet_nan<R>());
  }
  if (b.im == 0 && b.re == R((long long)b.re) && fabs(b.re) < 100) {
    long long n = (long long)b.re;
    long long m = n < 0 ? -n : n;
    complex<R> result = make_complex(R(1), R(0)), p = a;
    for (long long mask = 1;; mask <<= 1) {
      if (m & mask) result = result * p;
      if (m < (mask << 1)) break;
      p = p * p;
    }
    return n < 0 ? make_complex(R(1), R(0)) / result : result;
  }
  return cexp(b * clog(a));
}
// exp(z) - 1 and log(1 + z) without cancellation (NumPy's nc_expm1 / nc_log1p).
template <class R> __device__ complex<R> cexpm1(complex<R> z) {
  R s = sin(z.im / 2);
  return make_complex(expm1(z.re) * cos(z.im) - 2 * s * s, exp(z.re) * sin(z.im));
}
template <class R> __device__ complex<R> clog1p(complex<R> z) {
  R x = z.re + 1;
  return make_complex(log(hypot(x, z.im)), atan2(z.im, x));
}

}}  // namespace kiln::dev
