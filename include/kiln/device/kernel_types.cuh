#pragma once
// The element types users' generated kernels (ElementwiseKernel,
// ReductionKernel) name for kiln's float16 and complex dtypes, spelled as
// CuPy's kernels spell them: `float16`, stored as binary16 with arithmetic
// through float (as CuPy's float16 and NumPy do), and `complex<float>` /
// `complex<double>`, std::complex's interface (std_complex.cuh). Compiles
// under NVRTC and under the host compiler alike.
#include "kiln/device/std_complex.cuh"

struct float16 {
  kiln::dev::half bits;

  __device__ __forceinline__ float16() : bits(kiln::dev::to_half(0.0f)) {}
  __device__ __forceinline__ float16(double d) : bits(kiln::dev::to_half(d)) {}
  // Any other real number converts through float.
  template <class U>
  __device__ __forceinline__ float16(U v) : bits(kiln::dev::to_half(static_cast<float>(v))) {}
  __device__ __forceinline__ operator float() const { return kiln::dev::to_float(bits); }

  template <class U> __device__ __forceinline__ float16& operator+=(U v) { return *this = float(*this) + v; }
  template <class U> __device__ __forceinline__ float16& operator-=(U v) { return *this = float(*this) - v; }
  template <class U> __device__ __forceinline__ float16& operator*=(U v) { return *this = float(*this) * v; }
  template <class U> __device__ __forceinline__ float16& operator/=(U v) { return *this = float(*this) / v; }
};

template <class T> using complex = kiln::dev::std_complex<T>;
