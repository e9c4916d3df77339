// Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as
// easy as 1, 2, 3", SC'11), and the conversions of its output words to the
// values kiln's random draws produce. Plain C++ that NVRTC and the host
// compiler both take, so that the CPU and the GPU give the same bits.
#pragma once

// KILN_PHILOX_GPU: compiled by NVRTC or nvcc, where the functions below take
// CUDA's intrinsics; the host's versions give the same values.
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define KILN_PHILOX_GPU 1
#define KILN_PHILOX_FN __device__ __forceinline__
#else
#include <math.h>
#include <string.h>
#define KILN_PHILOX_FN inline
#endif

namespace kiln { namespace philox {

struct Block {
  unsigned int v[4];
};

// The high and low words of a * b. ptxas fuses __umulhi and the low product
// into one wide multiply; from a 64-bit product's shift it leaves an extra add
// a word.
KILN_PHILOX_FN void mulhilo(unsigned int a, unsigned int b, unsigned int* hi, unsigned int* lo) {
#ifdef KILN_PHILOX_GPU
  *hi = __umulhi(a, b);
  *lo = a * b;
#else
  const unsigned long long product = static_cast<unsigned long long>(a) * b;
  *hi = static_cast<unsigned int>(product >> 32);
  *lo = static_cast<unsigned int>(product);
#endif
}

// The four output words of counter (c0..c3) under key (k0, k1).
KILN_PHILOX_FN Block generate(unsigned int c0, unsigned int c1, unsigned int c2, unsigned int c3, unsigned int k0,
                              unsigned int k1) {
  const unsigned int m0 = 0xD2511F53u, m1 = 0xCD9E8D57u, w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += w0;
      k1 += w1;
    }
    unsigned int hi0, lo0, hi1, lo1;
    mulhilo(m0, c0, &hi0, &lo0);
    mulhilo(m1, c2, &hi1, &lo1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  Block b = {{c0, c1, c2, c3}};
  return b;
}

// Block `index` of the stream of `key`: the counter is the 64-bit index in its
// low words, the high words zero.
KILN_PHILOX_FN Block stream_block(unsigned long long key, unsigned long long index) {
  return generate(static_cast<unsigned int>(index), static_cast<unsigned int>(index >> 32), 0u, 0u,
                  static_cast<unsigned int>(key), static_cast<unsigned int>(key >> 32));
}

// [0, 1) with all the type's mantissa bits: exact conversions.
KILN_PHILOX_FN float uniform_float(unsigned int w) { return static_cast<float>(w >> 8) * 5.9604644775390625e-08f; }
KILN_PHILOX_FN double uniform_double(unsigned int lo, unsigned int hi) {
  const unsigned long long bits = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<double>(bits >> 11) * 1.1102230246251565e-16;
}
// (0, 1]: Box-Muller's radius takes its logarithm.
KILN_PHILOX_FN double open_uniform_double(unsigned int lo, unsigned int hi) {
  const unsigned long long bits = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<double>((bits >> 11) + 1ull) * 1.1102230246251565e-16;
}

// sin and cos of 2 pi u in double precision. The GPU's sincospi needs no range
// reduction (the cheapest way to its accuracy); the host has no sincospi, and
// its sin and cos of the rounded 2 pi u differ from it by about an ulp of the
// angle.
KILN_PHILOX_FN void sincos_turn(double u, double* s, double* c) {
#ifdef KILN_PHILOX_GPU
  sincospi(2.0 * u, s, c);
#else
  const double t = 6.28318530717958648 * u;
  *s = ::sin(t);
  *c = ::cos(t);
#endif
}

// The float32 normal is built only from exact conversions, fused multiply-adds,
// single products and a correctly rounded square root, each written out, so
// that the host and the GPU give the same bits. The logarithm and the sine
// need only cover the 2^24 values a word's top bits give, so they cost the GPU
// fewer instructions than libdevice's logf and sincospif, which take any float.
KILN_PHILOX_FN float fused(float a, float b, float c) {
#ifdef KILN_PHILOX_GPU
  return __fmaf_rn(a, b, c);
#else
  return ::fmaf(a, b, c);
#endif
}
KILN_PHILOX_FN unsigned int float_bits(float x) {
#ifdef KILN_PHILOX_GPU
  return __float_as_uint(x);
#else
  unsigned int u;
  memcpy(&u, &x, sizeof u);
  return u;
#endif
}
KILN_PHILOX_FN float bits_float(unsigned int u) {
#ifdef KILN_PHILOX_GPU
  return __uint_as_float(u);
#else
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
#endif
}

// -2 ln u for u = m / 2^24, m = (w >> 8) | 1: the odd m in (0, 2^24), that is
// the midpoints of 2^23 equal steps of (0, 1), so that u is never 0 or 1 and
// Box-Muller's radius squared is a normal float in [1.2e-7, 33.3]. m = 2^k f
// with f in [sqrt(1/2), sqrt(2)), so -2 ln u = 2 (24 - k) ln 2 - 2 log1p(f - 1);
// f - 1 is exact, and -2 log1p(t) = t (-2 + t R(t)) with R a degree-7
// least-squares fit over f's range (within 1.9 ulp for every m). The two
// terms at most halve each other, so 2 ln 2 rounded to float32 costs under a
// tenth of an ulp. What can be float arithmetic is: the GPU's integer pipe,
// which Philox keeps busy, has half the float pipe's width.
KILN_PHILOX_FN float minus_two_log_fraction(unsigned int w) {
  const float m = fused(static_cast<float>(w & 0xfffffe00u), 0.00390625f, 1.0f);  // exact
  const unsigned int m_bits = float_bits(m), k_field = (m_bits - 0x3f3504f3u) & 0xff800000u;  // k << 23
  const float t = bits_float(m_bits - k_field) - 1.0f;
  float p = -0.18008404970169067f;
  p = fused(p, t, 0.28515589237213135f);
  p = fused(p, t, -0.2961291968822479f);
  p = fused(p, t, 0.33150094747543335f);
  p = fused(p, t, -0.39946210384368896f);
  p = fused(p, t, 0.5000321865081787f);
  p = fused(p, t, -0.6666731834411621f);
  p = fused(p, t, 0.9999998807907104f);
  p = fused(p, t, -2.0f);
  const float n = 201326592.0f - static_cast<float>(k_field);  // (24 - k) 2^23, exact
  return fused(n, 1.6525916635146132e-07f, t * p);  // 2 ln 2 / 2^23
}

// The square root of a normal float below 34, correctly rounded: on the GPU
// through the path IEEE sqrtf takes there (a reciprocal square root estimate
// and one correction), without its range test and branch to the general case.
KILN_PHILOX_FN float normal_sqrt(float x) {
#ifdef KILN_PHILOX_GPU
  float inverse;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(inverse) : "f"(x));
  const float estimate = x * inverse;
  return fused(fused(-estimate, estimate, x), 0.5f * inverse, estimate);
#else
  return ::sqrtf(x);
#endif
}

// A Box-Muller pair: radius from w_radius, angle 2 pi k / 2^24 from the top 24
// bits k of w_angle. k = 2^22 q + j with j in [-2^21, 2^21): q, the nearest
// quarter turn, is the top two bits of v = w_angle + 2^29, and j is bits 8 to
// 29 of w_angle sign-extended. sin and cos of pi/4 x, x = j / 2^21 in [-1, 1),
// are fixed polynomials in x^2 (within an ulp; pi/4 in two parts keeps the
// sine's leading term as accurate as the rest). A quarter turn swaps them, and
// the signs go onto the radius's sign bit: the sine's is v's top bit (quarters
// 2 and 3), the cosine's that of v + 2^30 (quarters 1 and 2).
KILN_PHILOX_FN void box_muller(unsigned int w_radius, unsigned int w_angle, float* cosine, float* sine) {
  const unsigned int r = float_bits(normal_sqrt(minus_two_log_fraction(w_radius)));
  const unsigned int v = w_angle + 0x20000000u;
  const float x = static_cast<float>(static_cast<int>(w_angle << 2) >> 10) * 4.76837158203125e-07f, x2 = x * x;
  float p = -3.6128487408859655e-05f;
  p = fused(p, x2, 0.0024902422446757555f);
  p = fused(p, x2, -0.08074551075696945f);
  p = fused(p, x2, -2.1855694143368964e-08f);
  const float s = fused(x, 0.7853981852531433f, x * p);
  float c = 3.5300874969834695e-06f;
  c = fused(c, x2, -0.00032593938522040844f);
  c = fused(c, x2, 0.015854325145483017f);
  c = fused(c, x2, -0.3084251284599304f);
  c = fused(c, x2, 1.0f);
  float turned_sine, turned_cosine;  // (c, s) in odd quarters, else (s, c)
#ifdef KILN_PHILOX_GPU
  // One predicate from bit 30 for both selects: written in C++, the compiler
  // turns the bit test into a shift, a mask and a compare.
  asm("{\n .reg .pred odd;\n .reg .b32 bit;\n and.b32 bit, %4, 0x40000000;\n setp.ne.u32 odd, bit, 0;\n"
      " selp.f32 %0, %2, %3, odd;\n selp.f32 %1, %3, %2, odd;\n}"
      : "=f"(turned_sine), "=f"(turned_cosine)
      : "f"(c), "f"(s), "r"(v));
#else
  const bool odd_quarter = (v & 0x40000000u) != 0;
  turned_sine = odd_quarter ? c : s;
  turned_cosine = odd_quarter ? s : c;
#endif
  *sine = bits_float(r ^ (v & 0x80000000u)) * turned_sine;
  *cosine = bits_float(r ^ ((v + 0x40000000u) & 0x80000000u)) * turned_cosine;
}

// The values one block gives: 16 bytes' worth (4 of a 4-byte type, 2 of an
// 8-byte one). Normals come from Box-Muller pairs: (words 0, 1) and (2, 3)
// for float32, one pair of 53-bit uniforms for float64. Bits, uniforms and
// float32 normals agree exactly between the host and the GPU; float64 normals
// go through each platform's log, sin and cos, which differ by an ulp or so.
KILN_PHILOX_FN void bits(const Block& b, unsigned int* out) {
  for (int j = 0; j < 4; ++j) out[j] = b.v[j];
}
KILN_PHILOX_FN void bits(const Block& b, unsigned long long* out) {
  for (int j = 0; j < 2; ++j) out[j] = (static_cast<unsigned long long>(b.v[2 * j + 1]) << 32) | b.v[2 * j];
}
KILN_PHILOX_FN void uniform(const Block& b, float* out) {
  for (int j = 0; j < 4; ++j) out[j] = uniform_float(b.v[j]);
}
KILN_PHILOX_FN void uniform(const Block& b, double* out) {
  for (int j = 0; j < 2; ++j) out[j] = uniform_double(b.v[2 * j], b.v[2 * j + 1]);
}
KILN_PHILOX_FN void normal(const Block& b, float* out) {
  for (int j = 0; j < 2; ++j) box_muller(b.v[2 * j], b.v[2 * j + 1], &out[2 * j], &out[2 * j + 1]);
}
KILN_PHILOX_FN void normal(const Block& b, double* out) {
  const double r = ::sqrt(-2.0 * ::log(open_uniform_double(b.v[0], b.v[1])));
  double s, c;
  sincos_turn(uniform_double(b.v[2], b.v[3]), &s, &c);
  out[0] = r * c;
  out[1] = r * s;
}

}}  // namespace kiln::philox
