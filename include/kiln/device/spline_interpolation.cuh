#pragma once
// scipy.ndimage's B-spline interpolation (map_coordinates, affine_transform,
// shift, zoom, rotate) and the spline prefilter (spline_filter1d), computed as
// SciPy's C code computes them, in double precision: the same boundary
// mappings, the same spline weights and the same order of summation, so
// results match SciPy's to rounding.
// Compiles under NVRTC and under the host compiler alike.

// The boundary modes, numbered as scipy.ndimage numbers them.
#define KILN_SPLINE_NEAREST 0
#define KILN_SPLINE_WRAP 1
#define KILN_SPLINE_REFLECT 2  // also 'grid-mirror'
#define KILN_SPLINE_MIRROR 3
#define KILN_SPLINE_CONSTANT 4
#define KILN_SPLINE_GRID_WRAP 5
#define KILN_SPLINE_GRID_CONSTANT 6
#define KILN_SPLINE_MAX_DIMS 8

// A coordinate outside [0, n - 1] brought inside by the mode; -1 where the
// constant mode leaves it outside. The integer conversions truncate toward
// zero, as SciPy's (npy_intp) casts do.
__device__ __forceinline__ double kiln_spline_map_coordinate(double in, long long n, int mode) {
  if (in < 0) {
    switch (mode) {
      case KILN_SPLINE_MIRROR:
        if (n <= 1) return 0;
        {
          const long long period = 2 * n - 2;
          in = period * (long long)(-in / period) + in;
          return in <= 1 - n ? in + period : -in;
        }
      case KILN_SPLINE_REFLECT:
        if (n <= 1) return 0;
        {
          const long long period = 2 * n;
          if (in < -period) in = period * (long long)(-in / period) + in;
          // a coordinate just below zero must not map to -1 (outside)
          return in < -n ? in + period : (in > -1e-15 ? 1e-15 : -in) - 1;
        }
      case KILN_SPLINE_WRAP:
        if (n <= 1) return 0;
        return in + (n - 1) * ((long long)(-in / (n - 1)) + 1);
      case KILN_SPLINE_GRID_WRAP:
        if (n <= 1) return 0;
        return in + n * ((long long)((-1 - in) / n) + 1);
      case KILN_SPLINE_NEAREST:
        return 0;
      case KILN_SPLINE_CONSTANT:
        return -1;
    }
  } else if (in > n - 1) {
    switch (mode) {
      case KILN_SPLINE_MIRROR:
        if (n <= 1) return 0;
        {
          const long long period = 2 * n - 2;
          in -= period * (long long)(in / period);
          return in >= n ? period - in : in;
        }
      case KILN_SPLINE_REFLECT:
        if (n <= 1) return 0;
        {
          const long long period = 2 * n;
          in -= period * (long long)(in / period);
          return in >= n ? period - in - 1 : in;
        }
      case KILN_SPLINE_WRAP:
        if (n <= 1) return 0;
        return in - (n - 1) * (long long)(in / (n - 1));
      case KILN_SPLINE_GRID_WRAP:
        if (n <= 1) return 0;
        return in - n * (long long)(in / n);
      case KILN_SPLINE_NEAREST:
        return n - 1;
      case KILN_SPLINE_CONSTANT:
        return -1;
    }
  }
  return in;
}

// How the spline's taps beyond the edge are read: modes with no exact
// prefilter boundary of their own read the mirrored coefficients.
__device__ __forceinline__ int kiln_spline_tap_mode(int mode) {
  return mode == KILN_SPLINE_CONSTANT || mode == KILN_SPLINE_WRAP ? KILN_SPLINE_MIRROR : mode;
}

// The order + 1 weights of the B-spline of `order` centred near x (the
// first tap at floor(x) - order / 2, or floor(x + 0.5) - order / 2 for an
// even order); the last is one minus the others, as SciPy makes it.
__device__ __forceinline__ void kiln_spline_weights(double x, int order, double* w) {
  x -= floor(order & 1 ? x : x + 0.5);
  double y = x, z = 1.0 - x, t;
  switch (order) {
    case 1:
      w[0] = 1.0 - x;
      break;
    case 2:
      w[1] = 0.75 - x * x;
      y = 0.5 - x;
      w[0] = 0.5 * y * y;
      break;
    case 3:
      w[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
      w[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0;
      w[0] = z * z * z / 6.0;
      break;
    case 4:
      t = x * x;
      w[2] = t * (t * 0.25 - 0.625) + 115.0 / 192.0;
      y = 1.0 + x;
      w[1] = y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0;
      w[3] = z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0;
      y = 0.5 - x;
      t = y * y;
      w[0] = t * t / 24.0;
      break;
    case 5:
      t = y * y;
      w[2] = t * (t * (0.25 - y / 12.0) - 0.5) + 0.55;
      t = z * z;
      w[3] = t * (t * (0.25 - z / 12.0) - 0.5) + 0.55;
      y += 1.0;
      w[1] = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425;
      z += 1.0;
      w[4] = z * (z * (z * (z * (z / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425;
      y = 1.0 - x;
      t = y * y;
      w[0] = y * t * t / 120.0;
      break;
  }
  w[order] = 1.0;
  for (int i = 0; i < order; ++i) w[order] -= w[i];
}

// Where the coordinates of output point `point` come from.
#define KILN_SPLINE_FROM_COORDINATES 0  // params: (ndim, points) coordinates
#define KILN_SPLINE_FROM_MATRIX 1       // params: (ndim, out_ndim) matrix, then ndim offsets
#define KILN_SPLINE_FROM_ZOOM_SHIFT 2   // params: ndim zooms, then ndim shifts

// The interpolated value at each output point, in double precision.
// x: the (prefiltered) input, C-contiguous, of `shape` (ndim axes);
// out_shape: the output's (out_ndim axes). flags: bit 0 zooms given, bit 1
// shifts given, bit 2 grid mode (zoom's pixel-area alignment).
extern "C" __global__ void kiln_spline_interpolate(const double* x, double* out, long long points, int ndim,
                                                   const long long* shape, int out_ndim, const long long* out_shape,
                                                   int source, const double* params, int flags, int order, int mode,
                                                   double cval, long long prepad) {
  for (long long point = (long long)blockIdx.x * blockDim.x + threadIdx.x; point < points;
       point += (long long)gridDim.x * blockDim.x) {
    long long at[KILN_SPLINE_MAX_DIMS];  // the output point's index
    for (long long rest = point, k = out_ndim - 1; k >= 0; --k) {
      at[k] = rest % out_shape[k];
      rest /= out_shape[k];
    }
    double weights[KILN_SPLINE_MAX_DIMS][6];
    long long taps[KILN_SPLINE_MAX_DIMS][6];  // input index of each tap; -1: cval (grid-constant)
    bool outside = false;
    const int tap_mode = kiln_spline_tap_mode(mode);
    for (int h = 0; h < ndim && !outside; ++h) {
      double c = 0.0;
      if (source == KILN_SPLINE_FROM_COORDINATES) {
        c = params[h * points + point];
      } else if (source == KILN_SPLINE_FROM_MATRIX) {
        // The offset first, as SciPy sums; the products rounded apart from
        // the sums (no FMA contraction), so that a coordinate on a tie
        // between two taps falls where SciPy's does.
        c = params[ndim * out_ndim + h];
        for (int l = 0; l < out_ndim; ++l) c += __dmul_rn((double)at[l], params[h * out_ndim + l]);
      } else {
        c = (double)at[h];
        if (flags & 2) c += params[ndim + h];
        if (flags & 1) c = (flags & 4) ? __dmul_rn(c + 0.5, params[h]) - 0.5 : c * params[h];
      }
      c += (double)prepad;
      const long long n = shape[h];
      if (mode != KILN_SPLINE_GRID_CONSTANT && mode != KILN_SPLINE_NEAREST) c = kiln_spline_map_coordinate(c, n, mode);
      if (!(c > -1.0 || mode == KILN_SPLINE_GRID_CONSTANT || mode == KILN_SPLINE_NEAREST)) {
        outside = true;
        break;
      }
      const long long start = (long long)floor(order & 1 ? c : c + 0.5) - order / 2;
      for (int k = 0; k <= order; ++k) {
        long long i = start + k;
        if (i < 0 || i >= n)
          i = mode == KILN_SPLINE_GRID_CONSTANT ? -1 : (long long)kiln_spline_map_coordinate((double)i, n, tap_mode);
        taps[h][k] = i;
      }
      if (order > 0) kiln_spline_weights(c, order, weights[h]);
    }
    if (outside) {
      out[point] = cval;
      continue;
    }
    // Every combination of one tap per axis, the last axis fastest, as SciPy sums them.
    int k[KILN_SPLINE_MAX_DIMS];
    for (int h = 0; h < ndim; ++h) k[h] = 0;
    double total = 0.0;
    for (;;) {
      long long offset = 0;
      bool use_cval = false;
      for (int h = 0; h < ndim; ++h) {
        const long long i = taps[h][k[h]];
        if (i < 0) use_cval = true;
        offset = offset * shape[h] + i;
      }
      double term = use_cval ? cval : x[offset];
      if (order > 0)
        for (int h = 0; h < ndim; ++h) term *= weights[h][k[h]];
      total += term;
      int h = ndim - 1;
      while (h >= 0 && k[h] == order) k[h--] = 0;
      if (h < 0) break;
      ++k[h];
    }
    out[point] = total;
  }
}

// The prefilter's first coefficient of the causal pass (c: the line, step
// apart) for the boundary the line is extended by: whole-sample symmetric
// (mirror), half-sample symmetric (reflect) or periodic.
__device__ __forceinline__ void kiln_spline_causal_start(double* c, long long n, long long step, double z, int boundary) {
  if (boundary == KILN_SPLINE_MIRROR) {
    const double z_n_1 = pow(z, (double)(n - 1));
    double z_i = z, c0 = c[0] + z_n_1 * c[(n - 1) * step];
    for (long long i = 1; i < n - 1; ++i) {
      c0 += z_i * (c[i * step] + z_n_1 * c[(n - 1 - i) * step]);
      z_i *= z;
    }
    c[0] = c0 / (1 - z_n_1 * z_n_1);
  } else if (boundary == KILN_SPLINE_REFLECT) {
    const double z_n = pow(z, (double)n), first = c[0];
    double z_i = z, c0 = c[0] + z_n * c[(n - 1) * step];
    for (long long i = 1; i < n; ++i) {
      c0 += z_i * (c[i * step] + z_n * c[(n - 1 - i) * step]);
      z_i *= z;
    }
    c[0] = c0 * z / (1 - z_n * z_n) + first;
  } else {
    double z_i = z, c0 = c[0];
    for (long long i = 1; i < n; ++i) {
      c0 += z_i * c[(n - i) * step];
      z_i *= z;
    }
    c[0] = c0 / (1 - z_i);
  }
}

// The last coefficient of the anticausal pass, for the same boundaries.
__device__ __forceinline__ void kiln_spline_anticausal_start(double* c, long long n, long long step, double z,
                                                             int boundary) {
  double* last = c + (n - 1) * step;
  if (boundary == KILN_SPLINE_MIRROR) {
    *last = (z * c[(n - 2) * step] + *last) * z / (z * z - 1);
  } else if (boundary == KILN_SPLINE_REFLECT) {
    *last *= z / (z - 1);
  } else {
    double z_i = z, cl = *last;
    for (long long i = 0; i < n - 1; ++i) {
      cl += z_i * c[i * step];
      z_i *= z;
    }
    *last = cl * z / (z_i - 1);
  }
}

// spline_filter1d in place on a C-contiguous double array laid out as
// (outer, length, inner): a thread a line, the poles of the B-spline of
// `order` (2 to 5) applied one after another, causal then anticausal, after
// the gain that makes the filter's response to a constant one.
extern "C" __global__ void kiln_spline_filter1d(double* c, long long length, long long inner, long long lines,
                                                int order, int mode) {
  double poles[2];
  int count = order / 2;
  switch (order) {
    case 2: poles[0] = -0.171572875253809902396622551580603843; break;  // sqrt(8) - 3
    case 3: poles[0] = -0.267949192431122706472553658494127633; break;  // sqrt(3) - 2
    case 4:
      poles[0] = -0.361341225900220177092212841325675255;
      poles[1] = -0.013725429297339121360331226939128204;
      break;
    default:
      poles[0] = -0.430575347099973791851434783493520110;
      poles[1] = -0.043096288203264653822712376822550182;
  }
  // The prefilter's boundary: grid-wrap is periodic, nearest and reflect
  // half-sample symmetric, the rest (constant and wrap have no exact one)
  // whole-sample symmetric.
  const int boundary = mode == KILN_SPLINE_GRID_WRAP ? KILN_SPLINE_GRID_WRAP
                       : (mode == KILN_SPLINE_NEAREST || mode == KILN_SPLINE_REFLECT) ? KILN_SPLINE_REFLECT
                                                                                      : KILN_SPLINE_MIRROR;
  double gain = 1.0;
  for (int p = 0; p < count; ++p) gain *= (1.0 - poles[p]) * (1.0 - 1.0 / poles[p]);
  for (long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x; line < lines;
       line += (long long)gridDim.x * blockDim.x) {
    double* at = c + (line / inner) * length * inner + line % inner;
    for (long long i = 0; i < length; ++i) at[i * inner] *= gain;
    for (int p = 0; p < count; ++p) {
      const double z = poles[p];
      kiln_spline_causal_start(at, length, inner, z, boundary);
      for (long long i = 1; i < length; ++i) at[i * inner] += z * at[(i - 1) * inner];
      kiln_spline_anticausal_start(at, length, inner, z, boundary);
      for (long long i = length - 2; i >= 0; --i) at[i * inner] = z * (at[(i + 1) * inner] - at[i * inner]);
    }
  }
}
