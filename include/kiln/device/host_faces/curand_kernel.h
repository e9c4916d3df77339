// cuRAND's device API for CUDA C that kiln's CPU backend compiles: the
// XORWOW generator (curandState, cuRAND's default), with cuRAND's seeding,
// subsequence and offset jumps, and its uniform and normal transforms, so
// that a kernel including <curand_kernel.h> draws on the CPU the integers it
// draws on a GPU. Only the host compiler sees this file; NVRTC compiles
// NVIDIA's own header. Normals go through the C library's logf/sinf/cosf
// (the GPU's __sincosf differs in the last bits). Other generators (Philox,
// MRG32k3a, MTGP32, Sobol) are not provided on the CPU.
#pragma once
#include <math.h>
#include <stdint.h>

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

namespace kiln_curand {

// XORWOW's xorshift part (the five words v) is linear over GF(2) in its 160
// bits, so a jump of n steps is the n-th power of the one-step matrix. A
// matrix is kept as its 160 columns (the images of the unit vectors).
struct Matrix {
  uint32_t column[160][5];
};

inline void step(uint32_t v[5]) {
  const uint32_t t = v[0] ^ (v[0] >> 2);
  v[0] = v[1];
  v[1] = v[2];
  v[2] = v[3];
  v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

inline void apply(const Matrix& m, uint32_t v[5]) {
  uint32_t out[5] = {0, 0, 0, 0, 0};
  for (int j = 0; j < 160; ++j)
    if ((v[j / 32] >> (j % 32)) & 1u)
      for (int w = 0; w < 5; ++w) out[w] ^= m.column[j][w];
  for (int w = 0; w < 5; ++w) v[w] = out[w];
}

// powers[k] jumps 2^k steps, for k < 131: offsets up to 2^64 and
// subsequences (2^67 steps apart, as cuRAND spaces them) up to 2^64.
inline const Matrix* powers() {
  static const Matrix* table = [] {
    Matrix* p = new Matrix[131];
    for (int j = 0; j < 160; ++j) {
      uint32_t* c = p[0].column[j];
      for (int w = 0; w < 5; ++w) c[w] = 0;
      c[j / 32] = 1u << (j % 32);
      step(c);
    }
    for (int k = 1; k < 131; ++k)
      for (int j = 0; j < 160; ++j) {
        for (int w = 0; w < 5; ++w) p[k].column[j][w] = p[k - 1].column[j][w];
        apply(p[k - 1], p[k].column[j]);
      }
    return p;
  }();
  return table;
}

inline void jump(unsigned long long n, int first_power, uint32_t v[5]) {
  for (int k = 0; n; ++k, n >>= 1)
    if (n & 1) apply(powers()[first_power + k], v);
}

}  // namespace kiln_curand

inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  kiln_curand::jump(n, 0, state->v);
  state->d += 362437u * (unsigned int)n;
}

inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  kiln_curand::jump(n, 67, state->v);  // d advances by a multiple of 2^32: unchanged
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateXORWOW_t* state) {
  // cuRAND's salts and odd multipliers spread the seed over the state.
  const unsigned int s0 = (unsigned int)seed ^ 0xaad26b49u, s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
  const unsigned int t0 = 1099087573u * s0, t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  state->boxmuller_flag = state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

inline unsigned int curand(curandStateXORWOW_t* state) {
  kiln_curand::step(state->v);
  state->d += 362437u;
  return state->v[4] + state->d;
}

// (0, 1]: the 32 bits scaled by 2^-32, plus half a step.
inline float curand_uniform(curandStateXORWOW_t* state) {
  const float scale = 2.3283064e-10f;
  return curand(state) * scale + scale / 2.0f;
}

// 53 bits from two draws, scaled by 2^-53, plus half a step.
inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state), y = curand(state);
  const unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << 21);
  const double scale = 1.1102230246251565e-16;
  return z * scale + scale / 2.0;
}

// Box-Muller on two draws: two normals, the first returned now and the
// second on the next call of the same transform (the state's flag says
// which transform cached it, as cuRAND's does).
namespace kiln_curand {
enum : int { kNormal = 1, kLogNormal = 2 };

inline void box_muller(curandStateXORWOW_t* state, float* first, float* second) {
  const unsigned int x = curand(state), y = curand(state);
  const float scale = 2.3283064e-10f, angle_scale = 2.3283064e-10f * 6.2831855f;
  const float u = x * scale + scale / 2, v = y * angle_scale + angle_scale / 2;
  const float s = sqrtf(-2.0f * logf(u));
  *first = s * sinf(v);
  *second = s * cosf(v);
}
}  // namespace kiln_curand

inline float curand_normal(curandStateXORWOW_t* state) {
  if (state->boxmuller_flag == kiln_curand::kNormal) {
    state->boxmuller_flag = 0;
    return state->boxmuller_extra;
  }
  float first, second;
  kiln_curand::box_muller(state, &first, &second);
  state->boxmuller_extra = second;
  state->boxmuller_flag = kiln_curand::kNormal;
  return first;
}

inline float curand_log_normal(curandStateXORWOW_t* state, float mean, float stddev) {
  if (state->boxmuller_flag == kiln_curand::kLogNormal) {
    state->boxmuller_flag = 0;
    return state->boxmuller_extra;
  }
  float first, second;
  kiln_curand::box_muller(state, &first, &second);
  state->boxmuller_extra = expf(mean + stddev * second);
  state->boxmuller_flag = kiln_curand::kLogNormal;
  return expf(mean + stddev * first);
}

// The same in double precision, from four draws (53 bits a uniform).
inline double curand_normal_double(curandStateXORWOW_t* state) {
  if (state->boxmuller_flag_double == kiln_curand::kNormal) {
    state->boxmuller_flag_double = 0;
    return state->boxmuller_extra_double;
  }
  const unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state), y1 = curand(state);
  const unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << 21);
  const unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << 21);
  const double scale = 1.1102230246251565e-16, pi = 3.1415926535897932;
  const double u = zx * scale + scale / 2.0, v = zy * (scale * 2.0) + scale;
  const double s = sqrt(-2.0 * log(u));
  state->boxmuller_extra_double = s * cos(v * pi);
  state->boxmuller_flag_double = kiln_curand::kNormal;
  return s * sin(v * pi);
}
