#pragma once
// The random numbers of @njit functions (python/kiln/_jit/constructs/
// random_numbers.py): NumPy's legacy generator for np.random.* and
// CPython's for random.*, each a Mersenne Twister (MT19937) of its own per
// thread, as Numba has them. np.random.seed(n) seeds as NumPy's legacy
// RandomState.seed(n) does (init_genrand), random.seed(n) as CPython's
// (init_by_array of n's 32-bit words), so that a seeded function draws the
// numbers NumPy or Python would; unseeded, each thread starts from the
// system's entropy. Host entries only.
#ifdef __CUDA_ARCH__
#error "jit_random.cuh is for @njit functions run on the CPU"
#endif
#include <math.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>

struct kiln_mt19937 {
  uint32_t mt[624];
  int index = 625;  // 625: never seeded
  bool has_gauss = false;
  double gauss = 0.0;

  void init_genrand(uint32_t s) {
    mt[0] = s;
    for (int i = 1; i < 624; ++i) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    index = 624;
    has_gauss = false;
  }
  void init_by_array(const uint32_t* key, int length) {
    init_genrand(19650218u);
    int i = 1, j = 0;
    for (int k = 624 > length ? 624 : length; k; --k) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
      if (++i >= 624) { mt[0] = mt[623]; i = 1; }
      if (++j >= length) j = 0;
    }
    for (int k = 623; k; --k) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
      if (++i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000u;
    index = 624;
  }
  uint32_t next_uint32() {
    if (index == 625) seed_from_entropy();
    if (index >= 624) {
      for (int k = 0; k < 624; ++k) {
        const uint32_t y = (mt[k] & 0x80000000u) | (mt[(k + 1) % 624] & 0x7fffffffu);
        mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
      }
      index = 0;
    }
    uint32_t y = mt[index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }
  void seed_from_entropy() {
    uint32_t key[4];
    if (getrandom(key, sizeof key, 0) != (ssize_t)sizeof key) {
      key[0] = (uint32_t)time(nullptr);
      key[1] = (uint32_t)clock();
      key[2] = (uint32_t)(uintptr_t)this;
      key[3] = 0x9e3779b9u;
    }
    init_by_array(key, 4);
  }
  // [0, 1) with 53 random bits, as NumPy's random_sample and CPython's random().
  double next_double() {
    const uint32_t a = next_uint32() >> 5, b = next_uint32() >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
};

inline kiln_mt19937& kiln_numpy_rng() {
  static thread_local kiln_mt19937 state;
  return state;
}
inline kiln_mt19937& kiln_python_rng() {
  static thread_local kiln_mt19937 state;
  return state;
}

// np.random.seed(n): NumPy's legacy seeding of a 32-bit seed.
inline void kiln_numpy_seed(long long n) { kiln_numpy_rng().init_genrand((uint32_t)n); }
// random.seed(n): CPython's, the key |n|'s 32-bit words, least significant first.
inline void kiln_python_seed(long long n) {
  unsigned long long m = n < 0 ? 0ull - (unsigned long long)n : (unsigned long long)n;
  uint32_t key[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
  kiln_python_rng().init_by_array(key, key[1] ? 2 : 1);
}

inline double kiln_numpy_random() { return kiln_numpy_rng().next_double(); }
inline double kiln_python_random() { return kiln_python_rng().next_double(); }

// NumPy's legacy standard normal: the polar method, its second value kept.
inline double kiln_numpy_gauss() {
  kiln_mt19937& rng = kiln_numpy_rng();
  if (rng.has_gauss) {
    rng.has_gauss = false;
    return rng.gauss;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * rng.next_double() - 1.0;
    x2 = 2.0 * rng.next_double() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = sqrt(-2.0 * log(r2) / r2);
  rng.gauss = f * x1;
  rng.has_gauss = true;
  return f * x2;
}
// CPython's random.gauss: Box-Muller, its second value kept.
inline double kiln_python_gauss(double mu, double sigma) {
  kiln_mt19937& rng = kiln_python_rng();
  double z;
  if (rng.has_gauss) {
    z = rng.gauss;
    rng.has_gauss = false;
  } else {
    const double x2pi = rng.next_double() * 6.283185307179586;
    const double g2rad = sqrt(-2.0 * log(1.0 - rng.next_double()));
    z = cos(x2pi) * g2rad;
    rng.gauss = sin(x2pi) * g2rad;
    rng.has_gauss = true;
  }
  return mu + z * sigma;
}

// NumPy's legacy randint(low, high): masked rejection on 32-bit draws for a
// range below 2**32, 64-bit ones (two draws, high word first) above it.
inline long long kiln_numpy_randint(long long low, long long high) {
  const unsigned long long range = (unsigned long long)high - (unsigned long long)low - 1ull;
  kiln_mt19937& rng = kiln_numpy_rng();
  if (range == 0) return low;
  unsigned long long mask = range;
  for (int shift = 1; shift < 64; shift <<= 1) mask |= mask >> shift;
  unsigned long long value;
  if (range <= 0xffffffffull) {
    do value = rng.next_uint32() & mask; while (value > range);
  } else {
    do value = (((unsigned long long)rng.next_uint32() << 32) | rng.next_uint32()) & mask; while (value > range);
  }
  return low + (long long)value;
}
// CPython's randrange(low, high): _randbelow's rejection on getrandbits(k).
inline long long kiln_python_randrange(long long low, long long high) {
  const unsigned long long n = (unsigned long long)high - (unsigned long long)low;
  kiln_mt19937& rng = kiln_python_rng();
  int k = 0;
  while (k < 64 && (n >> k) != 0) ++k;
  unsigned long long r;
  do {
    if (k <= 32) {
      r = rng.next_uint32() >> (32 - k);
    } else {
      const unsigned long long lo = rng.next_uint32();
      r = lo | ((unsigned long long)(rng.next_uint32() >> (64 - k)) << 32);
    }
  } while (r >= n);
  return low + (long long)r;
}

// np.random's arrays: a new array, each element f() in C order.
template <class T, int ND, class F> kiln_view<T, ND> kiln_filled_by(kiln_view<T, ND> a, F f) {
  for (long long i = 0, n = a.size(); i < n; ++i) a.data[i] = f();
  return a;
}
