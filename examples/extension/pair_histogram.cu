// The radial distribution function's pair histogram (the N-Ways RDF lab's
// kernel, in its simplest form): for every frame, each unordered pair of
// atoms closer than `cut` under the minimum-image convention adds 2 (two
// ordered pairs) to the bin of its distance. One thread per (frame, atom i)
// looks at the atoms after i. Compiled at run time by kiln for the device of
// the launch: NVRTC on a GPU, the host compiler on the CPU.
extern "C" __global__ void pair_histogram(const double* pos, unsigned long long* hist, int atoms, int frames,
                                          double lx, double ly, double lz, double cut, double width, int bins) {
  const long long total = (long long)frames * atoms;
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += step) {
    const double* p = pos + t / atoms * atoms * 3;  // this frame's (atoms, 3) positions
    const int i = (int)(t % atoms);
    const double xi = p[3 * i], yi = p[3 * i + 1], zi = p[3 * i + 2];
    for (int j = i + 1; j < atoms; ++j) {
      double dx = xi - p[3 * j], dy = yi - p[3 * j + 1], dz = zi - p[3 * j + 2];
      dx -= lx * rint(dx / lx);
      dy -= ly * rint(dy / ly);
      dz -= lz * rint(dz / lz);
      const double r = sqrt(dx * dx + dy * dy + dz * dz);
      if (r < cut) {
        const int bin = (int)(r / width);
        if (bin < bins) atomicAdd(&hist[bin], 2ULL);
      }
    }
  }
}
