// The math functions loops on the CPU vectorise through glibc's libmvec:
// declared `simd`, so that GCC calls their vector variants. kiln's
// transcendental loops (src/cpu/math_kernels.cpp, which registers one loop
// for each function of KILN_LIBMVEC_UNARY) and generated kernels (fused.cuh)
// see these same declarations, so both call the same variants and get the
// same bits.
#pragma once
#define KILN_LIBMVEC_UNARY(X)                                                                      \
  X(sqrt) X(cbrt) X(exp) X(exp2) X(expm1) X(log) X(log1p) X(log2) X(log10) X(sin) X(cos) X(tan) X(asin) \
  X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh)
#if !defined(__CUDA_ARCH__) && defined(KILN_HAVE_LIBMVEC) && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
extern "C" {
#define KILN_SIMD_MATH(fn)                                            \
  __attribute__((simd("notinbranch"))) float fn##f(float) noexcept; \
  __attribute__((simd("notinbranch"))) double fn(double) noexcept;
KILN_LIBMVEC_UNARY(KILN_SIMD_MATH)
#undef KILN_SIMD_MATH
__attribute__((simd("notinbranch"))) float atan2f(float, float) noexcept;
__attribute__((simd("notinbranch"))) double atan2(double, double) noexcept;
__attribute__((simd("notinbranch"))) float hypotf(float, float) noexcept;
__attribute__((simd("notinbranch"))) double hypot(double, double) noexcept;
}
#endif
