#pragma once
// One axis of the exact Euclidean distance transform (Felzenszwalb and
// Huttenlocher, "Distance Transforms of Sampled Functions", 2012): along each
// line, the lower envelope of the parabolas f(p) + w (q - p)^2 rooted at the
// line's samples gives every q its nearest root. Run once an axis over the
// squared distances of the axes before, it gives the squared distance to the
// nearest feature in every dimension. kiln.scipy.ndimage.distance_transform_edt
// lays each axis out last and contiguous; a thread takes a line.
// Compiles under NVRTC and under the host compiler alike.

// f: `lines` lines of n squared distances so far, negative where no feature
// was reached yet; out: the squared distances after this axis, negative where
// the line has no feature; nearest: the root each place took (-1 for none);
// roots (n a line) and bounds (n + 1 a line): the envelope, scratch space;
// weight: the squared sample spacing along this axis.
extern "C" __global__ void kiln_distance_transform_axis(const double* f, double* out, long long* nearest,
                                                        long long* roots, double* bounds, long long n,
                                                        long long lines, double weight) {
  for (long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x; line < lines;
       line += (long long)blockDim.x * gridDim.x) {
    const double* g = f + line * n;
    long long* v = roots + line * n;
    double* z = bounds + line * (n + 1);
    // The envelope: parabola i is rooted at v[i] and lowest from z[i] (the
    // first one from minus infinity) to z[i + 1] (the last one to infinity).
    long long k = -1;
    for (long long q = 0; q < n; ++q) {
      if (g[q] < 0) continue;
      const double fq = g[q] + weight * (double)q * (double)q;
      double s = 0;
      while (k >= 0) {
        const long long p = v[k];
        // Where the parabola of q overtakes that of p.
        s = (fq - (g[p] + weight * (double)p * (double)p)) / (2.0 * weight * (double)(q - p));
        if (k == 0 || s > z[k]) break;
        --k;  // p is nowhere lowest: drop it
      }
      ++k;
      v[k] = q;
      z[k] = s;
    }
    double* o = out + line * n;
    long long* r = nearest + line * n;
    if (k < 0) {
      for (long long q = 0; q < n; ++q) o[q] = -1, r[q] = -1;
      continue;
    }
    long long j = 0;
    const long long last = k;
    for (long long q = 0; q < n; ++q) {
      while (j < last && z[j + 1] < (double)q) ++j;
      const double d = (double)(q - v[j]);
      o[q] = weight * d * d + g[v[j]];
      r[q] = v[j];
    }
  }
}
