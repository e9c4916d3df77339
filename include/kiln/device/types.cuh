// Element types of kiln's dtypes in device code compiled by NVRTC: fixed-width
// integers, a binary16 type converted with PTX cvt (no toolkit headers
// needed) and a complex type. Arithmetic on half goes through float, as on
// the CPU and in NumPy.
#pragma once

namespace kiln { namespace dev {

typedef signed char int8;
typedef unsigned char uint8;
typedef short int16;
typedef unsigned short uint16;
typedef int int32;
typedef unsigned int uint32;
typedef long long int64;
typedef unsigned long long uint64;

struct half {
  unsigned short bits;
};

#ifdef __CUDA_ARCH__
__device__ __forceinline__ float to_float(half h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
  return f;
}
__device__ __forceinline__ half to_half(float f) {
  half h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(f));
  return h;
}
__device__ __forceinline__ half to_half(double d) {
  half h;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h.bits) : "d"(d));
  return h;
}
#else
// The host compiler's binary16 (GCC's and Clang's _Float16, correctly rounded).
__device__ __forceinline__ float to_float(half h) {
  _Float16 v;
  memcpy(&v, &h.bits, sizeof v);
  return static_cast<float>(v);
}
template <class F> __device__ __forceinline__ half to_half_from(F x) {
  const _Float16 v = static_cast<_Float16>(x);
  half h;
  memcpy(&h.bits, &v, sizeof v);
  return h;
}
__device__ __forceinline__ half to_half(float f) { return to_half_from(f); }
__device__ __forceinline__ half to_half(double d) { return to_half_from(d); }
#endif

template <class R> __device__ __forceinline__ R quiet_nan();
template <> __device__ __forceinline__ float quiet_nan<float>() { return __int_as_float(0x7fc00000); }
template <> __device__ __forceinline__ double quiet_nan<double>() { return __longlong_as_double(0x7ff8000000000000LL); }
template <class R> __device__ __forceinline__ R infinity();
template <> __device__ __forceinline__ float infinity<float>() { return __int_as_float(0x7f800000); }
template <> __device__ __forceinline__ double infinity<double>() { return __longlong_as_double(0x7ff0000000000000LL); }

template <class R>
struct complex {
  R re, im;
};
typedef complex<float> complex64;
typedef complex<double> complex128;

template <class R> __device__ __forceinline__ complex<R> make_complex(R re, R im) {
  complex<R> z;
  z.re = re;
  z.im = im;
  return z;
}

// The type arithmetic on T is carried out in.
template <class T> struct compute_type { typedef T type; };
template <> struct compute_type<half> { typedef float type; };

template <class T> struct is_complex { static const bool value = false; };
template <class R> struct is_complex<complex<R> > { static const bool value = true; };
template <class T> struct is_float { static const bool value = false; };
template <> struct is_float<half> { static const bool value = true; };
template <> struct is_float<float> { static const bool value = true; };
template <> struct is_float<double> { static const bool value = true; };
template <class T> struct is_signed_int { static const bool value = false; };
template <> struct is_signed_int<int8> { static const bool value = true; };
template <> struct is_signed_int<int16> { static const bool value = true; };
template <> struct is_signed_int<int32> { static const bool value = true; };
template <> struct is_signed_int<int64> { static const bool value = true; };
template <class T> struct unsigned_of { typedef T type; };
template <> struct unsigned_of<int8> { typedef uint8 type; };
template <> struct unsigned_of<int16> { typedef uint16 type; };
template <> struct unsigned_of<int32> { typedef uint32 type; };
template <> struct unsigned_of<int64> { typedef uint64 type; };

// Conversions between any two element types, with NumPy's rules: complex to
// real drops the imaginary part, nonzero is true, half goes through float.
template <class To> struct convert_to {
  template <class From> __device__ static To from(From x) { return (To)x; }
  __device__ static To from(half x) { return (To)to_float(x); }
  template <class R> __device__ static To from(complex<R> x) { return (To)x.re; }
};
template <> struct convert_to<bool> {
  template <class From> __device__ static bool from(From x) { return x != From(0); }
  __device__ static bool from(half x) { return to_float(x) != 0.0f; }
  template <class R> __device__ static bool from(complex<R> x) { return x.re != R(0) || x.im != R(0); }
};
template <> struct convert_to<half> {
  template <class From> __device__ static half from(From x) { return to_half((float)x); }
  __device__ static half from(double x) { return to_half(x); }
  __device__ static half from(int64 x) { return to_half((double)x); }
  __device__ static half from(uint64 x) { return to_half((double)x); }
  __device__ static half from(half x) { return x; }
  template <class R> __device__ static half from(complex<R> x) { return from(x.re); }
};
template <class R> struct convert_to<complex<R> > {
  template <class From> __device__ static complex<R> from(From x) { return make_complex((R)x, R(0)); }
  __device__ static complex<R> from(half x) { return make_complex((R)to_float(x), R(0)); }
  template <class S> __device__ static complex<R> from(complex<S> x) { return make_complex((R)x.re, (R)x.im); }
};
template <class To, class From> __device__ __forceinline__ To convert(From x) { return convert_to<To>::from(x); }

}}  // namespace kiln::dev
