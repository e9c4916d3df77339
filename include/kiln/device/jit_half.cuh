#pragma once
// float16 arithmetic, comparisons and conversions for kernels kiln.cuda.jit
// translates: on GPUs with half-precision instructions (sm_53 on) one PTX
// f16 instruction each, as Numba emits them; elsewhere (the CPU, older GPUs)
// computed in float and rounded once, which gives the same binary16 result
// for +, -, * (float's 24 bits hold a product of two 11-bit significands
// exactly, and rounding a sum twice through 24 bits is innocuous for 11).
// The instructions are spelled without a rounding mode, as CUDA's __hadd:
// ptxas may contract a multiply and an add into one fma, as it does in float.
#include "kiln/device/kernel_types.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
#define KILN_HALF_INSTRUCTIONS 1
#endif

__device__ __forceinline__ float16 kiln_half_from_bits(unsigned short bits) {
  float16 h;
  h.bits.bits = bits;
  return h;
}

#ifdef KILN_HALF_INSTRUCTIONS
#define KILN_HALF_BINARY(name, instruction)                                                          \
  __device__ __forceinline__ float16 name(float16 a, float16 b) {                                    \
    unsigned short r;                                                                                \
    asm(instruction " %0, %1, %2;" : "=h"(r) : "h"(a.bits.bits), "h"(b.bits.bits));                 \
    return kiln_half_from_bits(r);                                                                   \
  }
#define KILN_HALF_UNARY(name, instruction, fallback)                                                 \
  __device__ __forceinline__ float16 name(float16 a) {                                               \
    unsigned short r;                                                                                \
    asm(instruction " %0, %1;" : "=h"(r) : "h"(a.bits.bits));                                        \
    return kiln_half_from_bits(r);                                                                   \
  }
#define KILN_HALF_COMPARE(name, instruction, op)                                                     \
  __device__ __forceinline__ bool name(float16 a, float16 b) {                                       \
    unsigned short r;                                                                                \
    asm("{ .reg .pred p; " instruction " p, %1, %2; selp.u16 %0, 1, 0, p; }"                        \
        : "=h"(r) : "h"(a.bits.bits), "h"(b.bits.bits));                                            \
    return r != 0;                                                                                   \
  }
#else
#define KILN_HALF_BINARY(name, instruction) \
  __device__ __forceinline__ float16 name(float16 a, float16 b) { return float16(float(a) KILN_HALF_OP_##name float(b)); }
#define KILN_HALF_UNARY(name, instruction, fallback) \
  __device__ __forceinline__ float16 name(float16 a) { return kiln_half_from_bits(fallback); }
#define KILN_HALF_COMPARE(name, instruction, op) \
  __device__ __forceinline__ bool name(float16 a, float16 b) { return float(a) op float(b); }
#endif

#define KILN_HALF_OP_kiln_half_add +
#define KILN_HALF_OP_kiln_half_sub -
#define KILN_HALF_OP_kiln_half_mul *
KILN_HALF_BINARY(kiln_half_add, "add.f16")
KILN_HALF_BINARY(kiln_half_sub, "sub.f16")
KILN_HALF_BINARY(kiln_half_mul, "mul.f16")
// Sign-bit operations: exact, NaNs keep their payload.
KILN_HALF_UNARY(kiln_half_neg, "neg.f16", (unsigned short)(a.bits.bits ^ 0x8000u))
KILN_HALF_UNARY(kiln_half_abs, "abs.f16", (unsigned short)(a.bits.bits & 0x7fffu))
KILN_HALF_COMPARE(kiln_half_eq, "setp.eq.f16", ==)
KILN_HALF_COMPARE(kiln_half_ne, "setp.neu.f16", !=)  // unordered: a NaN is unequal to everything
KILN_HALF_COMPARE(kiln_half_lt, "setp.lt.f16", <)
KILN_HALF_COMPARE(kiln_half_le, "setp.le.f16", <=)
KILN_HALF_COMPARE(kiln_half_gt, "setp.gt.f16", >)
KILN_HALF_COMPARE(kiln_half_ge, "setp.ge.f16", >=)

__device__ __forceinline__ float16 kiln_half_fma(float16 a, float16 b, float16 c) {
#ifdef KILN_HALF_INSTRUCTIONS
  unsigned short r;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.bits.bits), "h"(b.bits.bits), "h"(c.bits.bits));
  return kiln_half_from_bits(r);
#else
  // a*b is exact in double; the sum is rounded to double, then to binary16
  // (the same result but where the first rounding makes a tie of the second).
  return float16((double)float(a) * (double)float(b) + (double)float(c));
#endif
}

// float16 to float64 in one conversion (exact either way).
__device__ __forceinline__ double kiln_half_to_double(float16 h) {
#ifdef __CUDA_ARCH__
  double d;
  asm("cvt.f64.f16 %0, %1;" : "=d"(d) : "h"(h.bits.bits));
  return d;
#else
  return (double)float(h);
#endif
}

// An integer to float16, rounded once to nearest even (through float an
// int32 above 2^24 would be rounded twice).
#ifdef __CUDA_ARCH__
#define KILN_INT_TO_HALF(type, instruction, constraint, wide)                                        \
  __device__ __forceinline__ float16 kiln_int_to_half(type x) {                                      \
    unsigned short r;                                                                                \
    asm(instruction " %0, %1;" : "=h"(r) : constraint((wide)x));                                     \
    return kiln_half_from_bits(r);                                                                   \
  }
#else
#define KILN_INT_TO_HALF(type, instruction, constraint, wide) \
  __device__ __forceinline__ float16 kiln_int_to_half(type x) { return float16((double)x); }
#endif
KILN_INT_TO_HALF(signed char, "cvt.rn.f16.s8", "h", short)
KILN_INT_TO_HALF(unsigned char, "cvt.rn.f16.u8", "h", unsigned short)
KILN_INT_TO_HALF(short, "cvt.rn.f16.s16", "h", short)
KILN_INT_TO_HALF(unsigned short, "cvt.rn.f16.u16", "h", unsigned short)
KILN_INT_TO_HALF(int, "cvt.rn.f16.s32", "r", int)
KILN_INT_TO_HALF(unsigned int, "cvt.rn.f16.u32", "r", unsigned int)
KILN_INT_TO_HALF(long long, "cvt.rn.f16.s64", "l", long long)
KILN_INT_TO_HALF(unsigned long long, "cvt.rn.f16.u64", "l", unsigned long long)
#undef KILN_INT_TO_HALF
#undef KILN_HALF_BINARY
#undef KILN_HALF_UNARY
#undef KILN_HALF_COMPARE
