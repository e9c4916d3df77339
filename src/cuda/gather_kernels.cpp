// take and put on the GPU: a thread per element, copied as one value of the
// element's size.
#include <atomic>

#include "backend.hpp"
#include "kernel_family_sources.hpp"
#include "grid_stride.hpp"
#include "kernel_slots.hpp"
#include "module_cache.hpp"

namespace kiln::cuda {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kBlocksPerSM = 16;

}  // namespace

const char* gather_kernel_source() {
  return R"(
template <class T>
__device__ void gather(const T* src, T* dst, const long long* indices, long long count, long long axis_length,
                       long long outer, long long inner) {
  const long long total = outer * count * inner;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long i = t % inner, j = t / inner % count, o = t / (inner * count);
    long long k = indices[j];
    if (k < 0) k += axis_length;
    dst[t] = src[(o * axis_length + k) * inner + i];
  }
}
#define KILN_GATHER(name, T)                                                                              \
  extern "C" __global__ void name(const T* src, T* dst, const long long* indices, long long count,       \
                                  long long axis_length, long long outer, long long inner) {             \
    gather(src, dst, indices, count, axis_length, outer, inner);                                          \
  }
template <class T>
__device__ void scatter(T* dst, const T* values, const long long* indices, long long count, long long value_count,
                        long long length) {
  for (long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x; j < count;
       j += (long long)gridDim.x * blockDim.x) {
    long long k = indices[j];
    if (k < 0) k += length;
    dst[k] = values[j % value_count];
  }
}
#define KILN_SCATTER(name, T)                                                                              \
  extern "C" __global__ void name(T* dst, const T* values, const long long* indices, long long count,     \
                                  long long value_count, long long length) {                              \
    scatter(dst, values, indices, count, value_count, length);                                              \
  }
KILN_SCATTER(kiln_scatter_1, unsigned char)
KILN_SCATTER(kiln_scatter_2, unsigned short)
KILN_SCATTER(kiln_scatter_4, unsigned int)
KILN_SCATTER(kiln_scatter_8, unsigned long long)
KILN_SCATTER(kiln_scatter_16, ulonglong2)
KILN_GATHER(kiln_gather_1, unsigned char)
KILN_GATHER(kiln_gather_2, unsigned short)
KILN_GATHER(kiln_gather_4, unsigned int)
KILN_GATHER(kiln_gather_8, unsigned long long)
KILN_GATHER(kiln_gather_16, ulonglong2)
)";
}

namespace {

std::atomic<CUfunction> slots[2][5][kMaxDevices];  // [gather, scatter][log2(itemsize)][device]

CUfunction function(int scatter, int64_t itemsize, int device) {
  static const char* const names[2][5] = {
      {"kiln_gather_1", "kiln_gather_2", "kiln_gather_4", "kiln_gather_8", "kiln_gather_16"},
      {"kiln_scatter_1", "kiln_scatter_2", "kiln_scatter_4", "kiln_scatter_8", "kiln_scatter_16"}};
  int size_class = 0;
  while ((int64_t{1} << size_class) < itemsize) ++size_class;
  check_device_index(device);
  return load_or_build(slots[scatter][size_class][device],
                       [&] { return load_kernel(device, gather_kernel_source(), names[scatter][size_class]); });
}

void gather(const GatherArgs& a) {
  CUfunction fn = function(0, a.itemsize, a.device);
  const unsigned grid = grid_stride_blocks(a.device, a.outer * a.count * a.inner, kThreads, kBlocksPerSM);
  const void* src = a.src;
  void* dst = a.dst;
  const void* indices = a.indices;
  long long count = a.count, axis_length = a.axis_length, outer = a.outer, inner = a.inner;
  void* args[] = {&src, &dst, &indices, &count, &axis_length, &outer, &inner};
  launch_grid_stride(fn, a.device, grid, kThreads, args);
}

void scatter(const ScatterArgs& a) {
  CUfunction fn = function(1, a.itemsize, a.device);
  void* dst = a.dst;
  const void* values = a.values;
  const void* indices = a.indices;
  long long count = a.count, value_count = a.value_count, length = a.length;
  void* args[] = {&dst, &values, &indices, &count, &value_count, &length};
  launch_grid_stride(fn, a.device, grid_stride_blocks(a.device, a.count, kThreads, kBlocksPerSM), kThreads, args);
}

}  // namespace

void register_gather_kernels(KernelTable& table) {
  table.gather = &gather;
  table.scatter = &scatter;
}

}  // namespace kiln::cuda
