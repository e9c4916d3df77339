#pragma once
// bfloat16 for kiln.cuda.jit's kernels (python/kiln/_jit/constructs/bfloat16.py,
// Numba's numba.cuda.bf16): the upper 16 bits of a float32 (8 exponent bits,
// 7 fraction bits), computed in float and rounded once, on the GPU and the
// CPU alike. Rounding a float result of +, -, *, / or sqrt of two bfloat16s
// to bfloat16 gives the correctly rounded result: float's 24 bits are more
// than 2 * 8 + 2 (so the double rounding is innocuous). Conversions with a
// rounding mode in their name round as cuda_bf16.h's intrinsics do: rn to
// nearest even, rz toward zero, rd down, ru up. Included by jit_support.cuh
// after kiln_reinterpret.

enum kiln_rounding { kiln_rn, kiln_rz, kiln_rd, kiln_ru };

// float32 to bfloat16 bits in `mode`; NaN stays NaN (quiet), with its sign.
__device__ __forceinline__ unsigned short kiln_bf16_bits(float f, int mode) {
  const unsigned u = kiln_reinterpret<unsigned>(f);
  const unsigned short high = (unsigned short)(u >> 16);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)(high | 0x40u);
  if ((u & 0xffffu) == 0) return high;  // exact
  const bool negative = (u >> 31) != 0;
  switch (mode) {
    case kiln_rz: return high;
    case kiln_rd: return negative ? (unsigned short)(high + 1) : high;  // away from zero below zero
    case kiln_ru: return negative ? high : (unsigned short)(high + 1);
    default: return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);  // to nearest, ties to even
  }
}

// A double as the float nearest toward zero with its last bit set where the
// conversion is inexact (rounding to odd): rounding that float to bfloat16
// in any mode then gives what rounding the double directly would.
__device__ __forceinline__ float kiln_float_round_to_odd(double d) {
  float f = (float)d;
  if (f == f && (double)f != d) {
    if (fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);
    f = kiln_reinterpret<float>(kiln_reinterpret<unsigned>(f) | 1u);
  }
  return f;
}

// An integer's magnitude as a double with a sticky last bit for the bits
// beyond 53 (exact below 2**53), so rounding it to bfloat16 rounds once.
__device__ __forceinline__ double kiln_sticky_double(unsigned long long magnitude) {
  int shift = 0;
  unsigned long long sticky = 0;
  while (magnitude >> 53) {
    sticky |= magnitude & 1u;
    magnitude >>= 1;
    ++shift;
  }
  return ldexp((double)(magnitude | sticky), shift);
}

struct kiln_bfloat16 {
  unsigned short bits;
  kiln_bfloat16() = default;
  __device__ __forceinline__ explicit kiln_bfloat16(float f) : bits(kiln_bf16_bits(f, kiln_rn)) {}
  __device__ __forceinline__ explicit kiln_bfloat16(double d)
      : bits(kiln_bf16_bits(kiln_float_round_to_odd(d), kiln_rn)) {}
  // Any other number (integers, bool, float16) through double.
  template <class U>
  __device__ __forceinline__ explicit kiln_bfloat16(U v)
      : bits(kiln_bf16_bits(kiln_float_round_to_odd(static_cast<double>(v)), kiln_rn)) {}
  __device__ __forceinline__ operator float() const { return kiln_reinterpret<float>((unsigned)bits << 16); }
};

__device__ __forceinline__ kiln_bfloat16 kiln_bf16_from_bits(unsigned short bits) {
  kiln_bfloat16 h;
  h.bits = bits;
  return h;
}
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_round(float f, int mode = kiln_rn) {
  return kiln_bf16_from_bits(kiln_bf16_bits(f, mode));
}
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_round_double(double d, int mode) {
  return kiln_bf16_from_bits(kiln_bf16_bits(kiln_float_round_to_odd(d), mode));
}

// Operators: as the intrinsics, computed in float and rounded once.
__device__ __forceinline__ kiln_bfloat16 operator+(kiln_bfloat16 a, kiln_bfloat16 b) { return kiln_bf16_round(float(a) + float(b)); }
__device__ __forceinline__ kiln_bfloat16 operator-(kiln_bfloat16 a, kiln_bfloat16 b) { return kiln_bf16_round(float(a) - float(b)); }
__device__ __forceinline__ kiln_bfloat16 operator*(kiln_bfloat16 a, kiln_bfloat16 b) { return kiln_bf16_round(float(a) * float(b)); }
__device__ __forceinline__ kiln_bfloat16 operator/(kiln_bfloat16 a, kiln_bfloat16 b) { return kiln_bf16_round(float(a) / float(b)); }
__device__ __forceinline__ kiln_bfloat16 operator-(kiln_bfloat16 a) { return kiln_bf16_from_bits((unsigned short)(a.bits ^ 0x8000u)); }
__device__ __forceinline__ bool operator==(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) == float(b); }
__device__ __forceinline__ bool operator!=(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) != float(b); }
__device__ __forceinline__ bool operator<(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) < float(b); }
__device__ __forceinline__ bool operator<=(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) <= float(b); }
__device__ __forceinline__ bool operator>(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) > float(b); }
__device__ __forceinline__ bool operator>=(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) >= float(b); }

// Numba's numba.cuda.bf16 functions, by their names there.
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_habs(kiln_bfloat16 a) { return kiln_bf16_from_bits((unsigned short)(a.bits & 0x7fffu)); }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hneg(kiln_bfloat16 a) { return -a; }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hadd(kiln_bfloat16 a, kiln_bfloat16 b) { return a + b; }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hsub(kiln_bfloat16 a, kiln_bfloat16 b) { return a - b; }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hmul(kiln_bfloat16 a, kiln_bfloat16 b) { return a * b; }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hdiv(kiln_bfloat16 a, kiln_bfloat16 b) { return a / b; }
// The _rn forms are not contracted into an fma; computed apart, they are the same.
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hadd_rn(kiln_bfloat16 a, kiln_bfloat16 b) { return a + b; }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hsub_rn(kiln_bfloat16 a, kiln_bfloat16 b) { return a - b; }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hmul_rn(kiln_bfloat16 a, kiln_bfloat16 b) { return a * b; }
// fma through double: the product is exact there, the sum rounded to odd, then to bfloat16.
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hfma(kiln_bfloat16 a, kiln_bfloat16 b, kiln_bfloat16 c) {
  return kiln_bf16_round_double((double)float(a) * (double)float(b) + (double)float(c), kiln_rn);
}
// _sat: clamped to [0, 1], NaN to +0 (cuda_bf16.h's rule).
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_saturate(kiln_bfloat16 x) {
  const float f = float(x);
  return f > 0.0f ? (f < 1.0f ? x : kiln_bf16_round(1.0f)) : kiln_bf16_from_bits(0);
}
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hadd_sat(kiln_bfloat16 a, kiln_bfloat16 b) { return kiln_bf16_saturate(a + b); }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hsub_sat(kiln_bfloat16 a, kiln_bfloat16 b) { return kiln_bf16_saturate(a - b); }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hmul_sat(kiln_bfloat16 a, kiln_bfloat16 b) { return kiln_bf16_saturate(a * b); }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hfma_sat(kiln_bfloat16 a, kiln_bfloat16 b, kiln_bfloat16 c) {
  return kiln_bf16_saturate(kiln_bf16_hfma(a, b, c));
}
// fma then max(0, .); a NaN stays NaN.
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hfma_relu(kiln_bfloat16 a, kiln_bfloat16 b, kiln_bfloat16 c) {
  const kiln_bfloat16 r = kiln_bf16_hfma(a, b, c);
  return float(r) < 0.0f ? kiln_bf16_from_bits(0) : r;
}
// Comparisons are ordered: false where either is NaN (hne too).
__device__ __forceinline__ bool kiln_bf16_heq(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) == float(b); }
__device__ __forceinline__ bool kiln_bf16_hne(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) < float(b) || float(a) > float(b); }
__device__ __forceinline__ bool kiln_bf16_hge(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) >= float(b); }
__device__ __forceinline__ bool kiln_bf16_hgt(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) > float(b); }
__device__ __forceinline__ bool kiln_bf16_hle(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) <= float(b); }
__device__ __forceinline__ bool kiln_bf16_hlt(kiln_bfloat16 a, kiln_bfloat16 b) { return float(a) < float(b); }
__device__ __forceinline__ bool kiln_bf16_hisnan(kiln_bfloat16 a) { return (a.bits & 0x7fffu) > 0x7f80u; }
// -1 for -inf, 1 for +inf, else 0.
__device__ __forceinline__ int kiln_bf16_hisinf(kiln_bfloat16 a) {
  return a.bits == 0x7f80u ? 1 : a.bits == 0xff80u ? -1 : 0;
}
// hmax/hmin ignore a NaN (the other operand; NaN if both); the _nan forms give NaN.
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hmax(kiln_bfloat16 a, kiln_bfloat16 b) { return kiln_bf16_round(fmaxf(float(a), float(b))); }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hmin(kiln_bfloat16 a, kiln_bfloat16 b) { return kiln_bf16_round(fminf(float(a), float(b))); }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hmax_nan(kiln_bfloat16 a, kiln_bfloat16 b) {
  return kiln_bf16_hisnan(a) ? a : kiln_bf16_hisnan(b) ? b : kiln_bf16_hmax(a, b);
}
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_hmin_nan(kiln_bfloat16 a, kiln_bfloat16 b) {
  return kiln_bf16_hisnan(a) ? a : kiln_bf16_hisnan(b) ? b : kiln_bf16_hmin(a, b);
}

// Conversions. bfloat16 to an integer: rounded in the mode, saturated to the
// integer's range, NaN to 0.
template <class I> __device__ __forceinline__ I kiln_bf16_to_int(kiln_bfloat16 a, int mode, I lo, I hi) {
  const float f = float(a);
  if (f != f) return (I)0;
  const double r = mode == kiln_rz ? trunc((double)f) : mode == kiln_rd ? floor((double)f)
                   : mode == kiln_ru ? ceil((double)f) : rint((double)f);
  return r <= (double)lo ? lo : r >= (double)hi ? hi : (I)r;
}
template <class I> __device__ __forceinline__ kiln_bfloat16 kiln_int_to_bf16(I v, int mode) {
  const bool negative = v < 0;
  const unsigned long long magnitude = negative ? 0ull - (unsigned long long)v : (unsigned long long)v;
  const double d = kiln_sticky_double(magnitude);
  return kiln_bf16_round_double(negative ? -d : d, mode);
}
__device__ __forceinline__ short kiln_bf16_bfloat16_as_int16(kiln_bfloat16 a) { return (short)a.bits; }
__device__ __forceinline__ unsigned short kiln_bf16_bfloat16_as_uint16(kiln_bfloat16 a) { return a.bits; }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_int16_as_bfloat16(short v) { return kiln_bf16_from_bits((unsigned short)v); }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_uint16_as_bfloat16(unsigned short v) { return kiln_bf16_from_bits(v); }
__device__ __forceinline__ float kiln_bf16_bfloat16_to_float32(kiln_bfloat16 a) { return float(a); }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_float32_to_bfloat16(float f) { return kiln_bfloat16(f); }
__device__ __forceinline__ kiln_bfloat16 kiln_bf16_float64_to_bfloat16(double d) { return kiln_bfloat16(d); }

// Math in float, rounded once (Numba's math.* and h* functions of bfloat16).
#define KILN_BF16_MATH(name, expression) \
  __device__ __forceinline__ kiln_bfloat16 kiln_bf16_##name(kiln_bfloat16 a) { const float x = float(a); return kiln_bf16_round(expression); }
KILN_BF16_MATH(htrunc, truncf(x))
KILN_BF16_MATH(hceil, ceilf(x))
KILN_BF16_MATH(hfloor, floorf(x))
KILN_BF16_MATH(hrint, rintf(x))
KILN_BF16_MATH(hsqrt, sqrtf(x))
KILN_BF16_MATH(hrsqrt, 1.0f / sqrtf(x))
KILN_BF16_MATH(hrcp, 1.0f / x)
KILN_BF16_MATH(hlog, logf(x))
KILN_BF16_MATH(hlog2, log2f(x))
KILN_BF16_MATH(hlog10, log10f(x))
KILN_BF16_MATH(hcos, cosf(x))
KILN_BF16_MATH(hsin, sinf(x))
KILN_BF16_MATH(htanh, tanhf(x))
KILN_BF16_MATH(hexp, expf(x))
KILN_BF16_MATH(hexp2, exp2f(x))
KILN_BF16_MATH(hexp10, exp10f(x))
#undef KILN_BF16_MATH
