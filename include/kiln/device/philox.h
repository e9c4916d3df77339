// Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as
// easy as 1, 2, 3", SC'11), and the conversions of its output words to the
// values kiln's random draws produce. Plain C++ that NVRTC and the host
// compiler both take, so that the CPU and the GPU give the same bits.
#pragma once

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define KILN_PHILOX_FN __device__ __forceinline__
#else
#include <math.h>
#define KILN_PHILOX_FN inline
#endif

namespace kiln { namespace philox {

struct Block {
  unsigned int v[4];
};

KILN_PHILOX_FN unsigned int mulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
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
    const unsigned int hi0 = mulhi(m0, c0), lo0 = m0 * c0, hi1 = mulhi(m1, c2), lo1 = m1 * c2;
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
KILN_PHILOX_FN float open_uniform_float(unsigned int w) {
  return static_cast<float>((w >> 8) + 1u) * 5.9604644775390625e-08f;
}
KILN_PHILOX_FN double open_uniform_double(unsigned int lo, unsigned int hi) {
  const unsigned long long bits = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<double>((bits >> 11) + 1ull) * 1.1102230246251565e-16;
}

// sin and cos of 2 pi u. The GPU's sincospi needs no range reduction (the
// cheapest way to its accuracy); the host has no sincospi, and its sin and cos
// of the rounded 2 pi u differ from it by about an ulp of the angle.
KILN_PHILOX_FN void sincos_turn(float u, float* s, float* c) {
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  sincospif(2.0f * u, s, c);
#else
  const float t = 6.28318530717958648f * u;
  *s = ::sinf(t);
  *c = ::cosf(t);
#endif
}
KILN_PHILOX_FN void sincos_turn(double u, double* s, double* c) {
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  sincospi(2.0 * u, s, c);
#else
  const double t = 6.28318530717958648 * u;
  *s = ::sin(t);
  *c = ::cos(t);
#endif
}

// The values one block gives: 16 bytes' worth (4 of a 4-byte type, 2 of an
// 8-byte one). Normals come from Box-Muller pairs: (words 0, 1) and (2, 3)
// for float32, one pair of 53-bit uniforms for float64. The host's and the
// GPU's logarithm and sine differ by an ulp or so, so normals agree to a few
// ulps, while bits and uniforms agree exactly.
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
  for (int j = 0; j < 2; ++j) {
    const float r = ::sqrtf(-2.0f * ::logf(open_uniform_float(b.v[2 * j])));
    float s, c;
    sincos_turn(uniform_float(b.v[2 * j + 1]), &s, &c);
    out[2 * j] = r * c;
    out[2 * j + 1] = r * s;
  }
}
KILN_PHILOX_FN void normal(const Block& b, double* out) {
  const double r = ::sqrt(-2.0 * ::log(open_uniform_double(b.v[0], b.v[1])));
  double s, c;
  sincos_turn(uniform_double(b.v[2], b.v[3]), &s, &c);
  out[0] = r * c;
  out[1] = r * s;
}

}}  // namespace kiln::philox
