"""The pair-distance histogram, computed every way kiln offers. Each way takes
the trajectory on a device and returns the same int64 histogram (see
science.py for the conventions every way keeps, bit for bit).

- raw_kernel: the lab's all-pairs kernel as CUDA C, a kiln.RawKernel;
- jit: the same kernel in Python, kiln.cuda.jit;
- optimised: unique pairs only (each row i with its mirror row n-1-i, so
  every thread does the same work), a shared-memory histogram per block,
  flushed once;
- serial: the lab's loop in NumPy, the reference.

On a GPU they run there; on the CPU the same kernels run on all cores.
"""
import math

import kiln
from kiln import cuda

from . import science

# The lab's minimum-image distance: plain operations in one order, so that the
# GPU (compiled with --fmad=false) and the CPU agree bit for bit.
DISTANCE = r"""
__device__ __forceinline__ double lab_distance(double dx, double dy, double dz, double lx, double ly, double lz) {
  dx = dx - lx * rint(dx / lx);
  dy = dy - ly * rint(dy / ly);
  dz = dz - lz * rint(dz / lz);
  return sqrt((dx * dx + dy * dy) + dz * dz);
}
"""

ALL_PAIRS = DISTANCE + r"""
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
"""

UNIQUE_PAIRS = DISTANCE + r"""
// Unique pairs j > i only. Thread t takes row t and its mirror n-1-t, which
// together have n-1 partners: every thread does the same work. Counts go to
// a histogram in shared memory and reach global memory once per block.
extern "C" __global__ void pair_unique(const double* x, const double* y, const double* z, unsigned long long* hist,
                                       int atoms, double lx, double ly, double lz, double cut, double width,
                                       int bins) {
  extern __shared__ unsigned int local[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const long long frame = (long long)blockIdx.y * atoms;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int half = (atoms + 1) / 2;
  if (t < half) {
    for (int side = 0; side < 2; ++side) {
      const int i = side == 0 ? t : atoms - 1 - t;
      if (side == 1 && i <= t) break;  // the middle row of an odd count is taken once
      const double xi = x[frame + i], yi = y[frame + i], zi = z[frame + i];
      for (int j = i + 1; j < atoms; ++j) {
        const double r = lab_distance(xi - x[frame + j], yi - y[frame + j], zi - z[frame + j], lx, ly, lz);
        if (r < cut) atomicAdd(&local[(int)(r / width)], 1u);
      }
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], 2ULL * local[b]);  // each unique pair is two ordered pairs
}
"""

THREADS = 128
_kernels = {}


def _raw(name):
    if name not in _kernels:
        source = ALL_PAIRS if name == "pair_all" else UNIQUE_PAIRS
        _kernels[name] = kiln.RawKernel(source, name, options=("--fmad=false",))
    return _kernels[name]


def _pair_all_jit(x, y, z, hist, lx, ly, lz, cut, width):
    """The lab's kernel in Python (kiln.cuda.jit)."""
    t = cuda.grid(1)
    frames = x.shape[0]
    atoms = x.shape[1]
    if t >= frames * atoms:
        return
    f = t // atoms
    i = t % atoms
    xi = x[f, i]
    yi = y[f, i]
    zi = z[f, i]
    for j in range(atoms):
        dx = xi - x[f, j]
        dy = yi - y[f, j]
        dz = zi - z[f, j]
        dx = dx - lx * round(dx / lx)
        dy = dy - ly * round(dy / ly)
        dz = dz - lz * round(dz / lz)
        r = math.sqrt((dx * dx + dy * dy) + dz * dz)
        if r < cut:
            cuda.atomic.add(hist, int(r / width), 1)


pair_all_jit = cuda.jit(_pair_all_jit, fma=False)


def _geometry(box, bins):
    cut, width = science.geometry(box, bins)
    return float(box[0]), float(box[1]), float(box[2]), cut, width


def raw_kernel(x, y, z, box, bins=science.BINS):
    frames, atoms = x.shape
    hist = kiln.zeros(bins, dtype="uint64", device=x.device)
    total = frames * atoms
    _raw("pair_all")((-(-total // THREADS),), (THREADS,), (x, y, z, hist, atoms, frames, *_geometry(box, bins)))
    return hist.astype("int64")


def jit(x, y, z, box, bins=science.BINS):
    frames, atoms = x.shape
    hist = kiln.zeros(bins, dtype="int64", device=x.device)
    pair_all_jit[-(-(frames * atoms) // THREADS), THREADS](x, y, z, hist, *_geometry(box, bins))
    return hist


def optimised(x, y, z, box, bins=science.BINS):
    frames, atoms = x.shape
    hist = kiln.zeros(bins, dtype="uint64", device=x.device)
    half = (atoms + 1) // 2
    threads = THREADS if x.device.type == "cuda" else 32
    _raw("pair_unique")((-(-half // threads), frames), (threads,),
                        (x, y, z, hist, atoms, *_geometry(box, bins), bins), shared_mem=4 * bins)
    counts = hist.astype("int64")
    counts[0] += frames * atoms  # the self pairs the lab's loop counts
    return counts


def serial(x, y, z, box, bins=science.BINS):
    return kiln.asarray(science.histogram_reference(kiln.asnumpy(x), kiln.asnumpy(y), kiln.asnumpy(z), box, bins))


WAYS = {"raw_kernel": raw_kernel, "jit": jit, "optimised": optimised, "serial": serial}
