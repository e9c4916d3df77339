// Complex arithmetic and functions for device code: NumPy's algorithms for
// division, reciprocal and powers; C99's special values and careful forms for
// the elementary functions.
#pragma once
#include "kiln/device/types.cuh"

namespace kiln { namespace dev {

template <class R> __device__ __forceinline__ complex<R> operator+(complex<R> a, complex<R> b) { return make_complex(a.re + b.re, a.im + b.im); }
template <class R> __device__ __forceinline__ complex<R> operator-(complex<R> a, complex<R> b) { return make_complex(a.re - b.re, a.im - b.im); }
template <class R> __device__ __forceinline__ complex<R> operator-(complex<R> a) { return make_complex(-a.re, -a.im); }
// NumPy's SIMD loops on x86 CPUs with FMA multiply complex numbers as
// (fma(ar, br, -(ai bi)), fma(ar, bi, ai br)); the same form here, with the
// inner products kept out of contraction, gives their bits, and so their
// cancellation and overflow.
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
template <class R> __device__ __forceinline__ complex<R> operator*(complex<R> a, complex<R> b) {
  return make_complex(fma(a.re, b.re, -mul_rn(a.im, b.im)), fma(a.re, b.im, mul_rn(a.im, b.re)));
}
template <class R> __device__ __forceinline__ complex<R> scale(complex<R> a, R s) { return make_complex(a.re * s, a.im * s); }
// |x|^2 without a square root: x * x for a real, re^2 + im^2 for a complex value.
template <class R> __device__ __forceinline__ R squared_magnitude(R x) { return x * x; }
template <class R> __device__ __forceinline__ R squared_magnitude(complex<R> z) { return z.re * z.re + z.im * z.im; }
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

// hypot scaled by the larger magnitude, as NumPy's vectorised complex
// absolute computes it (and without the overflow of CUDA's own hypot just
// below the largest double, hypot(1, DBL_MAX)). Selects, not branches: CPU
// loops vectorise it, with the same bits vectorised or not.
template <class F> __device__ F scaled_hypot(F a, F b) {
  a = fabs(a);
  b = fabs(b);
  const F big = a > b ? a : b, small = a > b ? b : a;
  const F r = small / big;
  F h = big * sqrt(F(1) + r * r);
  h = big == 0 ? big : h;
  h = (a != a || b != b) ? a + b : h;  // NaN
  return isinf(a) || isinf(b) ? infinity<F>() : h;
}
// NumPy's hypot: the C library's (npy_hypot) on the host; the scaled form
// in device code, where CUDA's overflows.
template <class F> __device__ F real_hypot(F a, F b) {
#ifdef __CUDA_ARCH__
  return scaled_hypot(a, b);
#else
  return hypot(a, b);
#endif
}

template <class R> __device__ __forceinline__ R cabs(complex<R> z) { return scaled_hypot(z.re, z.im); }

// Where the functions below change method, by precision.
template <class R> struct complex_bounds;
template <> struct complex_bounds<float> {
  static constexpr float exp_overflow = 88.0f;  // exp(x) and cosh(x) overflow a little above
  static constexpr float tanh_one = 9.0f;       // tanh(x) rounds to +-1 beyond
  static constexpr float asymptotic = 16384.0f; // 2^14: asinh(z) = log(2z) to the last bit beyond
  // sqrt and log|z| scale parts above large (a quarter of the largest float)
  // down, and parts below small up by up (2^40; sqrt's result by down, 2^-20).
  static constexpr float large = 8.5e37f;
  static constexpr float small = 1e-36f, up = 1099511627776.0f, down = 9.5367431640625e-07f;
  static constexpr float underflowing_square = 1e-28f;  // a sum of squares this small has lost bits
};
template <> struct complex_bounds<double> {
  static constexpr double exp_overflow = 709.0;
  static constexpr double tanh_one = 22.0;
  static constexpr double asymptotic = 268435456.0;  // 2^28
  static constexpr double large = 4.49e307;
  static constexpr double small = 1e-300, up = 4.149515568880993e+180, down = 4.909093465297727e-91;  // 2^600, 2^-300
  static constexpr double underflowing_square = 1e-290;
};
template <class R> __device__ __forceinline__ R half_pi() { return R(1.5707963267948966); }
template <class R> __device__ __forceinline__ R ln2() { return R(0.6931471805599453); }

// The functions follow C99's Annex G (glibc's, and so NumPy's, values for
// infinite and NaN parts), scale where a direct formula would overflow, and
// take W. Kahan's forms ("Branch cuts for complex elementary functions",
// 1987) for tanh and the inverse functions: accurate to a few ulps and on the
// right side of every branch cut, signed zeros included.

// e^x cis y. Beyond exp's overflow, e^(x/2) twice: e^x cos y can be finite.
template <class R> __device__ complex<R> cexp(complex<R> z) {
  const R x = z.re, y = z.im;
  if (isnan(x)) return make_complex(x, y == 0 ? y : quiet_nan<R>());
  if (isinf(x) && !isfinite(y)) return x > 0 ? make_complex(x, quiet_nan<R>()) : make_complex(R(0), R(0));
  if (y == 0) return make_complex(exp(x), y);
  if (x > complex_bounds<R>::exp_overflow) {
    const R h = exp(x / 2);
    return make_complex(h * cos(y) * h, h * sin(y) * h);
  }
  const R e = exp(x);
  return make_complex(e * cos(y), e * sin(y));
}
// log |z| of a finite z. Near |z| = 1, log1p(|z|^2 - 1) / 2 with
// (|x| - 1)(|x| + 1) + y^2 (no cancellation of the 1); huge parts halved
// first (|z| itself may overflow), subnormal ones scaled up (their |z| rounds
// coarsely).
template <class R> __device__ R log_abs(complex<R> z) {
  const R big = fmax(fabs(z.re), fabs(z.im)), small = fmin(fabs(z.re), fabs(z.im));
  if (big >= R(0.5) && big <= R(2) && small < R(1)) return log1p(fma(small, small, (big - 1) * (big + 1))) / 2;
  if (big >= complex_bounds<R>::large) return log(cabs(scale(z, R(0.5)))) + ln2<R>();
  if (big < complex_bounds<R>::small)
    return log(cabs(scale(z, complex_bounds<R>::up))) - log(complex_bounds<R>::up);
  return log(cabs(z));
}
// log |z| + i arg z.
template <class R> __device__ complex<R> clog(complex<R> z) {
  if (isinf(z.re) || isinf(z.im)) return make_complex(infinity<R>(), atan2(z.im, z.re));
  if (isnan(z.re) || isnan(z.im)) return make_complex(quiet_nan<R>(), quiet_nan<R>());
  return make_complex(log_abs(z), atan2(z.im, z.re));
}
// Kahan's: t = sqrt((|x| + |z|) / 2), the other part y / 2t; scaled by
// powers of 2 near overflow and underflow.
template <class R> __device__ complex<R> csqrt(complex<R> z) {
  const R x = z.re, y = z.im;
  if (isinf(y)) return make_complex(infinity<R>(), y);
  if (isnan(x)) return make_complex(x, quiet_nan<R>());
  if (isinf(x)) {
    if (x > 0) return make_complex(x, isnan(y) ? y : copysign(R(0), y));
    return make_complex(isnan(y) ? y : R(0), copysign(infinity<R>(), y));
  }
  if (isnan(y)) return make_complex(y, y);
  if (x == 0 && y == 0) return make_complex(R(0), y);
  R ax = fabs(x), ay = fabs(y), rescale = 1;
  if (ax >= complex_bounds<R>::large || ay >= complex_bounds<R>::large) {
    ax *= R(0.25);
    ay *= R(0.25);
    rescale = 2;
  } else if (ax < complex_bounds<R>::small && ay < complex_bounds<R>::small) {
    ax *= complex_bounds<R>::up;
    ay *= complex_bounds<R>::up;
    rescale = complex_bounds<R>::down;
  }
  const R t = sqrt((ax + scaled_hypot(ax, ay)) / 2), other = ay / (2 * t);
  if (x >= 0) return make_complex(t * rescale, copysign(other * rescale, y));
  return make_complex(other * rescale, copysign(t * rescale, y));
}
// sinh x cos y + i cosh x sin y. Beyond exp's overflow sinh and cosh are
// e^|x| / 2, taken as e^(|x|/2) twice.
template <class R> __device__ complex<R> csinh(complex<R> z) {
  const R x = z.re, y = z.im;
  if (isnan(x)) return make_complex(x, y == 0 ? y : quiet_nan<R>());
  if (isinf(x)) {
    if (y == 0) return make_complex(x, y);
    if (!isfinite(y)) return make_complex(infinity<R>(), quiet_nan<R>());  // C99 leaves the sign open; glibc's +
    return make_complex(x * cos(y), infinity<R>() * sin(y));
  }
  if (!isfinite(y)) return make_complex(x == 0 ? x : quiet_nan<R>(), quiet_nan<R>());
  if (fabs(x) > complex_bounds<R>::exp_overflow) {
    const R h = exp(fabs(x) / 2), sinh_cos = R(0.5) * h * cos(y) * h;
    return make_complex(x > 0 ? sinh_cos : -sinh_cos, y == 0 ? y : R(0.5) * h * sin(y) * h);
  }
  return make_complex(sinh(x) * cos(y), cosh(x) * sin(y));
}
template <class R> __device__ complex<R> ccosh(complex<R> z) {
  const R x = z.re, y = z.im;
  if (isnan(x)) return make_complex(x, y == 0 ? y : quiet_nan<R>());
  if (isinf(x)) {
    if (y == 0) return make_complex(infinity<R>(), x > 0 ? y : -y);
    if (!isfinite(y)) return make_complex(infinity<R>(), quiet_nan<R>());
    return make_complex(infinity<R>() * cos(y), x * sin(y));
  }
  if (!isfinite(y)) return make_complex(quiet_nan<R>(), x == 0 ? R(0) : quiet_nan<R>());
  if (fabs(x) > complex_bounds<R>::exp_overflow) {
    const R h = exp(fabs(x) / 2), sinh_sin = y == 0 ? y : R(0.5) * h * sin(y) * h;
    return make_complex(R(0.5) * h * cos(y) * h, x > 0 ? sinh_sin : -sinh_sin);
  }
  return make_complex(cosh(x) * cos(y), sinh(x) * sin(y));
}
// Kahan's tanh: t = tan y, b = 1 + t^2, s = sinh x, r = sqrt(1 + s^2):
// (b r s + i t) / (1 + b s^2), no cancellation anywhere; beyond tanh's
// saturation, +-1 + 4 i sin y cos y e^(-2|x|).
template <class R> __device__ complex<R> ctanh(complex<R> z) {
  const R x = z.re, y = z.im;
  if (isnan(x)) return make_complex(x, y == 0 ? y : quiet_nan<R>());
  if (isinf(x)) return make_complex(copysign(R(1), x), isfinite(y) ? copysign(R(0), sin(y) * cos(y)) : copysign(R(0), y));
  if (!isfinite(y)) return make_complex(x == 0 ? x : quiet_nan<R>(), quiet_nan<R>());
  if (fabs(x) > complex_bounds<R>::tanh_one)
    return make_complex(copysign(R(1), x), 4 * sin(y) * cos(y) * exp(-2 * fabs(x)));
  const R t = tan(y), b = 1 + t * t, s = sinh(x), r = sqrt(1 + s * s), d = 1 + b * s * s;
  return make_complex(b * r * s / d, t / d);
}
// i*z and -i*z
template <class R> __device__ __forceinline__ complex<R> times_i(complex<R> z) { return make_complex(-z.im, z.re); }
template <class R> __device__ __forceinline__ complex<R> times_minus_i(complex<R> z) { return make_complex(z.im, -z.re); }
template <class R> __device__ complex<R> ctan(complex<R> z) { return times_minus_i(ctanh(times_i(z))); }
// sin z = -i sinh(iz), cos z = cosh(iz): the special values carry over.
template <class R> __device__ complex<R> csin(complex<R> z) {
  // The one open sign: -i sinh(iz) gives NaN - i inf where glibc's sin gives + i inf.
  if (!isfinite(z.re) && isinf(z.im)) return make_complex(quiet_nan<R>(), infinity<R>());
  return times_minus_i(csinh(times_i(z)));
}
template <class R> __device__ complex<R> ccos(complex<R> z) { return ccosh(times_i(z)); }

// Beyond complex_bounds::asymptotic, asin, acos and their hyperbolic kin are
// log(2z) and arg z to the last bit: log|z| + log 2 (no square to overflow).
template <class R> __device__ __forceinline__ bool asymptotic(R ax, R ay) {
  return fmax(ax, ay) > complex_bounds<R>::asymptotic;
}
template <class R> __device__ __forceinline__ R log_twice_abs(complex<R> z) { return log_abs(z) + ln2<R>(); }
// asinh, odd in each part: first quadrant, then the signs of z. Finite z
// between the bounds: Kahan's -i asin(iz), asin w = atan(Re w / Re(sqrt(1-w)
// sqrt(1+w))) + i asinh(Im(conj(sqrt(1-w)) sqrt(1+w))).
template <class R> __device__ complex<R> casinh(complex<R> z) {
  const R ax = fabs(z.re), ay = fabs(z.im);
  R re, im;
  if (isinf(ax) || isinf(ay)) {
    re = infinity<R>();
    im = isnan(ax) || isnan(ay) ? quiet_nan<R>() : atan2(ay, ax);
  } else if (isnan(ax) || isnan(ay)) {
    re = quiet_nan<R>();
    im = isnan(ax) && ay == 0 ? ay : quiet_nan<R>();
  } else if (asymptotic(ax, ay)) {
    re = log_twice_abs(z);
    im = atan2(ay, ax);
  } else {
    const complex<R> a = csqrt(make_complex(1 + ay, -ax)), b = csqrt(make_complex(1 - ay, ax));  // w = i|z|-ish
    im = atan2(ay, a.re * b.re - a.im * b.im);
    re = asinh(a.re * b.im - a.im * b.re);
  }
  return make_complex(copysign(re, z.re), copysign(im, z.im));
}
template <class R> __device__ complex<R> casin(complex<R> z) { return times_minus_i(casinh(times_i(z))); }
// acos, conjugate-symmetric: Kahan's 2 atan(Re sqrt(1-z) / Re sqrt(1+z))
// + i asinh(Im(conj(sqrt(1+z)) sqrt(1-z))).
template <class R> __device__ complex<R> cacos(complex<R> z) {
  const R x = z.re, y = z.im;
  if (isinf(x) || isinf(y)) {
    if (isnan(x) || isnan(y)) return make_complex(quiet_nan<R>(), isnan(x) ? -copysign(infinity<R>(), y) : -infinity<R>());
    return make_complex(atan2(fabs(y), x), -copysign(infinity<R>(), y));
  }
  if (isnan(x) || isnan(y)) return make_complex(x == 0 ? half_pi<R>() : quiet_nan<R>(), quiet_nan<R>());
  if (asymptotic(fabs(x), fabs(y))) return make_complex(atan2(fabs(y), x), -copysign(log_twice_abs(z), y));
  const complex<R> a = csqrt(make_complex(1 - x, -y)), b = csqrt(make_complex(1 + x, y));
  return make_complex(2 * atan2(a.re, b.re), asinh(b.re * a.im - b.im * a.re));
}
// acosh, conjugate-symmetric: Kahan's asinh(Re(conj(sqrt(z-1)) sqrt(z+1)))
// + 2i atan(Im sqrt(z-1) / Re sqrt(z+1)).
template <class R> __device__ complex<R> cacosh(complex<R> z) {
  const R x = z.re, y = z.im;
  if (isinf(x) || isinf(y))
    return make_complex(infinity<R>(), isnan(x) || isnan(y) ? quiet_nan<R>() : copysign(atan2(fabs(y), x), y));
  if (isnan(x) || isnan(y)) return make_complex(quiet_nan<R>(), x == 0 ? half_pi<R>() : quiet_nan<R>());  // as glibc
  if (asymptotic(fabs(x), fabs(y))) return make_complex(log_twice_abs(z), copysign(atan2(fabs(y), x), y));
  const complex<R> a = csqrt(make_complex(x - 1, y)), b = csqrt(make_complex(x + 1, y));
  return make_complex(asinh(a.re * b.re + a.im * b.im), 2 * atan2(a.im, b.re));
}
// atanh, odd in each part: Kahan's log1p(4x / ((1-x)^2 + y^2)) / 4 +
// i atan2(2y, (1-x)(1+x) - y^2) / 2 in the first quadrant. Near 1 with a tiny
// y, where (1-x)^2 + y^2 underflows: (log|1+z| - log|1-z|) / 2. For huge
// parts: x / |z|^2 + i (pi/2 - atan(2y / |z|^2) / 2), |z|^2 never formed.
template <class R> __device__ complex<R> catanh(complex<R> z) {
  const R ax = fabs(z.re), ay = fabs(z.im);
  R re, im;
  if (isinf(ax) || isinf(ay)) {
    re = 0;
    im = isnan(ay) ? ay : half_pi<R>();
  } else if (isnan(ax) || isnan(ay)) {
    re = ax == 0 ? ax : quiet_nan<R>();
    im = quiet_nan<R>();
  } else if (asymptotic(ax, ay)) {
    const R big = fmax(ax, ay), ratio = fmin(ax, ay) / big, unit = 1 / big / (1 + ratio * ratio);
    re = ax >= ay ? unit : ratio * unit;  // x / |z|^2
    im = half_pi<R>() - atan(2 * (ay >= ax ? unit : ratio * unit)) / 2;
  } else {
    const R one_minus = 1 - ax, d = one_minus * one_minus + ay * ay;
    re = d < complex_bounds<R>::underflowing_square
             ? (log(scaled_hypot(1 + ax, ay)) - log(scaled_hypot(one_minus, ay))) / 2
             : log1p(4 * ax / d) / 4;
    im = atan2(2 * ay, one_minus * (1 + ax) - ay * ay) / 2;
  }
  return make_complex(copysign(re, z.re), copysign(im, z.im));
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
