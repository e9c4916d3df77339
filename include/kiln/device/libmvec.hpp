// The math functions loops on the CPU vectorise through glibc's libmvec:
// declared `simd`, so that GCC calls their vector variants. kiln's
// transcendental loops (src/cpu/math_kernels.cpp) and generated kernels
// (fused.cuh) see these same declarations, so both call the same variants
// and get the same bits. Loops that must keep the scalar functions' bits
// (complex abs, whose generated form does not vectorise) do not include it.
#pragma once
#if !defined(__CUDA_ARCH__) && defined(KILN_HAVE_LIBMVEC) && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
extern "C" {
#define KILN_SIMD_MATH(fn)                                            \
  __attribute__((simd("notinbranch"))) float fn##f(float) noexcept; \
  __attribute__((simd("notinbranch"))) double fn(double) noexcept;
KILN_SIMD_MATH(sqrt) KILN_SIMD_MATH(cbrt) KILN_SIMD_MATH(exp) KILN_SIMD_MATH(exp2) KILN_SIMD_MATH(expm1)
KILN_SIMD_MATH(log) KILN_SIMD_MATH(log1p) KILN_SIMD_MATH(log2) KILN_SIMD_MATH(log10) KILN_SIMD_MATH(sin)
KILN_SIMD_MATH(cos) KILN_SIMD_MATH(tan) KILN_SIMD_MATH(asin) KILN_SIMD_MATH(acos) KILN_SIMD_MATH(atan)
KILN_SIMD_MATH(sinh) KILN_SIMD_MATH(cosh) KILN_SIMD_MATH(tanh) KILN_SIMD_MATH(asinh) KILN_SIMD_MATH(acosh)
KILN_SIMD_MATH(atanh)
#undef KILN_SIMD_MATH
__attribute__((simd("notinbranch"))) float atan2f(float, float) noexcept;
__attribute__((simd("notinbranch"))) double atan2(double, double) noexcept;
__attribute__((simd("notinbranch"))) float hypotf(float, float) noexcept;
__attribute__((simd("notinbranch"))) double hypot(double, double) noexcept;
}
#endif
