// The N-Ways lab's pair-distance histogram kernels, shared by kiln-rdf's
// Python ways (kiln/rdf/ways.py) and its C++ program (examples/cpp/rdf_histogram.cpp).
// Compiled with --fmad=false: plain operations in one order, so that the GPU
// and the CPU agree bit for bit (see kiln/rdf/science.py).

// The lab's minimum-image distance.
__device__ __forceinline__ double lab_distance(double dx, double dy, double dz, double lx, double ly, double lz) {
  dx = dx - lx * rint(dx / lx);
  dy = dy - ly * rint(dy / ly);
  dz = dz - lz * rint(dz / lz);
  return sqrt((dx * dx + dy * dy) + dz * dz);
}

// The lab's kernel: a thread per (frame, atom i), every atom j, an atomic histogram.
extern "C" __global__ void pair_all(const double* x, const double* y, const double* z, unsigned long long* hist,
                                    int atoms, int frames, double lx, double ly, double lz, double cut,
                                    double width) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)atoms * frames) return;
  long long frame = t / atoms * atoms;
  int i = (int)(t % atoms);
  const double xi = x[frame + i], yi = y[frame + i], zi = z[frame + i];
  for (int j = 0; j < atoms; ++j) {
    const double r = lab_distance(xi - x[frame + j], yi - y[frame + j], zi - z[frame + j], lx, ly, lz);
    if (r < cut) atomicAdd(&hist[(int)(r / width)], 1ULL);
  }
}

// The same distance and bin with multiplications instead of the divisions,
// bit for bit: q = d * (1 / l) lies within a few ulps of the rounded d / l,
// so both round to the same integer unless q is within 1e-9 of a
// half-integer (for rint) or of an integer (for the bin), and there the exact
// division is taken. That happens for about one pair in 10^8, so the warps
// almost never diverge, and float64 division (the kernel's costliest step)
// leaves the inner loop.
__device__ __forceinline__ double lab_image(double d, double l, double inv_l) {
  const double q = d * inv_l, a = fabs(q);
  double n = rint(q);
  if (fabs(fabs(q - n) - 0.5) < 1e-9 * (a > 1.0 ? a : 1.0)) n = rint(d / l);  // (not fmax: a call on the CPU)
  return d - l * n;
}
__device__ __forceinline__ int lab_bin(double r, double width, double inv_width) {
  const double q = r * inv_width;
  if (fabs(q - rint(q)) < 1e-9 * (q > 1.0 ? q : 1.0)) return (int)(r / width);
  return (int)q;
}

// Unique pairs j > i only, tile by tile: an item is (frame, tile of rows i,
// tile of columns j), the column tile's positions staged in shared memory
// and read by every thread of the block. Blocks take items grid-stride and
// count into a histogram in shared memory, flushed to global memory once.
extern "C" __global__ void pair_unique(const double* x, const double* y, const double* z, unsigned long long* hist,
                                       int atoms, int frames, double lx, double ly, double lz, double cut,
                                       double width, int bins) {
  extern __shared__ double tile[];  // x, y, z of a column tile, then the histogram
  double* tx = tile;
  double* ty = tx + blockDim.x;
  double* tz = ty + blockDim.x;
  unsigned int* local = (unsigned int*)(tz + blockDim.x);
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  const double ilx = 1.0 / lx, ily = 1.0 / ly, ilz = 1.0 / lz, iw = 1.0 / width;
  const int size = blockDim.x;
  const int tiles = (atoms + size - 1) / size;
  const long long items = (long long)tiles * tiles;
  for (long long item = blockIdx.x; item < items * frames; item += gridDim.x) {
    const int ti = (int)(item % items / tiles), tj = (int)(item % tiles);
    if (tj < ti) continue;  // every j of the column tile is below every i (the same for the whole block)
    const long long frame = item / items * atoms;
    const int j0 = tj * size, i = ti * size + threadIdx.x;
    __syncthreads();  // the previous tile is read
    if (j0 + threadIdx.x < atoms) {
      tx[threadIdx.x] = x[frame + j0 + threadIdx.x];
      ty[threadIdx.x] = y[frame + j0 + threadIdx.x];
      tz[threadIdx.x] = z[frame + j0 + threadIdx.x];
    }
    __syncthreads();
    if (i >= atoms) continue;
    const double xi = x[frame + i], yi = y[frame + i], zi = z[frame + i];
    const int end = min(size, atoms - j0);
    for (int j = max(0, i + 1 - j0); j < end; ++j) {
      const double dx = lab_image(xi - tx[j], lx, ilx);
      const double dy = lab_image(yi - ty[j], ly, ily);
      const double dz = lab_image(zi - tz[j], lz, ilz);
      const double r = sqrt((dx * dx + dy * dy) + dz * dz);
      if (r < cut) atomicAdd(&local[lab_bin(r, width, iw)], 1u);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], 2ULL * local[b]);  // each unique pair is two ordered pairs
}
