// Random draws on the CPU: Philox blocks split over the cores (each block is
// independent of the others, so the split does not change the values).
#include <cmath>
#include <cstring>

#include "backend.hpp"
#include "kiln/device/philox.h"
#include "parallel.hpp"
#include "vector_clones.hpp"

namespace kiln::cpu {
namespace {

constexpr int64_t kGrain = 1 << 14;  // blocks a core takes at least

// One core's share of blocks. The float32 normal is fused multiply-adds
// (philox.h): the clones with FMA instructions do them inline, where baseline
// x86-64 calls libm's fmaf for each (the same bits, in twice the time).
template <class T, void (*Fill)(const philox::Block&, T*)>
KILN_VECTOR_CLONES void draw_blocks(const RandomArgs& a, int64_t begin, int64_t end) {
  constexpr int64_t per_block = 16 / sizeof(T);
  T* out = reinterpret_cast<T*>(a.out);
  T values[per_block];
  for (int64_t b = begin; b < end; ++b) {
    Fill(philox::stream_block(a.key, a.first_block + static_cast<uint64_t>(b)), values);
    const int64_t at = b * per_block;
    std::memcpy(out + at, values, sizeof(T) * static_cast<size_t>(std::min(per_block, a.n - at)));
  }
}

template <class T, void (*Fill)(const philox::Block&, T*)>
void draw(const RandomArgs& a) {
  constexpr int64_t per_block = 16 / sizeof(T);
  const int64_t blocks = (a.n + per_block - 1) / per_block;
  parallel_for(blocks, kGrain, [&](int64_t begin, int64_t end) { draw_blocks<T, Fill>(a, begin, end); });
}

}  // namespace

void register_random_kernels(KernelTable& t) {
  const int bits = static_cast<int>(RandomKind::Bits), uniform = static_cast<int>(RandomKind::Uniform),
            normal = static_cast<int>(RandomKind::Normal);
  t.random[bits][static_cast<int>(DType::UInt32)] = &draw<unsigned int, philox::bits>;
  t.random[bits][static_cast<int>(DType::UInt64)] = &draw<unsigned long long, philox::bits>;
  t.random[uniform][static_cast<int>(DType::Float32)] = &draw<float, philox::uniform>;
  t.random[uniform][static_cast<int>(DType::Float64)] = &draw<double, philox::uniform>;
  t.random[normal][static_cast<int>(DType::Float32)] = &draw<float, philox::normal>;
  t.random[normal][static_cast<int>(DType::Float64)] = &draw<double, philox::normal>;
}

}  // namespace kiln::cpu
