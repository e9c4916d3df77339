#pragma once
// A complex number for users' kernels, with std::complex's interface
// (constructors, real()/imag(), arithmetic with complex and real operands,
// abs, arg, norm, conj, polar, exp, log, log10, sqrt, pow, the trigonometric
// and hyperbolic functions and their inverses), over kiln's complex
// functions (complex_math.cuh: C99's special values, NumPy's products).
// Laid out as two T, as NumPy's complex64 and complex128 are, so kernels take
// NumPy's and kiln's complex arrays by pointer. Compiles under NVRTC and under
// the host compiler alike; PyCUDA's pycuda::complex is this type.
#include "kiln/device/complex_math.cuh"

namespace kiln { namespace dev {

template <class T>
struct std_complex {
  T re, im;

  __device__ __forceinline__ std_complex(T r = T(), T i = T()) : re(r), im(i) {}
  template <class U>
  __device__ __forceinline__ std_complex(const std_complex<U>& z) : re(T(z.real())), im(T(z.imag())) {}
  __device__ __forceinline__ std_complex(complex<T> z) : re(z.re), im(z.im) {}
  __device__ __forceinline__ operator complex<T>() const { return make_complex(re, im); }

  __device__ __forceinline__ T real() const { return re; }
  __device__ __forceinline__ T imag() const { return im; }
  __device__ __forceinline__ void real(T r) { re = r; }
  __device__ __forceinline__ void imag(T i) { im = i; }

  __device__ __forceinline__ std_complex& operator=(T x) { re = x; im = T(); return *this; }
  __device__ __forceinline__ std_complex& operator+=(std_complex z) { return *this = *this + z; }
  __device__ __forceinline__ std_complex& operator-=(std_complex z) { return *this = *this - z; }
  __device__ __forceinline__ std_complex& operator*=(std_complex z) { return *this = *this * z; }
  __device__ __forceinline__ std_complex& operator/=(std_complex z) { return *this = *this / z; }
  __device__ __forceinline__ std_complex& operator+=(T x) { re += x; return *this; }
  __device__ __forceinline__ std_complex& operator-=(T x) { re -= x; return *this; }
  __device__ __forceinline__ std_complex& operator*=(T x) { re *= x; im *= x; return *this; }
  __device__ __forceinline__ std_complex& operator/=(T x) { re /= x; im /= x; return *this; }
};

template <class T> __device__ __forceinline__ complex<T> as_kiln(std_complex<T> z) { return make_complex(z.re, z.im); }

// Arithmetic: complex with complex, with a real of its type on either side.
template <class T> __device__ __forceinline__ std_complex<T> operator+(std_complex<T> a, std_complex<T> b) { return as_kiln(a) + as_kiln(b); }
template <class T> __device__ __forceinline__ std_complex<T> operator-(std_complex<T> a, std_complex<T> b) { return as_kiln(a) - as_kiln(b); }
template <class T> __device__ __forceinline__ std_complex<T> operator*(std_complex<T> a, std_complex<T> b) { return as_kiln(a) * as_kiln(b); }
template <class T> __device__ __forceinline__ std_complex<T> operator/(std_complex<T> a, std_complex<T> b) { return as_kiln(a) / as_kiln(b); }
template <class T> __device__ __forceinline__ std_complex<T> operator+(std_complex<T> a, T x) { return std_complex<T>(a.re + x, a.im); }
template <class T> __device__ __forceinline__ std_complex<T> operator+(T x, std_complex<T> a) { return std_complex<T>(x + a.re, a.im); }
template <class T> __device__ __forceinline__ std_complex<T> operator-(std_complex<T> a, T x) { return std_complex<T>(a.re - x, a.im); }
template <class T> __device__ __forceinline__ std_complex<T> operator-(T x, std_complex<T> a) { return std_complex<T>(x - a.re, -a.im); }
template <class T> __device__ __forceinline__ std_complex<T> operator*(std_complex<T> a, T x) { return std_complex<T>(a.re * x, a.im * x); }
template <class T> __device__ __forceinline__ std_complex<T> operator*(T x, std_complex<T> a) { return std_complex<T>(x * a.re, x * a.im); }
template <class T> __device__ __forceinline__ std_complex<T> operator/(std_complex<T> a, T x) { return std_complex<T>(a.re / x, a.im / x); }
template <class T> __device__ __forceinline__ std_complex<T> operator/(T x, std_complex<T> a) { return std_complex<T>(x) / a; }
template <class T> __device__ __forceinline__ std_complex<T> operator+(std_complex<T> a) { return a; }
template <class T> __device__ __forceinline__ std_complex<T> operator-(std_complex<T> a) { return std_complex<T>(-a.re, -a.im); }
template <class T> __device__ __forceinline__ bool operator==(std_complex<T> a, std_complex<T> b) { return a.re == b.re && a.im == b.im; }
template <class T> __device__ __forceinline__ bool operator!=(std_complex<T> a, std_complex<T> b) { return !(a == b); }
template <class T> __device__ __forceinline__ bool operator==(std_complex<T> a, T x) { return a.re == x && a.im == T(); }
template <class T> __device__ __forceinline__ bool operator!=(std_complex<T> a, T x) { return !(a == x); }

// std::complex's functions, found by argument-dependent lookup.
template <class T> __device__ __forceinline__ T real(std_complex<T> z) { return z.re; }
template <class T> __device__ __forceinline__ T imag(std_complex<T> z) { return z.im; }
template <class T> __device__ __forceinline__ T abs(std_complex<T> z) { return cabs(as_kiln(z)); }
template <class T> __device__ __forceinline__ T arg(std_complex<T> z) { return atan2(z.im, z.re); }
template <class T> __device__ __forceinline__ T norm(std_complex<T> z) { return z.re * z.re + z.im * z.im; }
template <class T> __device__ __forceinline__ std_complex<T> conj(std_complex<T> z) { return std_complex<T>(z.re, -z.im); }
template <class T> __device__ __forceinline__ std_complex<T> polar(T r, T theta = T()) {
  return std_complex<T>(r * cos(theta), r * sin(theta));
}
template <class T> __device__ __forceinline__ std_complex<T> exp(std_complex<T> z) { return cexp(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> log(std_complex<T> z) { return clog(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> log10(std_complex<T> z) {
  return log(z) * T(0.43429448190325182765);  // 1 / ln 10
}
template <class T> __device__ __forceinline__ std_complex<T> sqrt(std_complex<T> z) { return csqrt(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> pow(std_complex<T> a, std_complex<T> b) { return cpow(as_kiln(a), as_kiln(b)); }
template <class T> __device__ __forceinline__ std_complex<T> pow(std_complex<T> a, T b) { return pow(a, std_complex<T>(b)); }
template <class T> __device__ __forceinline__ std_complex<T> pow(T a, std_complex<T> b) { return pow(std_complex<T>(a), b); }
template <class T> __device__ __forceinline__ std_complex<T> sin(std_complex<T> z) { return csin(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> cos(std_complex<T> z) { return ccos(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> tan(std_complex<T> z) { return ctan(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> sinh(std_complex<T> z) { return csinh(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> cosh(std_complex<T> z) { return ccosh(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> tanh(std_complex<T> z) { return ctanh(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> asin(std_complex<T> z) { return casin(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> acos(std_complex<T> z) { return cacos(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> atan(std_complex<T> z) { return catan(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> asinh(std_complex<T> z) { return casinh(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> acosh(std_complex<T> z) { return cacosh(as_kiln(z)); }
template <class T> __device__ __forceinline__ std_complex<T> atanh(std_complex<T> z) { return catanh(as_kiln(z)); }

}}  // namespace kiln::dev
