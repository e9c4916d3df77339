#pragma once
// A rational linear filter along lines (scipy.signal.lfilter):
//   a[0] y[n] = sum_k b[k] x[n-k] - sum_{k>=1} a[k] y[n-k],
// run in the transposed direct form II, whose k - 1 delays are the state
// SciPy's zi/zf describe. Every line is one recurrence, so a thread takes a
// line and walks it in order. Values and coefficients are complex doubles
// (re, im pairs): one kernel serves real and complex filters, kiln.scipy.signal
// widens to it and rounds the result to SciPy's type.
// Compiles under NVRTC and under the host compiler alike.

// x, y: `lines` lines of n values (y may be x); b, a: k coefficients each,
// zero-padded to the longer, a[0] != 0; state: `lines` rows of k - 1 delays,
// read as the initial conditions and left holding the final ones.
extern "C" __global__ void kiln_linear_filter(const double* x, double* y, const double* b, const double* a,
                                              double* state, long long n, long long k, long long lines) {
  for (long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x; line < lines;
       line += (long long)blockDim.x * gridDim.x) {
    const double* in = x + 2 * line * n;
    double* out = y + 2 * line * n;
    double* z = state + 2 * line * (k - 1);
    // Scale by 1/a[0] once: (p + iq) / (r + is).
    const double r = a[0], s = a[1], d = r * r + s * s;
    for (long long t = 0; t < n; ++t) {
      const double xr = in[2 * t], xi = in[2 * t + 1];
      // y = (b0 x + z0) / a0
      double pr = b[0] * xr - b[1] * xi, pi = b[0] * xi + b[1] * xr;
      if (k > 1) pr += z[0], pi += z[1];
      const double yr = (pr * r + pi * s) / d, yi = (pi * r - pr * s) / d;
      // z[i] = b[i+1] x + z[i+1] - a[i+1] y, the last without z[i+1]
      for (long long i = 0; i + 1 < k; ++i) {
        const double* bi = b + 2 * (i + 1);
        const double* ai = a + 2 * (i + 1);
        double zr = bi[0] * xr - bi[1] * xi - (ai[0] * yr - ai[1] * yi);
        double zi = bi[0] * xi + bi[1] * xr - (ai[0] * yi + ai[1] * yr);
        if (i + 2 < k) zr += z[2 * (i + 1)], zi += z[2 * (i + 1) + 1];
        z[2 * i] = zr;
        z[2 * i + 1] = zi;
      }
      out[2 * t] = yr;
      out[2 * t + 1] = yi;
    }
  }
}
