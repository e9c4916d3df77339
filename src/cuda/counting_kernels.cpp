// bincount and flatnonzero's mask compaction on the GPU. With few bins each block counts into a histogram in
// shared memory and adds it to the output once; otherwise every value is an
// atomic add to global memory. Weight sums use float64 atomics, so their
// rounding varies from run to run (as CuPy's does).
#include <algorithm>
#include <atomic>
#include <string>

#include "backend.hpp"
#include "context.hpp"
#include "cub_library.hpp"
#include "kiln/cuda.hpp"
#include "memory_pool.hpp"
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
)";
}

namespace {

struct CountingFunctions {
  CUfunction shared, global, weights_shared, weights_global;
};
std::atomic<CountingFunctions*> slots[kMaxDevices];

const CountingFunctions& functions(int device) {
  check_device_index(device);
  return *load_or_build(slots[device], [&] {
    const std::string text = counting_kernel_source();
    return new CountingFunctions{load_kernel(device, text, "kiln_bincount_shared"),
                                 load_kernel(device, text, "kiln_bincount_global"),
                                 load_kernel(device, text, "kiln_bincount_weights_shared"),
                                 load_kernel(device, text, "kiln_bincount_weights_global")};
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

// Compaction with CUB (libkiln_cub.so): the counting call sums the mask and
// copies the count to the host (the output's size must be known to allocate
// it), the writing call selects the flagged positions or elements in one pass.
void compact_mask(MaskCompactArgs& a) {
  ContextScope scope(a.device);
  void* stream = reinterpret_cast<void*>(current_stream_handle(a.device));
  const Device device = Device::cuda(a.device);
  BufferPtr count = allocate_device(sizeof(long long), device);
  long long* count_at = static_cast<long long*>(count->data());
  size_t temp_bytes = 0;
  if (!a.out) {
    const CountFlagsFn count_flags = count_flags_function();
    check_cub(count_flags(nullptr, &temp_bytes, a.mask, count_at, a.n, stream), "cub::DeviceReduce::Sum (temporary storage)");
    BufferPtr temp = allocate_device(std::max<size_t>(temp_bytes, 1), device);
    check_cub(count_flags(temp->data(), &temp_bytes, a.mask, count_at, a.n, stream), "cub::DeviceReduce::Sum");
    long long host_count = 0;
    kernel_table(DeviceKind::CUDA).transfer(&host_count, Device::cpu(), count_at, device, sizeof host_count);
    a.count = host_count;
    return;
  }
  // The writing call: the flagged positions, or the flagged elements of a.values.
  auto select = [&](void* temp) {
    if (a.values)
      return flagged_values_function()(temp, &temp_bytes, a.values, static_cast<int>(a.itemsize), a.mask, a.out,
                                       count_at, a.n, stream);
    return flagged_positions_function()(temp, &temp_bytes, a.mask, static_cast<long long*>(a.out), count_at, a.n,
                                        stream);
  };
  check_cub(select(nullptr), "cub::DeviceSelect::Flagged (temporary storage)");
  BufferPtr temp = allocate_device(std::max<size_t>(temp_bytes, 1), device);
  check_cub(select(temp->data()), "cub::DeviceSelect::Flagged");
}

}  // namespace

void register_counting_kernels(KernelTable& table) {
  table.bincount[0] = &bincount;
  table.bincount[1] = &bincount;
  table.compact_mask = &compact_mask;
}

}  // namespace kiln::cuda
