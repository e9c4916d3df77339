// take on the CPU: rows of `inner` elements copied whole, split over the
// cores. put: in order on one core, so that a repeated index keeps the last
// value, as NumPy's does.
#include <atomic>
#include <cstdint>
#include <cstring>

#include "backend.hpp"
#include "parallel.hpp"

namespace kiln::cpu {
namespace {

constexpr int64_t kGrainBytes = 1 << 16;  // bytes a core copies at least

int64_t gather(const GatherArgs& a) {
  const int64_t row = a.inner * a.itemsize;  // bytes of one picked row
  const int64_t rows = a.outer * a.count;
  const int64_t grain = row >= kGrainBytes ? 1 : kGrainBytes / (row > 0 ? row : 1);
  std::atomic<int64_t> first_bad{INT64_MAX};
  parallel_for(rows, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t o = r / a.count, j = r % a.count;
      int64_t k = a.indices[j];
      if (a.check_bounds && (k < -a.axis_length || k >= a.axis_length)) {
        int64_t seen = first_bad.load(std::memory_order_relaxed);
        while (j < seen && !first_bad.compare_exchange_weak(seen, j, std::memory_order_relaxed)) {
        }
        continue;
      }
      if (k < 0) k += a.axis_length;
      const char* from = a.src + (o * a.axis_length + k) * row;
      char* to = a.dst + r * row;
      // Rows of 8 or 4 bytes (single elements, mostly) copied with a constant
      // size, which compiles to one move: a memcpy call each would dominate.
      if (row == 8) std::memcpy(to, from, 8);
      else if (row == 4) std::memcpy(to, from, 4);
      else std::memcpy(to, from, static_cast<size_t>(row));
    }
  });
  const int64_t bad = first_bad.load();
  return bad == INT64_MAX ? -1 : bad;
}

void scatter(const ScatterArgs& a) {
  for (int64_t j = 0; j < a.count; ++j) {
    int64_t k = a.indices[j];
    if (k < 0) k += a.length;
    std::memcpy(a.dst + k * a.itemsize, a.values + (j % a.value_count) * a.itemsize, static_cast<size_t>(a.itemsize));
  }
}

}  // namespace

void register_gather_kernels(KernelTable& table) {
  table.gather = &gather;
  table.scatter = &scatter;
}

}  // namespace kiln::cpu
