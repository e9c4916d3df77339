// bincount and flatnonzero's compaction on the GPU. With few bins each block counts into a histogram in
// shared memory and adds it to the output once; otherwise every value is an
// atomic add to global memory. Weight sums use float64 atomics, so their
// rounding varies from run to run (as CuPy's does).
#include <algorithm>
#include <atomic>
#include <string>

#include "backend.hpp"
#include "kernel_family_sources.hpp"
#include "grid_stride.hpp"
#include "kernel_slots.hpp"
#include "module_cache.hpp"

namespace kiln::cuda {
namespace {

constexpr unsigned kThreads = 256;
constexpr int64_t kSharedBins = 6144;   // 48 KiB of float64 sums: the most static shared memory a block has
constexpr unsigned kBlocksPerSM = 4;

}  // namespace

// Every kernel takes (x, [weights,] n, out, bins), so one argument list serves.
std::string counting_kernel_source() {
  return "#define KILN_SHARED_BINS " + std::to_string(kSharedBins) + R"(
template <class Acc, class Out>
__device__ void count_shared(const long long* x, const double* w, long long n, Out* out, int bins) {
  __shared__ Acc local[KILN_SHARED_BINS];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    atomicAdd(&local[x[i]], w ? (Acc)w[i] : (Acc)1);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&out[b], (Out)local[b]);
}
template <class Out>
__device__ void count_global(const long long* x, const double* w, long long n, Out* out) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    atomicAdd(&out[x[i]], w ? (Out)w[i] : (Out)1);
}
extern "C" __global__ void kiln_bincount_shared(const long long* x, long long n, unsigned long long* out, int bins) {
  count_shared<unsigned int>(x, nullptr, n, out, bins);
}
extern "C" __global__ void kiln_bincount_global(const long long* x, long long n, unsigned long long* out, int) {
  count_global(x, nullptr, n, out);
}
extern "C" __global__ void kiln_bincount_weights_shared(const long long* x, const double* w, long long n, double* out,
                                                         int bins) {
  count_shared<double>(x, w, n, out, bins);
}
extern "C" __global__ void kiln_bincount_weights_global(const long long* x, const double* w, long long n, double* out,
                                                         int) {
  count_global(x, w, n, out);
}
extern "C" __global__ void kiln_compact(const long long* slots, long long n, long long* out) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    if (slots[i] != (i > 0 ? slots[i - 1] : 0)) out[slots[i] - 1] = i;
}
)";
}

namespace {

struct CountingFunctions {
  CUfunction shared, global, weights_shared, weights_global, compact;
};
std::atomic<CountingFunctions*> slots[kMaxDevices];

const CountingFunctions& functions(int device) {
  check_device_index(device);
  return *load_or_build(slots[device], [&] {
    const std::string text = counting_kernel_source();
    return new CountingFunctions{load_kernel(device, text, "kiln_bincount_shared"),
                                 load_kernel(device, text, "kiln_bincount_global"),
                                 load_kernel(device, text, "kiln_bincount_weights_shared"),
                                 load_kernel(device, text, "kiln_bincount_weights_global"),
                                 load_kernel(device, text, "kiln_compact")};
  });
}

void bincount(const BincountArgs& a) {
  const CountingFunctions& f = functions(a.device);
  const unsigned blocks = grid_stride_blocks(a.device, a.n, kThreads, kBlocksPerSM);
  // Shared counts are 32-bit: a block may add at most 2^32 - 1 to one bin.
  const bool shared = a.bins <= kSharedBins && a.n / blocks < (int64_t{1} << 31);
  int bins = static_cast<int>(std::min(a.bins, kSharedBins));
  long long n = a.n;
  const void* x = a.x;
  const void* w = a.weights;
  void* out = a.out;
  void* counts[] = {&x, &n, &out, &bins};
  void* sums[] = {&x, &w, &n, &out, &bins};
  CUfunction fn = a.weights ? (shared ? f.weights_shared : f.weights_global) : (shared ? f.shared : f.global);
  launch_grid_stride(fn, a.device, blocks, kThreads, a.weights ? sums : counts);
}

void compact(const CompactArgs& a) {
  const CountingFunctions& f = functions(a.device);
  const void* slots = a.slots;
  long long n = a.n;
  void* out = a.out;
  void* args[] = {&slots, &n, &out};
  launch_grid_stride(f.compact, a.device, grid_stride_blocks(a.device, a.n, kThreads, kBlocksPerSM), kThreads, args);
}

}  // namespace

void register_counting_kernels(KernelTable& table) {
  table.bincount[0] = &bincount;
  table.bincount[1] = &bincount;
  table.compact = &compact;
}

}  // namespace kiln::cuda
