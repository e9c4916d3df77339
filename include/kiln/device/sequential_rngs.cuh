#pragma once
// cuRAND's two sequential generators as CuPy's bit generators name them:
// XORWOW (Marsaglia, "Xorshift RNGs", 2003: five xorshift words plus a Weyl
// sequence) and MRG32k3a (L'Ecuyer, "Good parameters and implementations for
// combined multiple recursive random number generators", 1999). Each lane
// (one GPU thread, or one run of a CPU core) owns one state and writes every
// `lanes`-th word of the output, so a draw is the same on every device. The
// states are seeded by kiln (random/_generator.py), not by cuRAND's scheme.
// Compiles under NVRTC and under the host compiler alike.

// state: 6 words a lane (x, y, z, w, v, d); out: n 32-bit words.
extern "C" __global__ void kiln_xorwow_words(unsigned int* state, unsigned int* out, long long n, int lanes) {
  for (int lane = blockIdx.x * blockDim.x + threadIdx.x; lane < lanes; lane += blockDim.x * gridDim.x) {
    unsigned int* s = state + 6 * lane;
    unsigned int x = s[0], y = s[1], z = s[2], w = s[3], v = s[4], d = s[5];
    for (long long j = lane; j < n; j += lanes) {
      const unsigned int t = x ^ (x >> 2);
      x = y;
      y = z;
      z = w;
      w = v;
      v = (v ^ (v << 4)) ^ (t ^ (t << 1));
      d += 362437u;
      out[j] = v + d;
    }
    s[0] = x, s[1] = y, s[2] = z, s[3] = w, s[4] = v, s[5] = d;
  }
}

// state: 6 components a lane (s10, s11, s12 below m1; s20, s21, s22 below m2),
// as 64-bit integers; out: n 32-bit words, the combined value in [1, m1]
// scaled to 32 bits.
extern "C" __global__ void kiln_mrg32k3a_words(long long* state, unsigned int* out, long long n, int lanes) {
  const long long m1 = 4294967087LL, m2 = 4294944443LL;
  for (int lane = blockIdx.x * blockDim.x + threadIdx.x; lane < lanes; lane += blockDim.x * gridDim.x) {
    long long* s = state + 6 * lane;
    long long s10 = s[0], s11 = s[1], s12 = s[2], s20 = s[3], s21 = s[4], s22 = s[5];
    for (long long j = lane; j < n; j += lanes) {
      long long p1 = (1403580LL * s11 - 810728LL * s10) % m1;
      if (p1 < 0) p1 += m1;
      s10 = s11, s11 = s12, s12 = p1;
      long long p2 = (527612LL * s22 - 1370589LL * s20) % m2;
      if (p2 < 0) p2 += m2;
      s20 = s21, s21 = s22, s22 = p2;
      const long long combined = p1 > p2 ? p1 - p2 : p1 - p2 + m1;  // in [1, m1]
      out[j] = (unsigned int)(((unsigned long long)(combined - 1) << 32) / (unsigned long long)m1);
    }
    s[0] = s10, s[1] = s11, s[2] = s12, s[3] = s20, s[4] = s21, s[5] = s22;
  }
}
