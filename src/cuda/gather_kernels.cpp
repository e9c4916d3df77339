// take and put on the GPU: a thread per element, copied as one value of the
// element's size; take checks its indices as it goes (one flag read back).
#include <atomic>

#include "backend.hpp"
#include "kiln/cuda.hpp"
#include "memory_pool.hpp"
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
// With first_bad, an index out of range is skipped and the lowest position
// holding one is kept there (it starts at all ones).
__device__ __forceinline__ bool in_range(long long k, long long j, long long axis_length,
                                         unsigned long long* first_bad) {
  if (!first_bad || (k >= -axis_length && k < axis_length)) return true;
  atomicMin(first_bad, (unsigned long long)j);
  return false;
}
template <class T>
__device__ void gather(const T* src, T* dst, const long long* indices, long long count, long long axis_length,
                       long long outer, long long inner, unsigned long long* first_bad) {
  const long long stride = (long long)gridDim.x * blockDim.x, first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (outer == 1 && inner == 1) {  // a 1-d take: no division per element
    for (long long j = first; j < count; j += stride) {
      long long k = indices[j];
      if (!in_range(k, j, axis_length, first_bad)) continue;
      dst[j] = src[k < 0 ? k + axis_length : k];
    }
    return;
  }
  const long long total = outer * count * inner;
  for (long long t = first; t < total; t += stride) {
    const long long i = t % inner, j = t / inner % count, o = t / (inner * count);
    long long k = indices[j];
    if (!in_range(k, j, axis_length, first_bad)) continue;
    if (k < 0) k += axis_length;
    dst[t] = src[(o * axis_length + k) * inner + i];
  }
}
#define KILN_GATHER(name, T)                                                                              \
  extern "C" __global__ void name(const T* src, T* dst, const long long* indices, long long count,       \
                                  long long axis_length, long long outer, long long inner,               \
                                  unsigned long long* first_bad) {                                        \
    gather(src, dst, indices, count, axis_length, outer, inner, first_bad);                               \
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

int64_t gather(const GatherArgs& a) {
  CUfunction fn = function(0, a.itemsize, a.device);
  const unsigned grid = grid_stride_blocks(a.device, a.outer * a.count * a.inner, kThreads, kBlocksPerSM);
  const uintptr_t stream = current_stream_handle(a.device);
  BufferPtr flag;
  void* first_bad = nullptr;
  if (a.check_bounds) {
    flag = allocate_device(sizeof(unsigned long long), Device::cuda(a.device));
    first_bad = flag->data();
    fill_bytes(reinterpret_cast<uintptr_t>(first_bad), 0xff, sizeof(unsigned long long), a.device, stream);
  }
  const void* src = a.src;
  void* dst = a.dst;
  const void* indices = a.indices;
  long long count = a.count, axis_length = a.axis_length, outer = a.outer, inner = a.inner;
  void* args[] = {&src, &dst, &indices, &count, &axis_length, &outer, &inner, &first_bad};
  launch_grid_stride(fn, a.device, grid, kThreads, args);
  if (!a.check_bounds) return -1;
  unsigned long long position = 0;
  kernel_table(DeviceKind::CUDA).transfer(&position, Device::cpu(), first_bad, Device::cuda(a.device), sizeof position);
  return position == ~0ull ? -1 : static_cast<int64_t>(position);
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
