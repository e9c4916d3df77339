// cuRAND's device API for CUDA C that kiln's CPU backend compiles: the
// XORWOW generator (curandState, cuRAND's default), Philox4_32_10 and
// MRG32k3a, with
// cuRAND's seeding, subsequence and offset jumps, and its uniform and normal
// transforms, so that a kernel including <curand_kernel.h> draws on the CPU
// the integers it draws on a GPU. Only the host compiler sees this file;
// NVRTC compiles NVIDIA's own header. Normals go through the C library's
// logf/sinf/cosf (the GPU's __sincosf differs in the last bits). The other
// generators (MRG32k3a, MTGP32, Sobol) are not provided on the CPU.
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

// A fresh state has no normal of a Box-Muller pair kept for the next call.
template <class State>
inline void forget_cached_normals(State* state) {
  state->boxmuller_flag = state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
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
  kiln_curand::forget_cached_normals(state);
}

inline unsigned int curand(curandStateXORWOW_t* state) {
  kiln_curand::step(state->v);
  state->d += 362437u;
  return state->v[4] + state->d;
}

// Philox4_32_10 (Salmon et al., SC'11): a 128-bit counter enciphered under
// a 64-bit key in ten rounds gives four words; the state hands them out in
// turn. A subsequence is 2^64 counters (the counter's high half).
struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

namespace kiln_curand {

inline uint4 philox(uint4 c, uint2 k) {
  for (int round = 0; round < 10; ++round) {
    if (round) {
      k.x += 0x9E3779B9u;
      k.y += 0xBB67AE85u;
    }
    const unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
    const uint4 next = {(unsigned int)(p1 >> 32) ^ c.y ^ k.x, (unsigned int)p1, (unsigned int)(p0 >> 32) ^ c.w ^ k.y,
                        (unsigned int)p0};
    c = next;
  }
  return c;
}

// The counter plus n (128-bit arithmetic) from its lowest word `from` up.
inline void advance(uint4& c, unsigned long long n, int from) {
  unsigned int* w[4] = {&c.x, &c.y, &c.z, &c.w};
  unsigned long long carry = n;
  for (int i = from; i < 4 && carry; ++i) {
    const unsigned long long sum = (unsigned long long)*w[i] + (carry & 0xffffffffull);
    *w[i] = (unsigned int)sum;
    carry = (carry >> 32) + (sum >> 32);
  }
}

}  // namespace kiln_curand

inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  state->STATE += (unsigned int)(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  kiln_curand::advance(state->ctr, n, 0);
  state->output = kiln_curand::philox(state->ctr, state->key);
}

inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  kiln_curand::advance(state->ctr, n, 2);
  state->output = kiln_curand::philox(state->ctr, state->key);
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStatePhilox4_32_10_t* state) {
  state->ctr = uint4{0, 0, 0, 0};
  state->key = uint2{(unsigned int)seed, (unsigned int)(seed >> 32)};
  state->STATE = 0;
  kiln_curand::forget_cached_normals(state);
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
  const unsigned int words[4] = {state->output.x, state->output.y, state->output.z, state->output.w};
  const unsigned int drawn = words[state->STATE++ & 3];
  if (state->STATE == 4) {
    kiln_curand::advance(state->ctr, 1, 0);
    state->output = kiln_curand::philox(state->ctr, state->key);
    state->STATE = 0;
  }
  return drawn;
}

// The next four words at once (the state's position moves by four).
inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
  const uint4 old = state->output;
  kiln_curand::advance(state->ctr, 1, 0);
  state->output = kiln_curand::philox(state->ctr, state->key);
  const unsigned int words[8] = {old.x, old.y, old.z, old.w,
                                 state->output.x, state->output.y, state->output.z, state->output.w};
  const unsigned int k = state->STATE;
  return uint4{words[k], words[k + 1], words[k + 2], words[k + 3]};
}

// (0, 1]: the 32 bits scaled by 2^-32, plus half a step.
namespace kiln_curand {
inline float uniform(unsigned int x) {
  const float scale = 2.3283064e-10f;
  return x * scale + scale / 2.0f;
}
}  // namespace kiln_curand

inline float curand_uniform(curandStateXORWOW_t* state) { return kiln_curand::uniform(curand(state)); }
inline float curand_uniform(curandStatePhilox4_32_10_t* state) { return kiln_curand::uniform(curand(state)); }

inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  return float4{kiln_curand::uniform(x.x), kiln_curand::uniform(x.y), kiln_curand::uniform(x.z),
                kiln_curand::uniform(x.w)};
}

// Philox's: one draw, scaled by 2^-32, plus a whole step.
inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  const double scale = 2.3283064365386963e-10;
  return curand(state) * scale + scale;
}

// XORWOW's: 53 bits from two draws, scaled by 2^-53, plus half a step.
inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state), y = curand(state);
  const unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << 21);
  const double scale = 1.1102230246251565e-16;
  return z * scale + scale / 2.0;
}

// MRG32k3a (L'Ecuyer): two order-3 recurrences modulo the primes m1 and m2,
// their difference the output. Its jumps are powers of the recurrences' 3x3
// matrices modulo m1 and m2: an offset steps, a subsequence 2^76 steps and a
// sequence 2^127 steps, as cuRAND spaces them.
struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

namespace kiln_curand {

constexpr unsigned long long kMrgModulus[2] = {4294967087ull, 4294944443ull};

struct Matrix3 {
  unsigned long long a[3][3];
};

inline Matrix3 product(const Matrix3& x, const Matrix3& y, unsigned long long m) {
  Matrix3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      unsigned long long sum = 0;
      for (int k = 0; k < 3; ++k) sum = (sum + x.a[i][k] * y.a[k][j] % m) % m;
      r.a[i][j] = sum;
    }
  return r;
}

inline void apply(const Matrix3& x, unsigned int v[3], unsigned long long m) {
  unsigned long long r[3];
  for (int i = 0; i < 3; ++i) {
    unsigned long long sum = 0;
    for (int k = 0; k < 3; ++k) sum = (sum + x.a[i][k] * v[k] % m) % m;
    r[i] = sum;
  }
  for (int i = 0; i < 3; ++i) v[i] = (unsigned int)r[i];
}

// mrg_powers()[c][k]: component c's one-step matrix to the power 2^k, k < 191.
inline const Matrix3 (*mrg_powers())[191] {
  static const Matrix3 (*table)[191] = [] {
    auto* p = new Matrix3[2][191];
    const unsigned long long m1 = kMrgModulus[0], m2 = kMrgModulus[1];
    p[0][0] = Matrix3{{{0, 1, 0}, {0, 0, 1}, {m1 - 810728ull, 1403580ull, 0}}};
    p[1][0] = Matrix3{{{0, 1, 0}, {0, 0, 1}, {m2 - 1370589ull, 0, 527612ull}}};
    for (int c = 0; c < 2; ++c)
      for (int k = 1; k < 191; ++k) p[c][k] = product(p[c][k - 1], p[c][k - 1], kMrgModulus[c]);
    return p;
  }();
  return table;
}

inline void mrg_jump(curandStateMRG32k3a_t* state, unsigned long long n, int first_power) {
  for (int k = 0; n; ++k, n >>= 1)
    if (n & 1) {
      apply(mrg_powers()[0][first_power + k], state->s1, kMrgModulus[0]);
      apply(mrg_powers()[1][first_power + k], state->s2, kMrgModulus[1]);
    }
}

// The next output, in (0, m1].
inline double mrg_next(curandStateMRG32k3a_t* state) {
  const unsigned long long m1 = kMrgModulus[0], m2 = kMrgModulus[1];
  const unsigned long long p1 = (1403580ull * state->s1[1] + 810728ull * (m1 - state->s1[0])) % m1;
  const unsigned long long p2 = (527612ull * state->s2[2] + 1370589ull * (m2 - state->s2[0])) % m2;
  state->s1[0] = state->s1[1];
  state->s1[1] = state->s1[2];
  state->s1[2] = (unsigned int)p1;
  state->s2[0] = state->s2[1];
  state->s2[1] = state->s2[2];
  state->s2[2] = (unsigned int)p2;
  return p1 > p2 ? (double)(p1 - p2) : (double)p1 - (double)p2 + (double)m1;
}

}  // namespace kiln_curand

inline void skipahead(unsigned long long n, curandStateMRG32k3a_t* state) { kiln_curand::mrg_jump(state, n, 0); }
inline void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  kiln_curand::mrg_jump(state, n, 76);
}
inline void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  kiln_curand::mrg_jump(state, n, 127);
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateMRG32k3a_t* state) {
  for (int i = 0; i < 3; ++i) state->s1[i] = state->s2[i] = 12345u;
  if (seed != 0) {  // cuRAND's salts, then each word times its start value
    const unsigned long long x1 = (unsigned int)seed ^ 0x55555555u, x2 = (unsigned int)(seed >> 32) ^ 0xAAAAAAAAu;
    const unsigned long long m1 = kiln_curand::kMrgModulus[0], m2 = kiln_curand::kMrgModulus[1];
    state->s1[0] = (unsigned int)(x1 * 12345u % m1);
    state->s1[1] = (unsigned int)(x2 * 12345u % m1);
    state->s1[2] = (unsigned int)(x1 * 12345u % m1);
    state->s2[0] = (unsigned int)(x2 * 12345u % m2);
    state->s2[1] = (unsigned int)(x1 * 12345u % m2);
    state->s2[2] = (unsigned int)(x2 * 12345u % m2);
  }
  skipahead_subsequence(subsequence, state);
  skipahead(offset, state);
  kiln_curand::forget_cached_normals(state);
}

// 32 bits: the output scaled to [0, 2^32).
inline unsigned int curand(curandStateMRG32k3a_t* state) {
  return (unsigned int)(kiln_curand::mrg_next(state) * 1.000000048662);
}

inline float curand_uniform(curandStateMRG32k3a_t* state) {
  return (float)(kiln_curand::mrg_next(state) * 2.3283065498378288e-10);
}

inline double curand_uniform_double(curandStateMRG32k3a_t* state) {
  return kiln_curand::mrg_next(state) * 2.3283065498378288e-10;
}

namespace kiln_curand {

// MRG32k3a's Box-Muller takes its uniforms, not its integers.
inline void box_muller(curandStateMRG32k3a_t* state, float* first, float* second) {
  const float x = curand_uniform(state), y = curand_uniform(state) * 6.2831855f;
  const float s = sqrtf(-2.0f * logf(x));
  *first = sinf(y) * s;
  *second = cosf(y) * s;
}

inline void box_muller_double(curandStateMRG32k3a_t* state, double* first, double* second) {
  const double x = curand_uniform_double(state), y = curand_uniform_double(state) * 2.0;
  const double s = sqrt(-2.0 * log(x)), pi = 3.1415926535897932;
  *first = sin(y * pi) * s;
  *second = cos(y * pi) * s;
}

}  // namespace kiln_curand

// Box-Muller on two draws: two normals, the first returned now and the
// second on the next call of the same transform (the state's flag says
// which transform cached it, as cuRAND's does). Philox and XORWOW alike.
namespace kiln_curand {
enum : int { kNormal = 1, kLogNormal = 2 };

template <class State>
inline void box_muller(State* state, float* first, float* second) {
  const unsigned int x = curand(state), y = curand(state);
  const float scale = 2.3283064e-10f, angle_scale = 2.3283064e-10f * 6.2831855f;
  const float u = x * scale + scale / 2, v = y * angle_scale + angle_scale / 2;
  const float s = sqrtf(-2.0f * logf(u));
  *first = s * sinf(v);
  *second = s * cosf(v);
}

// The first of a fresh pair (`draw` makes it, `map` transforms it), keeping
// the second in the state for the next call of the same `kind`.
template <class T, class Draw, class Map>
inline T from_pair(int& flag, T& extra, int kind, Draw draw, Map map) {
  if (flag == kind) {
    flag = 0;
    return extra;
  }
  T first, second;
  draw(&first, &second);
  extra = map(second);
  flag = kind;
  return map(first);
}

template <class State>
inline float normal(State* state) {
  return from_pair(state->boxmuller_flag, state->boxmuller_extra, kNormal,
                   [&](float* a, float* b) { box_muller(state, a, b); }, [](float x) { return x; });
}

template <class State>
inline float log_normal(State* state, float mean, float stddev) {
  return from_pair(state->boxmuller_flag, state->boxmuller_extra, kLogNormal,
                   [&](float* a, float* b) { box_muller(state, a, b); },
                   [&](float x) { return expf(mean + stddev * x); });
}

// The same in double precision, from the next four draws (53 bits a uniform).
template <class State>
inline void box_muller_double(State* state, double* first, double* second) {
  const unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state), y1 = curand(state);
  const unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << 21);
  const unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << 21);
  const double scale = 1.1102230246251565e-16, pi = 3.1415926535897932;
  const double u = zx * scale + scale / 2.0, v = zy * (scale * 2.0) + scale;
  const double s = sqrt(-2.0 * log(u));
  *first = s * sin(v * pi);
  *second = s * cos(v * pi);
}

template <class State>
inline double normal_double(State* state) {
  return from_pair(state->boxmuller_flag_double, state->boxmuller_extra_double, kNormal,
                   [&](double* a, double* b) { box_muller_double(state, a, b); }, [](double x) { return x; });
}

// Both normals of a pair at once (no caching).
template <class State>
inline float2 normal2(State* state) {
  float2 r;
  box_muller(state, &r.x, &r.y);
  return r;
}

template <class State>
inline double2 normal2_double(State* state) {
  double2 r;
  box_muller_double(state, &r.x, &r.y);
  return r;
}

}  // namespace kiln_curand

inline float curand_normal(curandStateXORWOW_t* state) { return kiln_curand::normal(state); }
inline float curand_normal(curandStatePhilox4_32_10_t* state) { return kiln_curand::normal(state); }
inline float curand_log_normal(curandStateXORWOW_t* state, float mean, float stddev) {
  return kiln_curand::log_normal(state, mean, stddev);
}
inline float curand_log_normal(curandStatePhilox4_32_10_t* state, float mean, float stddev) {
  return kiln_curand::log_normal(state, mean, stddev);
}
inline double curand_normal_double(curandStateXORWOW_t* state) { return kiln_curand::normal_double(state); }
inline double curand_normal_double(curandStatePhilox4_32_10_t* state) { return kiln_curand::normal_double(state); }
inline float2 curand_normal2(curandStateXORWOW_t* state) { return kiln_curand::normal2(state); }
inline float2 curand_normal2(curandStatePhilox4_32_10_t* state) { return kiln_curand::normal2(state); }
inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  const float2 a = kiln_curand::normal2(state), b = kiln_curand::normal2(state);
  return float4{a.x, a.y, b.x, b.y};
}
inline double2 curand_normal2_double(curandStateXORWOW_t* state) { return kiln_curand::normal2_double(state); }
inline double2 curand_normal2_double(curandStatePhilox4_32_10_t* state) {
  return kiln_curand::normal2_double(state);
}
inline float curand_normal(curandStateMRG32k3a_t* state) { return kiln_curand::normal(state); }
inline float curand_log_normal(curandStateMRG32k3a_t* state, float mean, float stddev) {
  return kiln_curand::log_normal(state, mean, stddev);
}
inline double curand_normal_double(curandStateMRG32k3a_t* state) { return kiln_curand::normal_double(state); }
inline float2 curand_normal2(curandStateMRG32k3a_t* state) { return kiln_curand::normal2(state); }
inline double2 curand_normal2_double(curandStateMRG32k3a_t* state) { return kiln_curand::normal2_double(state); }
