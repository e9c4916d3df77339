#pragma once
// One axis of scipy.ndimage's correlate1d (and through it convolve1d and the
// Gaussian filters): each output point sums its window's taps in double
// precision, as SciPy computes, reading the input through the boundary mode
// instead of from a padded copy. A thread a point, the taps in order (zero
// ones skipped, as the shifted-view form skips them).
// Compiles under NVRTC and under the host compiler alike.

// Where position p of a line of n lies after the boundary mode extends it,
// as numpy.pad spells the extensions: 0 symmetric (SciPy's reflect),
// 1 reflect (SciPy's mirror), 2 edge (nearest), 3 wrap; -1 for the constant
// mode (4) outside the line.
__device__ __forceinline__ long long kiln_extended_position(long long p, long long n, int mode) {
  if (p >= 0 && p < n) return p;
  if (mode == 0) {
    long long q = p % (2 * n);
    if (q < 0) q += 2 * n;
    return q < n ? q : 2 * n - 1 - q;
  }
  if (mode == 1) {
    if (n == 1) return 0;
    const long long period = 2 * n - 2;
    long long q = p % period;
    if (q < 0) q += period;
    return q < n ? q : period - q;
  }
  if (mode == 2) return p < 0 ? 0 : n - 1;
  if (mode == 3) {
    const long long q = p % n;
    return q < 0 ? q + n : q;
  }
  return -1;
}

// x and out: C-contiguous (outer, length, inner); the window of point i
// along the axis starts at i - before; w: `taps` weights.
template <class In>
__device__ void kiln_correlate_points(const In* x, double* out, const double* w, long long taps, long long before,
                                      long long length, long long inner, long long total, int mode, double cval) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long i = t / inner % length, base = t - i * inner, start = i - before;
    double sum = 0.0;
    if (start >= 0 && start + taps <= length) {  // the window inside the line: no boundary to read through
      const In* at = x + base + start * inner;
      for (long long k = 0; k < taps; ++k)
        if (w[k] != 0.0) sum += w[k] * (double)at[k * inner];
    } else {
      for (long long k = 0; k < taps; ++k) {
        if (w[k] == 0.0) continue;
        const long long p = kiln_extended_position(start + k, length, mode);
        sum += w[k] * (p < 0 ? cval : (double)x[base + p * inner]);
      }
    }
    out[t] = sum;
  }
}

#define KILN_CORRELATE1D(name, In)                                                                             \
  extern "C" __global__ void name(const In* x, double* out, const double* w, long long taps, long long before, \
                                  long long length, long long inner, long long total, int mode, double cval) { \
    kiln_correlate_points<In>(x, out, w, taps, before, length, inner, total, mode, cval);                      \
  }
KILN_CORRELATE1D(kiln_correlate1d_uint8, unsigned char)
KILN_CORRELATE1D(kiln_correlate1d_uint16, unsigned short)
KILN_CORRELATE1D(kiln_correlate1d_int16, short)
KILN_CORRELATE1D(kiln_correlate1d_int32, int)
KILN_CORRELATE1D(kiln_correlate1d_float32, float)
KILN_CORRELATE1D(kiln_correlate1d_float64, double)
#undef KILN_CORRELATE1D
