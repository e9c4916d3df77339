#pragma once
// Python's cmath inside kernels (cuda.jit's `cmath.sin(z)`...): the values of
// CPython's cmath module where C99 leaves a sign or a NaN open and CPython's
// special-value tables choose otherwise than NumPy (whose choices
// complex_math.cuh follows, for kiln's ufuncs). As CPython does, sin, tan,
// asin and atan are the hyperbolic functions of i z turned back by -i; cos
// is cosh(i z). Numba's cmath follows CPython, and its tests compare with it.
#include "kiln/device/kernel_types.cuh"

template <class T> __device__ __forceinline__ bool kiln_cmath_nan(T x) { return x != x; }
template <class T> __device__ __forceinline__ bool kiln_cmath_finite(T x) { return x - x == x - x; }

template <class T> __device__ __forceinline__ complex<T> kiln_cmath_sinh(complex<T> z) {
  if (z.real() == T(0) && kiln_cmath_nan(z.imag())) return complex<T>(T(0), z.imag());
  return sinh(z);
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_cosh(complex<T> z) {
  if (kiln_cmath_nan(z.real()) && z.imag() == T(0)) return complex<T>(z.real(), T(0));
  return cosh(z);
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_tanh(complex<T> z) {
  const T x = z.real(), y = z.imag();
  if (kiln_cmath_finite(x) && kiln_cmath_nan(y)) return complex<T>(y, y);
  if (!kiln_cmath_finite(x) && !kiln_cmath_nan(x) && !kiln_cmath_finite(y) && !kiln_cmath_nan(y))
    return complex<T>(x > 0 ? T(1) : T(-1), T(0));
  if (!kiln_cmath_finite(x) || !kiln_cmath_finite(y)) return tanh(z);
  // CPython's formula for finite z, whose roundings the tests compare to the ulp.
  const T log_large = sizeof(T) == 4 ? T(87.3365) : T(708.3964185322641);  // log(largest / 4)
  if (fabs(x) > log_large) return complex<T>(x > 0 ? T(1) : T(-1), T(4) * sin(y) * cos(y) * exp(T(-2) * fabs(x)));
  const T tx = tanh(x), ty = tan(y), cx = T(1) / cosh(x), txty = tx * ty, denom = T(1) + txty * txty;
  return complex<T>(tx * (T(1) + ty * ty) / denom, ((ty / denom) * cx) * cx);
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_acos(complex<T> z) {
  const T x = z.real(), y = z.imag();
  if (!kiln_cmath_finite(x) && !kiln_cmath_nan(x) && kiln_cmath_nan(y)) return complex<T>(y, x > 0 ? x : -x);
  return acos(z);
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_acosh(complex<T> z) {
  if (kiln_cmath_finite(z.real()) && kiln_cmath_nan(z.imag())) return complex<T>(z.imag(), z.imag());
  return acosh(z);
}
// i z, and f(z) = -i g(i z) for the hyperbolic g. CPython's tables take no
// sign from a NaN: i z keeps a NaN imaginary part's NaN positive.
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_times_i(complex<T> z) {
  return complex<T>(kiln_cmath_nan(z.imag()) ? fabs(z.imag()) : -z.imag(), z.real());
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_turned(complex<T> w) {
  return complex<T>(w.imag(), -w.real());
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_sin(complex<T> z) {
  return kiln_cmath_turned(kiln_cmath_sinh(kiln_cmath_times_i(z)));
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_cos(complex<T> z) {
  return kiln_cmath_cosh(kiln_cmath_times_i(z));
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_tan(complex<T> z) {
  return kiln_cmath_turned(kiln_cmath_tanh(kiln_cmath_times_i(z)));
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_asin(complex<T> z) {
  return kiln_cmath_turned(asinh(kiln_cmath_times_i(z)));
}
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_atan(complex<T> z) {
  return kiln_cmath_turned(atanh(kiln_cmath_times_i(z)));
}
// r e^(i phi), with CPython's values where r or phi is not finite.
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_rect(T r, T phi) {
  if (r == T(0) && !kiln_cmath_finite(phi)) return complex<T>(T(0), T(0));
  if (phi == T(0) && !kiln_cmath_finite(r)) return complex<T>(r, kiln_cmath_nan(r) ? T(0) : r > 0 ? phi : -phi);
  if (!kiln_cmath_finite(r) && !kiln_cmath_nan(r) && kiln_cmath_nan(phi)) return complex<T>(r > 0 ? r : -r, phi);
  return complex<T>(r * cos(phi), r * sin(phi));
}
// log z as CPython's c_log computes a finite z (its special values are C99's,
// as complex_math.cuh's): log1p((m - 1)(m + 1) + n^2) / 2 where
// 0.71 <= |z| <= 1.73, halved parts beyond DBL_MAX / 4, scaled-up ones below
// DBL_MIN. Products rounded apart (mul_rn), as CPython's C does not contract.
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_log(complex<T> z) {
  if (!kiln_cmath_finite(z.real()) || !kiln_cmath_finite(z.imag())) return log(z);
  const double ax = fabs((double)z.real()), ay = fabs((double)z.imag());
  double re;
  if (ax > 4.49423283715578976932e+307 || ay > 4.49423283715578976932e+307) {
    re = log(hypot(ax / 2.0, ay / 2.0)) + 0.6931471805599453;
  } else if (ax < 2.2250738585072014e-308 && ay < 2.2250738585072014e-308) {
    re = ax > 0.0 || ay > 0.0 ? log(hypot(ldexp(ax, 53), ldexp(ay, 53))) - 53 * 0.6931471805599453
                              : -kiln::dev::infinity<double>();
  } else {
    const double h = hypot(ax, ay);
    if (0.71 <= h && h <= 1.73) {
      const double am = ax > ay ? ax : ay, an = ax > ay ? ay : ax;
      re = log1p(kiln::dev::mul_rn(am - 1, am + 1) + kiln::dev::mul_rn(an, an)) / 2;
    } else {
      re = log(h);
    }
  }
  return complex<T>((T)re, (T)atan2((double)z.imag(), (double)z.real()));
}

// a / b as CPython divides complex numbers (Smith's algorithm, dividing by
// the denominator rather than multiplying by its reciprocal), its products
// rounded apart: a GPU's contraction into FMAs made x / x 1 - 2e-17 i.
template <class T> __device__ __forceinline__ complex<T> kiln_cmath_quot(complex<T> a, complex<T> b) {
  const T br = fabs(b.real()), bi = fabs(b.imag());
  if (br >= bi) {
    if (br == T(0)) return a / b;  // NumPy's zero divisor, as kiln's complex division elsewhere
    const T ratio = b.imag() / b.real(), denom = b.real() + kiln::dev::mul_rn(b.imag(), ratio);
    return complex<T>((a.real() + kiln::dev::mul_rn(a.imag(), ratio)) / denom,
                      (a.imag() - kiln::dev::mul_rn(a.real(), ratio)) / denom);
  }
  if (bi >= br) {
    const T ratio = b.real() / b.imag(), denom = kiln::dev::mul_rn(b.real(), ratio) + b.imag();
    return complex<T>((kiln::dev::mul_rn(a.real(), ratio) + a.imag()) / denom,
                      (kiln::dev::mul_rn(a.imag(), ratio) - a.real()) / denom);
  }
  return a / b;  // a NaN part
}
