// Random draws on the GPU: a thread per Philox block, its 16 bytes of values
// written with one vector store where the output is 16-byte aligned.
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
constexpr unsigned kBlocksPerSM = 16;  // resident blocks a multiprocessor is given, grid-stride beyond

}  // namespace

const char* random_kernel_source() {
  return R"(
#include "kiln/device/philox.h"

template <class T, int Kind>
__device__ __forceinline__ void fill(T* v, unsigned long long key, unsigned long long block) {
  const kiln::philox::Block b = kiln::philox::stream_block(key, block);
  if constexpr (Kind == 0) kiln::philox::bits(b, v);
  else if constexpr (Kind == 1) kiln::philox::uniform(b, v);
  else kiln::philox::normal(b, v);
}

// Whole blocks of a 16-byte aligned output take one vector store each, in a
// loop of their own (no bounds test per store); the rest, one value at a time.
template <class T, class V, int Kind>
__device__ void draw(T* out, long long n, unsigned long long key, unsigned long long first, int aligned) {
  const long long per = 16 / sizeof(T);
  const long long blocks = (n + per - 1) / per, vector_blocks = aligned ? n / per : 0;
  const long long start = blockIdx.x * (long long)blockDim.x + threadIdx.x, stride = (long long)gridDim.x * blockDim.x;
  for (long long b = start; b < vector_blocks; b += stride) {
    V pack;
    fill<T, Kind>(reinterpret_cast<T*>(&pack), key, first + b);
    reinterpret_cast<V*>(out)[b] = pack;
  }
  for (long long b = vector_blocks + start; b < blocks; b += stride) {
    T v[16 / sizeof(T)];
    fill<T, Kind>(v, key, first + b);
    for (long long j = 0; j < per && b * per + j < n; ++j) out[b * per + j] = v[j];
  }
}

#define KILN_RANDOM_KERNEL(name, T, V, kind)                                                                  \
  extern "C" __global__ void name(T* out, long long n, unsigned long long key, unsigned long long first, \
                                  int aligned) {                                                        \
    draw<T, V, kind>(out, n, key, first, aligned);                                                      \
  }
KILN_RANDOM_KERNEL(kiln_random_bits_uint32, unsigned int, uint4, 0)
KILN_RANDOM_KERNEL(kiln_random_bits_uint64, unsigned long long, ulonglong2, 0)
KILN_RANDOM_KERNEL(kiln_random_uniform_float32, float, float4, 1)
KILN_RANDOM_KERNEL(kiln_random_uniform_float64, double, double2, 1)
KILN_RANDOM_KERNEL(kiln_random_normal_float32, float, float4, 2)
KILN_RANDOM_KERNEL(kiln_random_normal_float64, double, double2, 2)
)";
}

namespace {

std::atomic<CUfunction> slots[3][2][kMaxDevices];  // [kind][4- or 8-byte][device]

template <int Kind, int Wide>
void draw(const RandomArgs& a) {
  static const char* const names[3][2] = {{"kiln_random_bits_uint32", "kiln_random_bits_uint64"},
                                          {"kiln_random_uniform_float32", "kiln_random_uniform_float64"},
                                          {"kiln_random_normal_float32", "kiln_random_normal_float64"}};
  check_device_index(a.device);
  CUfunction fn = load_or_build(slots[Kind][Wide][a.device], [&] { return load_kernel(a.device, random_kernel_source(), names[Kind][Wide]); });
  const long long per = Wide ? 2 : 4;
  const unsigned grid = grid_stride_blocks(a.device, (a.n + per - 1) / per, kThreads, kBlocksPerSM);
  void* out = a.out;
  long long n = a.n;
  unsigned long long key = a.key, first = a.first_block;
  int aligned = reinterpret_cast<uintptr_t>(a.out) % 16 == 0;
  void* args[] = {&out, &n, &key, &first, &aligned};
  launch_grid_stride(fn, a.device, grid, kThreads, args);
}

}  // namespace

void register_random_kernels(KernelTable& t) {
  const int bits = static_cast<int>(RandomKind::Bits), uniform = static_cast<int>(RandomKind::Uniform),
            normal = static_cast<int>(RandomKind::Normal);
  t.random[bits][static_cast<int>(DType::UInt32)] = &draw<0, 0>;
  t.random[bits][static_cast<int>(DType::UInt64)] = &draw<0, 1>;
  t.random[uniform][static_cast<int>(DType::Float32)] = &draw<1, 0>;
  t.random[uniform][static_cast<int>(DType::Float64)] = &draw<1, 1>;
  t.random[normal][static_cast<int>(DType::Float32)] = &draw<2, 0>;
  t.random[normal][static_cast<int>(DType::Float64)] = &draw<2, 1>;
}

}  // namespace kiln::cuda
