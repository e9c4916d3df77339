// scipy.special's functions of one real argument that kiln computes as ops
// (kiln.scipy.special): the error function family, the gamma function and its
// logarithm, and the Bessel functions of integer order 0 and 1. Plain C++
// that NVRTC and the host compiler both take: on the GPU CUDA's own math
// library; on the host the C library's, and for the inverse error functions
// Halley's iteration on erf/erfc from Winitzki's approximation (two steps
// take its 2e-3 to double precision; near |y| = 1 the iteration runs on erfc
// so that 1 - |y| keeps its digits).
#pragma once

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define KILN_SPECIAL_GPU 1
#define KILN_SPECIAL_FN __device__ __forceinline__
#else
#include <math.h>
#define KILN_SPECIAL_FN inline
#endif

namespace kiln { namespace special {

#ifdef KILN_SPECIAL_GPU
KILN_SPECIAL_FN double erfinv(double y) { return ::erfinv(y); }
KILN_SPECIAL_FN float erfinv(float y) { return ::erfinvf(y); }
KILN_SPECIAL_FN double erfcinv(double c) { return ::erfcinv(c); }
KILN_SPECIAL_FN float erfcinv(float c) { return ::erfcinvf(c); }
KILN_SPECIAL_FN double log_abs_gamma(double x) { return ::lgamma(x); }
KILN_SPECIAL_FN float log_abs_gamma(float x) { return ::lgammaf(x); }
#else
// Winitzki's approximation of |erfinv(y)| (within 2e-3) from l = log(1 - y^2).
KILN_SPECIAL_FN double winitzki(double l) {
  const double a = 0.147, t = 2.0 / (3.141592653589793 * a) + 0.5 * l;
  return ::sqrt(::sqrt(t * t - l / a) - t);
}
// Halley's steps from x toward erf(x) = target, or erfc(x) = target when
// `complement`: f' = +-2/sqrt(pi) e^(-x^2), f'' = -2x f'.
KILN_SPECIAL_FN double halley_erf(double x, double target, bool complement) {
  for (int step = 0; step < 3; ++step) {
    const double f = (complement ? ::erfc(x) : ::erf(x)) - target;
    const double slope = (complement ? -1.1283791670955126 : 1.1283791670955126) * ::exp(-x * x);
    if (f == 0.0 || slope == 0.0) break;
    x -= f / (slope + x * f);
  }
  return x;
}
// erfcinv(c) for 0 < c < 1/2: the x > 0 with erfc(x) = c (log(1 - y^2) for
// y = 1 - c taken as log(c (2 - c)), without the cancellation).
KILN_SPECIAL_FN double erfcinv_upper(double c) { return halley_erf(winitzki(::log(c * (2.0 - c))), c, true); }
// erfinv(y) for |y| <= 1/2.
KILN_SPECIAL_FN double erfinv_central(double y) {
  if (y == 0.0) return y;  // keeps -0.0
  const double x = winitzki(::log1p(-y * y));
  return halley_erf(y < 0 ? -x : x, y, false);
}
KILN_SPECIAL_FN double erfcinv(double c) {
  if (c != c || c < 0.0 || c > 2.0) return 0.0 / 0.0;
  if (c == 0.0) return 1.0 / 0.0;
  if (c == 2.0) return -1.0 / 0.0;
  if (c < 0.5) return erfcinv_upper(c);
  if (c > 1.5) return -erfcinv_upper(2.0 - c);
  return erfinv_central(1.0 - c);  // exact: c is within a factor 2 of 1
}
KILN_SPECIAL_FN double erfinv(double y) {
  if (y != y || y < -1.0 || y > 1.0) return 0.0 / 0.0;
  const double m = y < 0 ? -y : y;
  if (m > 0.5) return y < 0 ? -erfcinv(1.0 - m) : erfcinv(1.0 - m);
  return erfinv_central(y);
}
KILN_SPECIAL_FN float erfinv(float y) { return (float)erfinv((double)y); }
KILN_SPECIAL_FN float erfcinv(float c) { return (float)erfcinv((double)c); }
// lgamma_r: the sign goes to a local, not to the global signgam other threads write.
KILN_SPECIAL_FN double log_abs_gamma(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}
KILN_SPECIAL_FN float log_abs_gamma(float x) {
  int sign;
  return ::lgammaf_r(x, &sign);
}
#endif

// SciPy's (Cephes's) values at the infinities where the C library's differ:
// gammaln(-inf) = -inf, and the Bessel functions are NaN at +-inf.
template <class T> KILN_SPECIAL_FN bool is_infinite(T x) { return x == x && x - x != x - x; }
template <class T> KILN_SPECIAL_FN T gammaln(T x) { return x < 0 && is_infinite(x) ? x : log_abs_gamma(x); }
template <class T> KILN_SPECIAL_FN T nan_at_infinity(T x, T value) { return is_infinite(x) ? x - x : value; }

KILN_SPECIAL_FN double erf(double x) { return ::erf(x); }
KILN_SPECIAL_FN float erf(float x) { return ::erff(x); }
KILN_SPECIAL_FN double erfc(double x) { return ::erfc(x); }
KILN_SPECIAL_FN float erfc(float x) { return ::erfcf(x); }
KILN_SPECIAL_FN double gamma(double x) { return ::tgamma(x); }
KILN_SPECIAL_FN float gamma(float x) { return ::tgammaf(x); }
// The Bessel functions' float32 values are computed in double, as SciPy's
// float32 loops do: near their zeros CUDA's j0f/y0f lose relative accuracy
// (1e-3 off SciPy, measured on an H100).
KILN_SPECIAL_FN double j0(double x) { return nan_at_infinity(x, ::j0(x)); }
KILN_SPECIAL_FN float j0(float x) { return static_cast<float>(j0(static_cast<double>(x))); }
KILN_SPECIAL_FN double j1(double x) { return nan_at_infinity(x, ::j1(x)); }
KILN_SPECIAL_FN float j1(float x) { return static_cast<float>(j1(static_cast<double>(x))); }
// Y0 and Y1 are real only for x >= 0: NaN below, as SciPy (the C library says -inf).
KILN_SPECIAL_FN double y0(double x) { return x < 0 ? 0.0 / 0.0 : nan_at_infinity(x, ::y0(x)); }
KILN_SPECIAL_FN float y0(float x) { return static_cast<float>(y0(static_cast<double>(x))); }
KILN_SPECIAL_FN double y1(double x) { return x < 0 ? 0.0 / 0.0 : nan_at_infinity(x, ::y1(x)); }
KILN_SPECIAL_FN float y1(float x) { return static_cast<float>(y1(static_cast<double>(x))); }

}}  // namespace kiln::special
